import { Type, type Static, type TSchema, type TUnsafe } from '@sinclair/typebox';
import {
  DNS_RECORD_TYPES,
  HTTP_METHODS,
  GRPC_STATUS_NAMES,
  MONITOR_STATUSES,
  MONITOR_TYPES,
  type MonitorType,
} from '../../../modules/monitors/index.ts';
import { ListOf, NullableTimestamp, PageQuery, Timestamp } from '../../schemas/common.schemas.ts';

/** No control characters (a NUL byte in a query would make PostgreSQL fail instead of match nothing). */
const NO_CONTROL = '^[^\\u0000-\\u001f\\u007f]*$';
const noControl = { pattern: NO_CONTROL, 'x-issue': 'must not contain control characters' };
const TAG = '^[A-Za-z0-9][A-Za-z0-9 _.:/=-]{0,63}$';

const lit = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));

/*
 * The bodies of POST and PATCH /monitors are validated by these schemas alone (the OpenAPI document is generated
 * from them); each keyword's issue is worded in `x-issues` so `details` read as they always have. Rules a schema
 * cannot say run after, in the monitors module: the target per type, known regions, confirm_regions against the
 * regions, header names, regular expressions and assertions that compile, destinations that exist, private targets.
 */

/** Every config key also takes null: "back to the default". */
function orNull<T extends TSchema>(schema: T): TUnsafe<Static<T> | null> {
  const { type, enum: values, ...rest } = schema as TSchema & { type?: string; enum?: unknown[] };
  return Type.Unsafe<Static<T> | null>(
    values === undefined
      ? { ...rest, type: [type, 'null'] }
      : { ...rest, type: [type, 'null'], enum: [...values, null] },
  );
}

const between = (min: number, max: number) => `must be between ${min} and ${max}`;

function int(min: number, max: number, options: Record<string, unknown> = {}) {
  const range = between(min, max);
  return Type.Integer({
    minimum: min,
    maximum: max,
    ...options,
    'x-issues': { type: 'must be an integer', minimum: range, maximum: range },
  });
}

const bool = (options: Record<string, unknown> = {}) =>
  Type.Boolean({ ...options, 'x-issues': { type: 'must be true or false' } });

function str(options: Record<string, unknown> = {}) {
  return Type.String({ ...options, 'x-issues': { type: 'must be a string', ...(options['x-issues'] as object) } });
}

function oneOfText<T extends string>(values: readonly T[], options: Record<string, unknown> = {}) {
  const issue = `must be one of ${values.join(', ')}`;
  return Type.Unsafe<T>({ type: 'string', enum: [...values], ...options, 'x-issues': { type: issue, enum: issue } });
}

function list<T extends TSchema>(items: T, maxItems: number, options: Record<string, unknown> = {}) {
  return Type.Array(items, {
    maxItems,
    ...options,
    'x-issues': {
      type: 'must be an array',
      maxItems: `must have at most ${maxItems} items`,
      ...(options['x-issues'] as object),
    },
  });
}

const objectIssue = { type: 'must be an object' };

// The texts of the checks module's assertion rules, which judge the rest of an assertion after the schema.
const statusIssue = 'must be an integer HTTP status (100-599)';
const inIssue = 'must be a non-empty array of HTTP statuses';
const lessThanIssue = 'must be a positive number of milliseconds';

