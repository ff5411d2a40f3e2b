/**
 * The contract between the check engine and its probes.
 *
 * A probe performs one check of one monitor and describes what it saw as an {@link Observation}.
 * Probes never throw: every failure (including a bug caught by the registry) becomes an observation
 * with `status: 'down'` and an {@link ProbeErrorCode}.
 */
import type { HostResolver } from '../../../platform/net/index.ts';

export type ProbeType =
  | 'http'
  | 'tls'
  | 'tcp'
  | 'dns'
  | 'grpc'
  | 'heartbeat'
  | 'icmp'
  | 'udp'
  | 'domain'
  | 'smtp'
  | 'websocket'
  | 'postgres'
  | 'mysql'
  | 'redis';

export const PROBE_TYPES: readonly ProbeType[] = [
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
];

/** What a probe needs of a monitor. `config` is already validated with defaults applied (DECISIONS §4). */
export interface ProbeTarget {
  id: string;
  type: ProbeType;
  target: string;
  interval_seconds: number;
  config: Record<string, unknown>;
}

export interface ProbeContext {
  /** Aborts the check (the observation is then `down` with `timeout`). */
  signal?: AbortSignal;
  /** Epoch ms; used for `started_at`, certificate expiry and heartbeats. Durations use a monotonic clock. */
  now(): number;
  /** When false, a target that resolves to a loopback/private/link-local/reserved address is refused
   *  (`private_target`), checked after DNS resolution and again on every redirect hop. */
  allowPrivateTargets: boolean;
  /** How target names are resolved (each check resolves once and connects to the vetted address); the system's
   *  resolver when absent. Tests point it at a local DNS server. */
  resolver?: HostResolver;
  /** heartbeat: when the last ping arrived (epoch ms), null when never. */
  lastHeartbeatAt?: number | null;
  /** heartbeat: when the monitor was created (epoch ms); the reference when no ping ever arrived. */
  createdAt?: number;
  /** heartbeat: the last fail signal (epoch ms, exit code) and the start of the oldest run still open. */
  heartbeatRun?: HeartbeatRunState;
  /**
   * Extra trusted CA certificate(s), PEM, added to the system roots for http/tls/grpc probes.
   * Meant for tests (a local test CA) and for self-hosters whose internal services use a private CA.
   */
  tlsCa?: string;
}

export interface HeartbeatRunState {
  lastFailAt: number | null;
  lastExitCode: number | null;
  openSince: number | null;
}

export type ProbeErrorCode =
  | 'dns'
  | 'connect_refused'
  | 'connect_reset'
  | 'timeout'
  | 'tls_invalid'
  | 'tls_expired'
  | 'tls_hostname_mismatch'
  | 'assertion_failed'
  | 'http_status'
  | 'too_many_redirects'
  | 'private_target'
  | 'grpc_not_serving'
  | 'grpc_error'
  | 'dns_mismatch'
  | 'heartbeat_missed'
  | 'heartbeat_failed'
  | 'heartbeat_ran_too_long'
  | 'invalid_target'
  | 'protocol_error'
  | 'packet_loss'
  | 'unexpected_response'
  | 'domain_expired'
  | 'domain_not_found'
  | 'smtp_reply'
  | 'starttls_unavailable'
  | 'websocket_refused'
  // postgres, mysql, redis: the server refused the login (password, user, database, host rules)
  | 'auth_failed'
  // postgres, mysql, redis: the query or command failed on the server
  | 'query_error'
  // postgres, mysql, redis: the first value returned is not config.expected_value
  | 'unexpected_value';

export interface ProbeError {
  code: ProbeErrorCode;
  message: string;
}

/** Per-phase durations in ms; null when the phase did not happen (e.g. `tls_ms` for plain http, `dns_ms` for an IP literal). */
export interface ProbeTimings {
  dns_ms: number | null;
  connect_ms: number | null;
  tls_ms: number | null;
  ttfb_ms: number | null;
  download_ms: number | null;
  total_ms: number;
}

/** One evaluated assertion: the assertion's own fields plus `passed` and `actual`. */
export interface AssertionResult {
  type: string;
  passed: boolean;
  actual: unknown;
  [field: string]: unknown;
}

export interface CertExpiringEvent {
  type: 'cert_expiring';
  data: Record<string, unknown>;
}

export interface Observation {
  status: 'up' | 'down';
  /** Epoch ms (ctx.now()) when the check started. */
  started_at: number;
  duration_ms: number;
  timings: ProbeTimings;
  http_status: number | null;
  assertions: AssertionResult[];
  error: ProbeError | null;
  /**
   * Type-specific facts for intelligence:
   * - http: `{ headers (lower-case, selected), body_sha256 (of what was read, or null), content_digest (when the
   *   monitor watches content: normalised, ignore patterns removed), remote_address, redirects, final_url }`
   * - tls: `{ valid_from, valid_to (ISO), days_to_expiry, issuer, subject, fingerprint_sha256, san, hostname_match, chain_valid, authorization_error }`
   * - dns: `{ record_type, answers }`
   * - grpc: `{ serving_status }`
   * - heartbeat: `{ last_heartbeat_at, deadline }`
   * - icmp: `{ address, packets_sent, packets_received, loss_percent, rtt_min_ms, rtt_avg_ms, rtt_max_ms, rtts_ms,
   *   elapsed_ms, icmp_errors? }`
   * - udp: `{ remote_address, sent_bytes, reply_bytes, reply_excerpt, reply_hex }`
   * - domain: `{ domain, rdap_url, expires_at, days_to_expiry, registered_at, registrar, nameservers, statuses }`
   * - smtp: `{ tls_mode, remote_address, banner, extensions, starttls_offered, certificate (the tls type's facts) }`
   * - websocket: `{ remote_address, upgrade_status, protocol (the chosen subprotocol), first_message (≤ 1 KiB) }`
   * - postgres, mysql, redis: `{ remote_address, server_version, auth_ms, query_ms }` (docs/monitors.md)
   */
  details?: Record<string, unknown>;
  events?: CertExpiringEvent[];
}

export type Probe = (target: ProbeTarget, ctx: ProbeContext) => Promise<Observation>;
