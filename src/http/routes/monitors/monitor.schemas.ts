import { MANAGED_FIELDS } from '../../schemas/managed.schemas.ts';
import { Type, type Static, type TSchema, type TUnsafe } from '@sinclair/typebox';
import {
  DNS_RECORD_TYPES,
  DATABASE_TLS_MODES,
  HTTP_METHODS,
  GRPC_STATUS_NAMES,
  MONITOR_STATUSES,
  MONITOR_TYPES,
  UDP_SEND_ENCODINGS,
  SMTP_TLS_MODES,
  MONITOR_SORTS,
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
  degraded_latency_ms: Type.Optional(
    orNull(
      int(1, 60_000, {
        description:
          'A successful check slower than this (ms, less than timeout_ms) is slow: failure_threshold consecutive slow ' +
          'checks make the monitor degraded (not an outage: no incident), success_threshold fast ones make it up ' +
          'again. Default none. docs/monitors.md, "Degraded".',
      }),
    ),
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

/** postgres, mysql, redis (DECISIONS §20): the password is write-only (never in a response). docs/monitors.md. */
const databaseKeys = {
  username: Type.Optional(
    orNull(
      str({
        minLength: 1,
        maxLength: 128,
        ...noControl,
        description: 'postgres: default postgres; mysql: default root; redis: an ACL user (default: the default user).',
      }),
    ),
  ),
  password: Type.Optional(
    orNull(
      str({
        minLength: 1,
        maxLength: 1024,
        writeOnly: true,
        description:
          'Write-only: used to log in, never returned (the monitor shows password_set); null removes it. A PATCH ' +
          'that changes the target must give it again.',
      }),
    ),
  ),
  database: Type.Optional(
    orNull(
      str({
        minLength: 1,
        maxLength: 128,
        ...noControl,
        description: 'postgres: default the user name; mysql: none by default; redis: the index to SELECT (0, 1, …).',
      }),
    ),
  ),
  tls_mode: Type.Optional(
    orNull(
      oneOfText(DATABASE_TLS_MODES, {
        default: 'disable',
        description:
          'disable: no TLS; require: TLS, the certificate not checked; verify: TLS with the chain and host name ' +
          'checked (ca_certificate trusted besides the system roots).',
      }),
    ),
  ),
  ca_certificate: Type.Optional(orNull(PEM)),
  query: Type.Optional(
    orNull(
      str({
        minLength: 1,
        maxLength: 4096,
        description:
          'postgres/mysql: SQL run after the login (read-only on postgres); redis: a command, e.g. GET health:flag ' +
          '(default PING; double quotes keep spaces). Without it a postgres/mysql check is the login alone.',
      }),
    ),
  ),
  expected_value: Type.Optional(
    orNull(
      str({
        maxLength: 1024,
        description:
          'The first value returned (first column of the first row; the reply for redis), as the server prints it, ' +
          'must equal this. postgres/mysql: needs query.',
      }),
    ),
  ),
  assertions: Type.Optional(
    orNull(
      list(Type.Ref(Assertion), 20, {
        description: 'response_time, and body (contains/not_contains/matches on the value as text).',
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
      orNull(
        int(0, 86_400, {
          description: 'Seconds a ping may be late; default 60 with a schedule, else max(60, 20% of the interval).',
        }),
      ),
    ),
    schedule: Type.Optional(
      orNull(
        Type.Object(
          {
            every_seconds: Type.Optional(int(1, 31_536_000, { description: 'A ping is due this often.' })),
            cron: Type.Optional(
              str({
                minLength: 1,
                maxLength: 200,
                description: 'A 5-field cron expression or @hourly, @daily, @weekly, @monthly, @yearly.',
              }),
            ),
            timezone: Type.Optional(
              str({ minLength: 1, maxLength: 64, description: 'The IANA zone the cron runs in; default UTC.' }),
            ),
          },
          {
            additionalProperties: false,
            description:
              'When pings are due: {"every_seconds": n} or {"cron": "30 2 * * *", "timezone": "Europe/Paris"}. ' +
              'Absent: every interval_seconds. interval_seconds is then how often the schedule is checked.',
            'x-issues': { ...objectIssue, additionalProperties: 'is not a known field of a schedule' },
          },
        ),
      ),
    ),
    max_run_seconds: Type.Optional(
      orNull(int(1, 604_800, { description: 'A run (a /start ping without its end) open longer than this is down.' })),
    ),
    slug: Type.Optional(
      orNull(
        str({
          minLength: 1,
          maxLength: 64,
          description: "The monitor's name in /api/v1/ping/{ping_key}/{slug}; unique in the organization.",
        }),
      ),
    ),
  },
  icmp: {
    count: Type.Optional(
      orNull(int(1, 20, { default: 3, description: 'Echo requests per check, sent 200 ms apart.' })),
    ),
    max_loss_percent: Type.Optional(
      orNull(
        int(0, 100, {
          default: 50,
          description: 'Largest share of lost echo requests (percent) that is still up; more is down.',
        }),
      ),
    ),
    assertions: Type.Optional(
      orNull(
        list(Type.Ref(Assertion), 20, {
          default: [],
          description: 'response_time assertions, judged against the average round-trip time.',
        }),
      ),
    ),
  },
  udp: {
    send: Type.Optional(
      orNull(
        str({ maxLength: 8192, default: '', description: 'The datagram sent, in send_encoding; "" = an empty one.' }),
      ),
    ),
    send_encoding: Type.Optional(
      orNull(
        oneOfText(UDP_SEND_ENCODINGS, {
          default: 'text',
          description: 'How send is written: text (UTF-8), base64 or hex bytes.',
        }),
      ),
    ),
    expect: Type.Optional(
      orNull(
        str({
          minLength: 1,
          maxLength: 1024,
          default: null,
          description: 'Text the reply (read as UTF-8) must contain; default any reply.',
        }),
      ),
    ),
    assertions: Type.Optional(
      orNull(
        list(Type.Ref(Assertion), 20, {
          default: [],
          description: 'body (on the reply) and response_time assertions.',
        }),
      ),
    ),
  },
  domain: {
    alert_days_before_expiry: Type.Optional(
      orNull(
        int(1, 365, {
          default: 30,
          description: 'Raise cert_expiring (data.kind "domain") when the registration expires within so many days.',
        }),
      ),
    ),
    rdap_base_url: Type.Optional(
      orNull(
        str({
          minLength: 1,
          maxLength: 2048,
          description:
            'RDAP server base URL (…/domain/<name> is appended); default the IANA bootstrap registry for the TLD.',
        }),
      ),
    ),
  },
  smtp: {
    tls_mode: Type.Optional(
      orNull(
        oneOfText(SMTP_TLS_MODES, {
          default: 'none',
          description:
            'none: banner and EHLO in the clear; starttls: STARTTLS after EHLO (down when not offered); implicit: TLS ' +
            "from the first byte (port 465 by default). With TLS the certificate is judged like a tls monitor's.",
        }),
      ),
    ),
    verify_tls: Type.Optional(
      orNull(
        bool({
          default: true,
          description: 'false: an untrusted chain or another host name is reported, not a failure; expiry still is.',
        }),
      ),
    ),
    ca_certificate: Type.Optional(orNull(PEM)),
    alert_days_before_expiry: Type.Optional(
      orNull(int(1, 365, { default: 14, description: 'With TLS: cert_expiring this many days before expiry.' })),
    ),
    assertions: Type.Optional(
      orNull(
        list(Type.Ref(Assertion), 20, {
          default: [],
          description: 'response_time, and body assertions on the banner (the 220 greeting text).',
        }),
      ),
    ),
  },
  websocket: {
    headers: Type.Optional(
      orNull(
        Type.Record(
          Type.String(),
          str({ maxLength: 8192, pattern: HEADER_VALUE, 'x-issues': { maxLength: oneLine, pattern: oneLine } }),
          {
            maxProperties: 50,
            default: {},
            description:
              'Headers of the upgrade request (at most 50; Origin, Authorization, Sec-WebSocket-Protocol …; not ' +
              "the handshake's own).",
            'x-issues': { ...objectIssue, maxProperties: 'must have at most 50 headers' },
          },
        ),
      ),
    ),
    send: Type.Optional(
      orNull(str({ maxLength: 65_536, default: null, description: 'A text message sent after the upgrade.' })),
    ),
    expect: Type.Optional(
      orNull(
        str({
          minLength: 1,
          maxLength: 4096,
          default: null,
          description:
            'Text the first message must contain (within timeout_ms); for a regular expression use a body assertion ' +
            'with matches. Without it (and without body assertions) no message is awaited.',
          'x-issues': { minLength: 'must not be empty' },
        }),
      ),
    ),
    verify_tls: Type.Optional(orNull(bool({ default: true }))),
    ca_certificate: Type.Optional(orNull(PEM)),
    assertions: Type.Optional(
      orNull(
        list(Type.Ref(Assertion), 20, {
          default: [],
          description: 'response_time, and body assertions on the first message.',
        }),
      ),
    ),
  },
  postgres: databaseKeys,
  mysql: databaseKeys,
  redis: databaseKeys,
} satisfies Record<MonitorType, Record<string, TSchema>>;

const configDescriptions: Record<MonitorType, string> = {
  http: 'config of an http monitor',
  tls: 'config of a tls monitor (target host:port or https URL)',
  tcp: 'config of a tcp monitor (target host:port)',
  dns: 'config of a dns monitor (target a domain name)',
  grpc: 'config of a grpc monitor (grpc.health.v1 Check; target host:port)',
  heartbeat: 'config of a heartbeat monitor (push: POST /api/v1/heartbeats/{token})',
  icmp: 'config of an icmp monitor (ping; target a host name or IP address)',
  udp: 'config of a udp monitor (send a datagram, expect a reply; target host:port)',
  domain: 'config of a domain monitor (RDAP registration expiry; target a domain name)',
  smtp: 'config of an smtp monitor (banner, EHLO, optional STARTTLS; target host or host:port, port 25 or 465)',
  websocket: 'config of a websocket monitor (upgrade, optional send/expect; target a ws:// or wss:// URL)',
  postgres: 'config of a postgres monitor (target host:port or a host, port 5432)',
  mysql: 'config of a mysql monitor, MySQL or MariaDB (target host:port or a host, port 3306)',
  redis: 'config of a redis monitor (target host:port or a host, port 6379)',
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
  icmp: configOf('icmp'),
  udp: configOf('udp'),
  domain: configOf('domain'),
  smtp: configOf('smtp'),
  websocket: configOf('websocket'),
  postgres: configOf('postgres'),
  mysql: configOf('mysql'),
  redis: configOf('redis'),
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
    description:
      'URL for http; host:port for tcp/grpc/udp; host:port, a host or an https URL for tls; a domain for dns and ' +
      'domain; a host for icmp; host or host:port for smtp; a ws:// or wss:// URL for websocket; host:port or a ' +
      'host for postgres/mysql/redis (never a URL: credentials go in config).',
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
  {
    ...common,
    // First, so that the keys they share with http and tls (headers, assertions …) keep those descriptions; websocket
    // after udp, so that the looser bounds of the keys both have (send, expect) admit either type's patch (the merged
    // config is then checked against its monitor's type).
    ...typeKeys.icmp,
    ...typeKeys.udp,
    ...typeKeys.domain,
    ...typeKeys.smtp,
    ...typeKeys.websocket,
    ...databaseKeys,
    ...typeKeys.http,
    ...typeKeys.tls,
    ...typeKeys.dns,
    ...typeKeys.grpc,
    ...typeKeys.heartbeat,
    // Two types name a key `method` (http: an HTTP method, grpc: package.Service/Method): a patch takes either, and the
    // merged config is checked against its monitor's type (the grpc pattern alone refused every http edit).
    method: Type.Optional(
      orNull(str({ maxLength: 512, description: 'http: an HTTP method; grpc: package.Service/Method.' })),
    ),
    // Likewise `tls_mode`: smtp's none/starttls/implicit, the database types' disable/require/verify.
    tls_mode: Type.Optional(
      orNull(
        oneOfText([...new Set([...SMTP_TLS_MODES, ...DATABASE_TLS_MODES])], {
          description: 'smtp: none, starttls or implicit; postgres, mysql, redis: disable, require or verify.',
        }),
      ),
    ),
  },
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
    status: Type.Union(
      [...MONITOR_STATUSES, 'maintenance' as const].map((v) => Type.Literal(v)),
      {
        description:
          '`maintenance` while a maintenance window covers the monitor (checks still run and are stored); `degraded` ' +
          'when its checks are slower than config.degraded_latency_ms or fail in fewer regions than confirm_regions ' +
          '(not an outage).',
      },
    ),
    status_changed_at: Timestamp(),
    last_checked_at: NullableTimestamp(),
    heartbeat_url: Type.Optional(Type.String({ description: 'heartbeat monitors: where the job POSTs.' })),
    password_set: Type.Optional(
      Type.Boolean({
        description: 'postgres, mysql, redis: whether config.password is set (the password itself is never shown).',
      }),
    ),
    blocked_by: Type.Optional(
      Type.Array(Type.String(), {
        description:
          'While the monitor is down: its parents (config.depends_on) that are down or in maintenance now; ' +
          'absent otherwise. docs/dependencies.md.',
      }),
    ),
    created_at: Timestamp(),
    updated_at: Timestamp(),
    ...MANAGED_FIELDS,
  },
  { $id: 'Monitor', title: 'Monitor' },
);

export const MonitorList = ListOf(Type.Ref(MonitorRecord), 'MonitorList');

export const MonitorListQuery = Type.Object({
  ...PageQuery,
  tag: Type.Optional(Type.String({ maxLength: 64, ...noControl, description: 'Monitors carrying exactly this tag.' })),
  status: Type.Optional(
    Type.Union(
      [...MONITOR_STATUSES, 'maintenance' as const].map((v) => Type.Literal(v)),
      {
        description:
          'Monitors showing this status: `maintenance` lists the unpaused monitors an active maintenance window covers ' +
          '(by id or tag); `up`, `degraded`, `down` and `pending` leave those out, as the monitor reads `maintenance` then.',
      },
    ),
  ),
  type: Type.Optional(lit(MONITOR_TYPES)),
  environment: Type.Optional(Type.String({ maxLength: 32, ...noControl })),
  q: Type.Optional(
    Type.String({ maxLength: 200, ...noControl, description: 'Text to find in name or target (case-insensitive).' }),
  ),
  sort: Type.Optional(
    Type.Union(
      MONITOR_SORTS.map((v) => Type.Literal(v)),
      {
        description:
          'Order of the list (default `id`, creation order): `name`; `status` (down, pending, up, paused, then by ' +
          'name; a monitor in maintenance sorts by its stored status); `type` (then by name); `last_checked` (most ' +
          'recent first, never checked last). A cursor belongs to its sort.',
      },
    ),
  ),
});

/** The body of the heartbeat schedule preview: the schedule and grace as a heartbeat monitor's config holds them. */
export const HeartbeatSchedulePreviewBody = Type.Object(
  { schedule: typeKeys.heartbeat.schedule, grace_seconds: typeKeys.heartbeat.grace_seconds },
  {
    additionalProperties: false,
    'x-issues': { ...objectIssue, additionalProperties: 'is not a schedule field (schedule, grace_seconds)' },
  },
);

export const HeartbeatSchedulePreview = Type.Object(
  {
    next: Type.Array(Type.String({ format: 'date-time' }), {
      description:
        'The next 3 expected pings from now, as the engine computes them (for every_seconds: now plus each period).',
    }),
    grace_seconds: Type.Integer({ description: 'The grace that a save would store (60 when not given).' }),
  },
  { $id: 'HeartbeatSchedulePreview', title: 'HeartbeatSchedulePreview' },
);
