export const MONITOR_TYPES = ['http', 'tls', 'tcp', 'dns', 'grpc', 'heartbeat'] as const;
export type MonitorType = (typeof MONITOR_TYPES)[number];

export const MONITOR_STATUSES = ['pending', 'up', 'down', 'paused'] as const;
export type MonitorStatus = (typeof MONITOR_STATUSES)[number];

export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
export const DNS_RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS'] as const;

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

export type MonitorConfig = HttpConfig | TlsConfig | TcpConfig | DnsConfig | GrpcConfig | HeartbeatConfig;

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
  type?: MonitorType;
  environment?: string;
  q?: string;
}