const Assertion = Type.Object(
  {
    type: oneOfText(['status', 'response_time', 'header', 'body', 'json'] as const),
    equals: Type.Optional(Type.Unknown({ description: 'status: an HTTP status; header/body: text; json: any JSON.' })),
    in: Type.Optional(
      Type.Array(
        Type.Integer({
          minimum: 100,
          maximum: 599,
          'x-issues': { type: statusIssue, minimum: statusIssue, maximum: statusIssue },
        }),
        {
          minItems: 1,
          description: 'status: any of these statuses.',
          'x-issues': { type: inIssue, minItems: inIssue },
        },
      ),
    ),
    less_than: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        description: 'response_time: milliseconds.',
        'x-issues': { type: lessThanIssue, exclusiveMinimum: lessThanIssue },
      }),
    ),
    name: Type.Optional(str({ description: 'header: its name.' })),
    contains: Type.Optional(Type.Unknown({ description: 'header/body: text; json: any JSON.' })),
    not_contains: Type.Optional(str()),
    matches: Type.Optional(str({ description: 'A regular expression.' })),
    path: Type.Optional(str({ description: 'json: a JSONPath expression starting with $.' })),
    exists: Type.Optional(Type.Boolean({ 'x-issues': { type: 'must be a boolean' } })),
  },
  {
    $id: 'Assertion',
    title: 'Assertion',
    additionalProperties: true,
    'x-issues': objectIssue,
    description:
      '`{"type":"status","equals":200}` or `{"type":"status","in":[200,204]}`; `{"type":"response_time","less_than":500}`; ' +
      '`{"type":"header","name":"content-type","contains":"json"}` (or equals/matches); `{"type":"body","contains":"ok"}` ' +
      '(or not_contains/matches); `{"type":"json","path":"$.status","equals":"ok"}` (or contains/exists). ' +
      'Exactly one operator; which fields each type takes is checked after the schema.',
  },
);

const HEADER_VALUE = '^[^\\r\\n\\u0000]*$';
const oneLine = 'must be one line of at most 8192 characters';
const PEM = str({
  maxLength: 65_536,
  description:
    'PEM CA certificate(s) trusted for this monitor in addition to (never instead of) the CAs the process trusts: a ' +
    'private CA, or a self-signed certificate itself; certificates only. docs/monitors.md.',
});

const common = {
  timeout_ms: Type.Optional(orNull(int(100, 60_000, { default: 10_000, description: 'Milliseconds per check.' }))),
  failure_threshold: Type.Optional(
    orNull(
      int(1, 100, {
        default: 2,
        description: 'Consecutive failures before the monitor goes down and an incident opens.',
      }),
    ),
  ),
  success_threshold: Type.Optional(
    orNull(int(1, 100, { default: 1, description: 'Consecutive successes needed to recover.' })),
  ),
  confirm_regions: Type.Optional(
    orNull(
      int(1, 1000, {
        description: 'Regions that must agree (at most the number of regions); default 1 for one region, a majority.',
      }),
    ),
  ),
  alert_destination_ids: Type.Optional(
    orNull(
      list(
        str({
          pattern: '^dst_[0-9a-z]{26}$',
          'x-issues': { pattern: 'must be a destination id (dst_…)' },
        }),
        100,
        { uniqueItems: true, default: [], description: 'Destinations (dst_…) of this organization to notify.' },
      ),
    ),
  ),
  alert_latency_ms: Type.Optional(
    orNull(int(1, 600_000, { description: 'Alert when a check takes longer (ms); default none.' })),
  ),
  reminder_interval_minutes: Type.Optional(
    orNull(int(1, 10_080, { description: 'Remind while still down, every so many minutes; default never.' })),
  ),
  depends_on: Type.Optional(
    orNull(
      list(
        str({
          pattern: '^mon_[0-9a-z]{26}$',
          'x-issues': { pattern: 'must be a monitor id (mon_…)' },
        }),
        20,
        {
          uniqueItems: true,
          description:
            'Parent monitors (mon_… of this organization, no cycles): while one is down or in maintenance, this ' +
            "monitor's outage is recorded but not alerted; it is alerted if it is still down when every parent has " +
            'recovered. docs/dependencies.md.',
        },
      ),
    ),
  ),
  intelligence_incidents: Type.Optional(
    orNull(
      bool({
        default: false,
        description:
          'Latency anomalies, slow periods and security-grade drops open incidents with source intelligence.',
      }),
    ),
  ),
};

