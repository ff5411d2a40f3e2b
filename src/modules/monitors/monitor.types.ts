export const MONITOR_TYPES = [
  'http',
  'tls',
  'tcp',
  'dns',
  'grpc',
  'heartbeat',
  'icmp',
  'udp',
  'domain',
  'smtp',
  'websocket',
  'postgres',
  'mysql',
  'redis',
] as const;
export type MonitorType = (typeof MONITOR_TYPES)[number];

export const MONITOR_STATUSES = [
  'pending',
  'up',
  'down',
  'paused',
  // Not an outage (DECISIONS §20): checks slower than `degraded_latency_ms`, or failing in fewer regions than
  // `confirm_regions`.
  'degraded',
] as const;
export type MonitorStatus = (typeof MONITOR_STATUSES)[number];

export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
export const DNS_RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS'] as const;
export const UDP_SEND_ENCODINGS = ['text', 'base64', 'hex'] as const;

/** Settings every monitor type has (alerting and thresholds). */
export interface CommonConfig {
  timeout_ms: number;
  failure_threshold: number;
  success_threshold: number;
  /** Regions that must agree before the monitor goes down; null = 1 for one region, a majority for several. */
  confirm_regions: number | null;
  alert_destination_ids: string[];
  alert_latency_ms: number | null;
  reminder_interval_minutes: number | null;
  /** Anomalies and security-grade drops open incidents with source `intelligence` (DECISIONS §13); absent = false. */
  intelligence_incidents?: boolean;
  /**
   * Parents (DECISIONS §17): while one is down or in maintenance, this monitor's outage is held back from alerting;
   * absent = none. Stored in the config and indexed by the `monitor_dependency` rows.
   */
  depends_on?: string[];
  /**
   * DECISIONS §20: a check that succeeds but takes longer than this (its `duration_ms`) is slow; `failure_threshold`
   * consecutive slow checks make the monitor `degraded`, `success_threshold` fast ones make it `up` again. Absent =
   * latency never degrades (failures in fewer regions than `confirm_regions` still do).
   */
  degraded_latency_ms?: number;
}

export interface HttpConfig extends CommonConfig {
  method: (typeof HTTP_METHODS)[number];
  headers: Record<string, string>;
  body: string | null;
  follow_redirects: boolean;
  verify_tls: boolean;
  /** PEM certificates trusted besides the process's roots (private CA, self-signed); absent = none. */
  ca_certificate?: string;
  assertions: Array<Record<string, unknown>>;
  /** Regular expressions removed from the body before its content digest (intelligence); absent = none. */
  content_ignore_patterns?: string[];
}
export interface TlsConfig extends CommonConfig {
  alert_days_before_expiry: number;
  /** false: an untrusted chain or another host name is reported, not a failure (expiry still is); absent = true. */
  verify_tls?: boolean;
  /** PEM certificates trusted besides the process's roots (private CA, self-signed); absent = none. */
  ca_certificate?: string;
}
export type TcpConfig = CommonConfig;
export interface DnsConfig extends CommonConfig {
  record_type: (typeof DNS_RECORD_TYPES)[number];
  resolver: string | null;
  expected: string[];
}
export interface GrpcConfig extends CommonConfig {
  tls: boolean;
  service: string;
  /** `package.Service/Method`: call this unary method instead of the health check. */
  method?: string;
  /** The request (JSON, field names as in the .proto file); with `method`. */
  request?: Record<string, unknown>;
  /** Metadata sent with the call (health check or method). */
  metadata?: Record<string, string>;
  /** The gRPC status name that counts as up; with `method`. */
  expected_status?: string;
  /** JSON-path (`json`) and `response_time` assertions on the response; with `method`. */
  assertions?: Array<Record<string, unknown>>;
}

/** gRPC status codes by name, in code order (0 = OK … 16 = UNAUTHENTICATED). */
export const GRPC_STATUS_NAMES = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
] as const;
export interface HeartbeatConfig extends CommonConfig {
  grace_seconds: number;
}
/** How an smtp check gets to TLS: not at all, STARTTLS after EHLO, or TLS from the first byte (port 465). */
export const SMTP_TLS_MODES = ['none', 'starttls', 'implicit'] as const;
export interface SmtpConfig extends CommonConfig {
  tls_mode: (typeof SMTP_TLS_MODES)[number];
  /** false: an untrusted chain or another host name is reported, not a failure (expiry still is); absent = true. */
  verify_tls?: boolean;
  ca_certificate?: string;
  /** With TLS: `cert_expiring` when the certificate expires within so many days. */
  alert_days_before_expiry: number;
  /** `response_time`, and `body` on the banner. */
  assertions: Array<Record<string, unknown>>;
}
export interface WebsocketConfig extends CommonConfig {
  headers: Record<string, string>;
  /** A text message sent after the upgrade; null = none. */
  send: string | null;
  /** A substring the first message must contain; null = no message awaited (unless a body assertion reads it). */
  expect: string | null;
  verify_tls: boolean;
  ca_certificate?: string;
  /** `response_time`, and `body` on the first message. */
  assertions: Array<Record<string, unknown>>;
}

