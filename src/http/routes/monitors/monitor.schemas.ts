import { Type } from '@sinclair/typebox';
import { DNS_RECORD_TYPES, HTTP_METHODS, MONITOR_STATUSES, MONITOR_TYPES } from '../../../modules/monitors/index.ts';
import { ListOf, NullableTimestamp, PageQuery, Timestamp } from '../../schemas/common.schemas.ts';

/** No control characters (a NUL byte in a query would make PostgreSQL fail instead of match nothing). */
const NO_CONTROL = '^[^\\u0000-\\u001f\\u007f]*$';
const noControl = { pattern: NO_CONTROL, 'x-issue': 'must not contain control characters' };

const lit = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));

const Assertion = Type.Object(
  {
    type: lit(['status', 'response_time', 'header', 'body', 'json'] as const),
    equals: Type.Optional(Type.Unknown()),
    in: Type.Optional(Type.Array(Type.Integer())),
    less_than: Type.Optional(Type.Integer()),
    name: Type.Optional(Type.String()),
    contains: Type.Optional(Type.Unknown()),
    not_contains: Type.Optional(Type.String()),
    matches: Type.Optional(Type.String()),
    path: Type.Optional(Type.String()),
    exists: Type.Optional(Type.Boolean()),
  },
  {
    $id: 'Assertion',
    title: 'Assertion',
    additionalProperties: true,
    description:
      '`{"type":"status","equals":200}` or `{"type":"status","in":[200,204]}`; `{"type":"response_time","less_than":500}`; ' +
      '`{"type":"header","name":"content-type","contains":"json"}` (or equals/matches); `{"type":"body","contains":"ok"}` ' +
      '(or not_contains/matches); `{"type":"json","path":"$.status","equals":"ok"}` (or contains/exists).',
  },
);

const common = {
  timeout_ms: Type.Optional(Type.Integer({ minimum: 100, maximum: 60000, default: 10000 })),
  failure_threshold: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 100,
      default: 2,
      description: 'Consecutive failures before the monitor goes down and an incident opens.',
    }),
  ),
  success_threshold: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100, default: 1, description: 'Consecutive successes needed to recover.' }),
  ),
  confirm_regions: Type.Optional(
    Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
      description: 'Regions that must agree; default 1 for one region, a majority for several.',
    }),
  ),
  alert_destination_ids: Type.Optional(Type.Array(Type.String(), { description: 'Destinations (dst_…) to notify.' })),
  alert_latency_ms: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
  reminder_interval_minutes: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
  intelligence_incidents: Type.Optional(
    Type.Boolean({
      default: false,
      description: 'Latency anomalies, slow periods and security-grade drops open incidents with source intelligence.',
    }),
  ),
};

const HttpConfig = Type.Object(
  {
    ...common,
    method: Type.Optional(lit(HTTP_METHODS)),
    headers: Type.Optional(Type.Record(Type.String(), Type.String())),
    body: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    follow_redirects: Type.Optional(Type.Boolean({ default: true })),
    verify_tls: Type.Optional(Type.Boolean({ default: true })),
    assertions: Type.Optional(Type.Array(Type.Ref(Assertion))),
    content_ignore_patterns: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
        maxItems: 20,
        description: 'Regular expressions removed from the body before its content digest (change detection).',
      }),
    ),
  },
  { $id: 'HttpMonitorConfig', title: 'HttpMonitorConfig', description: 'config of an http monitor' },
);
const TlsConfig = Type.Object(
  { ...common, alert_days_before_expiry: Type.Optional(Type.Integer({ minimum: 1, maximum: 365, default: 14 })) },
  {
    $id: 'TlsMonitorConfig',
    title: 'TlsMonitorConfig',
    description: 'config of a tls monitor (target host:port or https URL)',
  },
);
const TcpConfig = Type.Object(common, {
  $id: 'TcpMonitorConfig',
  title: 'TcpMonitorConfig',
  description: 'config of a tcp monitor (target host:port)',
});
const DnsConfig = Type.Object(
  {
    ...common,
    record_type: Type.Optional(lit(DNS_RECORD_TYPES)),
    resolver: Type.Optional(
      Type.Union([Type.String(), Type.Null()], {
        description: 'IP[:port] of the resolver; default the system resolver.',
      }),
    ),
    expected: Type.Optional(Type.Array(Type.String(), { description: 'Answers that must all be present.' })),
  },
  { $id: 'DnsMonitorConfig', title: 'DnsMonitorConfig', description: 'config of a dns monitor (target a domain name)' },
);
const GrpcConfig = Type.Object(
  {
    ...common,
    tls: Type.Optional(Type.Boolean({ default: false })),
    service: Type.Optional(Type.String({ default: '', description: '"" = the server\'s overall health.' })),
  },
  {
    $id: 'GrpcMonitorConfig',
    title: 'GrpcMonitorConfig',
    description: 'config of a grpc monitor (grpc.health.v1 Check; target host:port)',
  },
);
const HeartbeatConfig = Type.Object(
  {
    ...common,
    grace_seconds: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 86400, description: 'Default max(60, 20% of the interval).' }),
    ),
  },
  {
    $id: 'HeartbeatMonitorConfig',
    title: 'HeartbeatMonitorConfig',
    description: 'config of a heartbeat monitor (push: POST /api/v1/heartbeats/{token})',
  },
);

export const MONITOR_SHARED_SCHEMAS = [
  Assertion,
  HttpConfig,
  TlsConfig,
  TcpConfig,
  DnsConfig,
  GrpcConfig,
  HeartbeatConfig,
];

/** The config is checked per type by the monitors module (precise `details`); these describe the shapes. */
const ConfigAnyType = Type.Union(
  [
    Type.Ref(HttpConfig),
    Type.Ref(TlsConfig),
    Type.Ref(TcpConfig),
    Type.Ref(DnsConfig),
    Type.Ref(GrpcConfig),
    Type.Ref(HeartbeatConfig),
  ],
  { description: 'Type-specific settings; see the *MonitorConfig schemas. Unknown keys are rejected.' },
);

/** Body of POST /monitors. Field-level checks happen in the monitors module so `details` are precise. */
export const MonitorCreateBody = Type.Object(
  {
    name: Type.Optional(Type.String({ description: "Default: the URL's host." })),
    type: Type.Optional(lit(MONITOR_TYPES)),
    target: Type.Optional(
      Type.String({
        description: 'URL for http; host:port for tcp/grpc/tls; a domain for dns; omitted for heartbeat.',
      }),
    ),
    interval_seconds: Type.Optional(Type.Integer({ description: "Default: the plan's floor." })),
    region_codes: Type.Optional(
      Type.Array(Type.String(), { description: "Default: the organization's default region." }),
    ),
    tags: Type.Optional(Type.Array(Type.String())),
    environment: Type.Optional(Type.String({ description: 'Default: production.' })),
    config: Type.Optional(ConfigAnyType),
    paused: Type.Optional(Type.Boolean()),
  },
  {
    'x-domain-validated': true,
    description: 'Minimum input: {"target": "https://example.com"}. Unknown fields are rejected.',
  },
);

export const MonitorPatchBody = Type.Object(
  {
    name: Type.Optional(Type.String()),
    target: Type.Optional(Type.String()),
    interval_seconds: Type.Optional(Type.Integer()),
    region_codes: Type.Optional(Type.Array(Type.String())),
    tags: Type.Optional(Type.Array(Type.String())),
    environment: Type.Optional(Type.String()),
    config: Type.Optional(ConfigAnyType),
    paused: Type.Optional(Type.Boolean()),
  },
  {
    'x-domain-validated': true,
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