const typeKeys = {
  http: {
    method: Type.Optional(orNull(oneOfText(HTTP_METHODS, { default: 'GET' }))),
    headers: Type.Optional(
      orNull(
        Type.Record(
          Type.String(),
          str({ maxLength: 8192, pattern: HEADER_VALUE, 'x-issues': { maxLength: oneLine, pattern: oneLine } }),
          {
            maxProperties: 50,
            default: {},
            description: 'Request headers (at most 50, names per RFC 9110).',
            'x-issues': { ...objectIssue, maxProperties: 'must have at most 50 headers' },
          },
        ),
      ),
    ),
    body: Type.Optional(orNull(str({ maxLength: 65_536, default: null, description: 'Request body.' }))),
    follow_redirects: Type.Optional(orNull(bool({ default: true }))),
    verify_tls: Type.Optional(orNull(bool({ default: true }))),
    ca_certificate: Type.Optional(orNull(PEM)),
    assertions: Type.Optional(orNull(list(Type.Ref(Assertion), 20, { default: [] }))),
    content_ignore_patterns: Type.Optional(
      orNull(
        list(
          str({
            minLength: 1,
            maxLength: 200,
            'x-issues': {
              minLength: 'must be a regular expression of 1 to 200 characters',
              maxLength: 'must be a regular expression of 1 to 200 characters',
            },
          }),
          20,
          {
            uniqueItems: true,
            description: 'Regular expressions removed from the body before its content digest (change detection).',
          },
        ),
      ),
    ),
  },
  tls: {
    alert_days_before_expiry: Type.Optional(orNull(int(1, 365, { default: 14 }))),
    verify_tls: Type.Optional(
      orNull(
        bool({
          default: true,
          description:
            'false: an untrusted chain or another host name is reported, not a failure; dates still are (expiry).',
        }),
      ),
    ),
    ca_certificate: Type.Optional(orNull(PEM)),
  },
  tcp: {},
  dns: {
    record_type: Type.Optional(orNull(oneOfText(DNS_RECORD_TYPES, { default: 'A' }))),
    resolver: Type.Optional(
      orNull(
        str({
          minLength: 1,
          maxLength: 64,
          default: null,
          description: 'IP[:port] of the resolver; default the system resolver.',
        }),
      ),
    ),
    expected: Type.Optional(
      orNull(
        list(
          str({
            minLength: 1,
            maxLength: 1024,
            'x-issues': { minLength: 'must be a non-empty answer', maxLength: 'must be a non-empty answer' },
          }),
          50,
          { uniqueItems: true, default: [], description: 'Answers that must all be present.' },
        ),
      ),
    ),
  },
  grpc: {
    tls: Type.Optional(orNull(bool({ default: false }))),
    service: Type.Optional(
      orNull(str({ maxLength: 255, default: '', description: '"" = the server\'s overall health.' })),
    ),
    method: Type.Optional(
      orNull(
        str({
          maxLength: 512,
          pattern: '^[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*/[A-Za-z_][A-Za-z0-9_]*$',
          'x-issues': { pattern: 'must be package.Service/Method' },
          description: 'A unary method to call instead of the health check (descriptors come by reflection).',
        }),
      ),
    ),
    request: Type.Optional(
      orNull(
        Type.Object(
          {},
          {
            additionalProperties: true,
            description: 'The request, field names as in the .proto file (see POST /monitors/grpc/discover).',
            'x-issues': objectIssue,
          },
        ),
      ),
    ),
    metadata: Type.Optional(
      orNull(
        Type.Record(
          Type.String(),
          str({ maxLength: 8192, pattern: HEADER_VALUE, 'x-issues': { maxLength: oneLine, pattern: oneLine } }),
          {
            maxProperties: 50,
            description: 'Metadata sent with the call (at most 50 entries, lower-case keys).',
            'x-issues': { ...objectIssue, maxProperties: 'must have at most 50 entries' },
          },
        ),
      ),
    ),
    expected_status: Type.Optional(orNull(oneOfText(GRPC_STATUS_NAMES, { default: 'OK' }))),
    assertions: Type.Optional(
      orNull(list(Type.Ref(Assertion), 20, { description: 'json and response_time assertions on the response.' })),
    ),
  },
  heartbeat: {
    grace_seconds: Type.Optional(
      orNull(int(0, 86_400, { description: 'Seconds a ping may be late; default max(60, 20% of the interval).' })),
    ),
  },
} satisfies Record<MonitorType, Record<string, TSchema>>;