/** The database types (DECISIONS §20): connect, log in, an optional query and expected value. */
export const DATABASE_TYPES = ['postgres', 'mysql', 'redis'] as const;
export type DatabaseType = (typeof DATABASE_TYPES)[number];
/** sslmode-like: no TLS; TLS without checking the certificate; TLS with chain and host name checked. */
export const DATABASE_TLS_MODES = ['disable', 'require', 'verify'] as const;
/** The config keys that are credentials: accepted, used by the probe, never shown (docs/monitors.md). */
export const WRITE_ONLY_CONFIG_KEYS = ['password'] as const;

export interface DatabaseConfig extends CommonConfig {
  tls_mode: (typeof DATABASE_TLS_MODES)[number];
  /** postgres: default postgres; mysql: default root; redis: an ACL user (absent = the default user). */
  username?: string;
  /** Write-only: stored with the monitor, never returned by the API (`password_set` says whether there is one). */
  password?: string;
  /** postgres/mysql: the database; redis: the index to SELECT. */
  database?: string;
  /** PEM certificates trusted besides the process's roots under tls_mode verify. */
  ca_certificate?: string;
  /** postgres/mysql: SQL whose first value is compared; redis: a command (PING when absent). */
  query?: string;
  /** The first value returned, as text, must equal this. */
  expected_value?: string;
  /** response_time, and body (on the value as text) assertions. */
  assertions?: Array<Record<string, unknown>>;
}

export interface IcmpConfig extends CommonConfig {
  /** Echo requests per check, 200 ms apart (default 3). */
  count: number;
  /** Lost share (0-100) still up; more is down (default 50: one lost echo of three is no outage). */
  max_loss_percent: number;
  /** `response_time` assertions, against the average round trip. */
  assertions: Array<Record<string, unknown>>;
}
export interface UdpConfig extends CommonConfig {
  /** The datagram sent, in `send_encoding` (default "" as text: an empty datagram). */
  send: string;
  send_encoding: (typeof UDP_SEND_ENCODINGS)[number];
  /** Text the reply must contain; null = any reply. */
  expect: string | null;
  /** `body` (on the reply as UTF-8) and `response_time` assertions. */
  assertions: Array<Record<string, unknown>>;
}
export interface DomainConfig extends CommonConfig {
  alert_days_before_expiry: number;
  /** The RDAP server asked (its base URL, `…/domain/<name>` is appended); absent = the IANA bootstrap's. */
  rdap_base_url?: string;
}

export type MonitorConfig =
  | HttpConfig
  | TlsConfig
  | TcpConfig
  | DnsConfig
  | GrpcConfig
  | HeartbeatConfig
  | IcmpConfig
  | UdpConfig
  | DomainConfig
  | SmtpConfig
  | WebsocketConfig
  | DatabaseConfig;

/** What a heartbeat ping needs of its monitor (the ping batch reads only these columns). */
export type HeartbeatTarget = Pick<Monitor, 'id' | 'organizationId' | 'type' | 'status' | 'paused' | 'createdAt'>;

export interface Monitor {
  id: string;
  organizationId: string;
  name: string;
  type: MonitorType;
  target: string;
  intervalSeconds: number;
  regionCodes: string[];
  tags: string[];
  environment: string;
  config: MonitorConfig & Record<string, unknown>;
  paused: boolean;
  status: MonitorStatus;
  statusChangedAt: number;
  lastCheckedAt: number | null;
  /** Secret part of a heartbeat monitor's push URL. */
  heartbeatToken: string | null;
  createdAt: number;
  updatedAt: number;
  /**
   * Read only, filled by the API's reads: the parents that are down or in maintenance while this monitor is down
   * (DECISIONS §17); absent or empty otherwise.
   */
  blockedBy?: string[];
}

/**
 * The body of POST /monitors, its shape checked by the route's schema (types, ranges, lengths, unknown keys, the
 * config keys of its type); `validateMonitor` applies the defaults and the rules a schema cannot say.
 */
export interface MonitorInput {
  name?: string;
  type?: MonitorType;
  target?: string;
  interval_seconds?: number;
  region_codes?: string[];
  tags?: string[];
  environment?: string;
  /** A key set to null means its default. */
  config?: Record<string, unknown>;
  paused?: boolean;
}

/** The body of PATCH /monitors/{id}: the fields to change (the type never changes). */
export type MonitorPatch = Omit<MonitorInput, 'type'>;

export interface MonitorFilter {
  tag?: string;
  status?: MonitorStatus;
  /**
   * Maintenance windows active now (DECISIONS §16): `inside` keeps only unpaused monitors they cover (the status
   * `maintenance` of monitor reads), `outside` drops those (a monitor read as `maintenance` is not listed as `up`).
   */
  maintenance?: { monitorIds: readonly string[]; tags: readonly string[]; match: 'inside' | 'outside' };
  type?: MonitorType;
  environment?: string;
  q?: string;
}