const configDescriptions: Record<MonitorType, string> = {
  http: 'config of an http monitor',
  tls: 'config of a tls monitor (target host:port or https URL)',
  tcp: 'config of a tcp monitor (target host:port)',
  dns: 'config of a dns monitor (target a domain name)',
  grpc: 'config of a grpc monitor (grpc.health.v1 Check; target host:port)',
  heartbeat: 'config of a heartbeat monitor (push: POST /api/v1/heartbeats/{token})',
};

const title = (type: MonitorType) => `${type[0]!.toUpperCase()}${type.slice(1)}MonitorConfig`;

function configOf<K extends MonitorType>(type: K) {
  return Type.Object(
    { ...common, ...typeKeys[type] },
    {
      $id: title(type),
      title: title(type),
      description: configDescriptions[type],
      additionalProperties: false,
      'x-issues': { ...objectIssue, additionalProperties: `is not a known field for ${type} monitors` },
    },
  );
}

const CONFIGS = {
  http: configOf('http'),
  tls: configOf('tls'),
  tcp: configOf('tcp'),
  dns: configOf('dns'),
  grpc: configOf('grpc'),
  heartbeat: configOf('heartbeat'),
};

export const MONITOR_SHARED_SCHEMAS = [Assertion, ...Object.values(CONFIGS)];

const unknownForMonitors = { additionalProperties: 'is not a known field for monitors' };

/** The top-level fields of a monitor body, for routes that take some of them (the OpenAPI import's defaults). */
export const MONITOR_FIELD_SCHEMAS = {
  name: str({
    minLength: 1,
    maxLength: 200,
    ...noControl,
    description: "Default: the URL's host (host:port or the domain for other types).",
  }),
  target: str({
    minLength: 1,
    maxLength: 2048,
    ...noControl,
    description: 'URL for http; host:port for tcp/grpc; host:port, a host or an https URL for tls; a domain for dns.',
  }),
  interval_seconds: int(1, 86_400, { description: "Seconds between checks; at least the plan's floor (the default)." }),
  region_codes: list(str(), 100, {
    minItems: 1,
    uniqueItems: true,
    description: "Regions of this installation that check it; default the organization's default region.",
    'x-issues': { minItems: 'must list at least one region' },
  }),
  tags: list(
    str({ pattern: TAG, 'x-issues': { pattern: 'must be 1-64 letters, digits, spaces or _ . : / = -' } }),
    50,
    {
      uniqueItems: true,
      default: [],
    },
  ),
  environment: str({
    minLength: 1,
    maxLength: 32,
    pattern: '^([a-z0-9][a-z0-9_-]*)?$',
    'x-issues': { pattern: 'must be lower-case letters, digits, _ or -' },
    description: "Default: production (or the key's only environment).",
  }),
  paused: bool({ default: false }),
};
const fields = MONITOR_FIELD_SCHEMAS;

const createBranches = MONITOR_TYPES.map((type) =>
  Type.Object(
    {
      // Optional for clients (http when absent); the validator fills it in before choosing the branch.
      type: Type.Optional(Type.Literal(type, type === 'http' ? { default: 'http' } : {})),
      name: Type.Optional(fields.name),
      target:
        type === 'heartbeat'
          ? Type.Optional(Type.String({ description: 'Ignored: the push URL is made by Tocsin.' }))
          : fields.target,
      interval_seconds: Type.Optional(fields.interval_seconds),
      region_codes: Type.Optional(fields.region_codes),
      tags: Type.Optional(fields.tags),
      environment: Type.Optional(fields.environment),
      config: Type.Optional(Type.Ref(CONFIGS[type])),
      paused: Type.Optional(fields.paused),
    },
    {
      title: `${title(type).replace('Config', '')}Create`,
      additionalProperties: false,
      'x-issues': unknownForMonitors,
    },
  ),
);

/** Body of POST /monitors: one branch per type, chosen by `type` (http when absent). */
export const MonitorCreateBody = Type.Unsafe<Static<(typeof createBranches)[number]>>({
  type: 'object',
  // The fields every type has, for readers of the document (the branch of the type checks them as well).
  properties: {
    type: oneOfText(MONITOR_TYPES, { default: 'http' }),
    ...fields,
    config: Type.Object(
      {},
      {
        additionalProperties: true,
        description: 'Per type: the *MonitorConfig schemas.',
        'x-issues': objectIssue,
      },
    ),
  },
  additionalProperties: false,
  oneOf: createBranches,
  discriminator: { propertyName: 'type', 'x-default': 'http' },
  'x-issues': {
    type: 'must be a JSON object',
    discriminator: `must be one of ${MONITOR_TYPES.join(', ')}`,
    ...unknownForMonitors,
  },
  description:
    'Minimum input: {"target": "https://example.com"}; `type` is http when absent. Unknown fields are rejected.',
});

/** Every config key of every type: a PATCH merges onto the monitor's config, then its type's keys are checked. */
const ConfigPatch = Type.Object(
  { ...common, ...typeKeys.http, ...typeKeys.tls, ...typeKeys.dns, ...typeKeys.grpc, ...typeKeys.heartbeat },
  {
    title: 'MonitorConfigPatch',
    additionalProperties: false,
    'x-issues': { ...objectIssue, additionalProperties: 'is not a known field for monitors' },
    description: "Keys of the monitor's type (see the *MonitorConfig schemas); null resets a key to its default.",
  },
);

export const MonitorPatchBody = Type.Object(
  {
    type: Type.Optional(
      Type.Unsafe<never>({
        not: {},
        description: 'Cannot change.',
        'x-issues': { not: 'cannot be changed; create a new monitor instead' },
      }),
    ),
    name: Type.Optional(fields.name),
    target: Type.Optional(fields.target),
    interval_seconds: Type.Optional(fields.interval_seconds),
    region_codes: Type.Optional(fields.region_codes),
    tags: Type.Optional(fields.tags),
    environment: Type.Optional(fields.environment),
    config: Type.Optional(ConfigPatch),
    paused: Type.Optional(fields.paused),
  },
  {
    additionalProperties: false,
    'x-issues': { type: 'must be a JSON object', ...unknownForMonitors },
    description: 'Fields to change; config merges key by key (null resets a key to its default). type cannot change.',
  },
);

export const MonitorRecord = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    type: lit(MONITOR_TYPES),
    target: Type.String(),
    interval_seconds: Type.Integer(),
    region_codes: Type.Array(Type.String()),
    tags: Type.Array(Type.String()),
    environment: Type.String(),
    config: Type.Object({}, { additionalProperties: true }),
    paused: Type.Boolean(),
    status: lit(MONITOR_STATUSES),
    status_changed_at: Timestamp(),
    last_checked_at: NullableTimestamp(),
    heartbeat_url: Type.Optional(Type.String({ description: 'heartbeat monitors: where the job POSTs.' })),
    blocked_by: Type.Optional(
      Type.Array(Type.String(), {
        description:
          'While the monitor is down: its parents (config.depends_on) that are down or in maintenance now; ' +
          'absent otherwise. docs/dependencies.md.',
      }),
    ),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'Monitor', title: 'Monitor' },
);

export const MonitorList = ListOf(Type.Ref(MonitorRecord), 'MonitorList');

export const MonitorListQuery = Type.Object({
  ...PageQuery,
  tag: Type.Optional(Type.String({ maxLength: 64, ...noControl, description: 'Monitors carrying exactly this tag.' })),
  status: Type.Optional(lit(MONITOR_STATUSES)),
  type: Type.Optional(lit(MONITOR_TYPES)),
  environment: Type.Optional(Type.String({ maxLength: 32, ...noControl })),
  q: Type.Optional(
    Type.String({ maxLength: 200, ...noControl, description: 'Text to find in name or target (case-insensitive).' }),
  ),
});
