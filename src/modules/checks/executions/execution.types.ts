/** One check execution as produced by the check engine (the runner) and stored by `ExecutionsStore`. */
export interface ExecutionTimings {
  dns_ms: number | null;
  connect_ms: number | null;
  tls_ms: number | null;
  ttfb_ms: number | null;
  download_ms: number | null;
  total_ms: number;
}

export interface ExecutionRecord {
  /** `exe_…`; see executions.ids.ts: the stored id is derived from a compact integer key. */
  id: string;
  organizationId: string;
  monitorId: string;
  regionCode: string;
  /** Epoch milliseconds. */
  startedAt: number;
  status: 'up' | 'down';
  durationMs: number;
  timings: ExecutionTimings;
  httpStatus: number | null;
  assertions: Array<Record<string, unknown>>;
  error: { code: string; message: string } | null;
  /** The probe's facts kept with the execution (`keptDetails`): gRPC `grpc_status` and `method`, icmp
   *  `rtt_min_ms`, `rtt_max_ms`, `loss_percent`, the database probes' `auth_ms` and `query_ms`; null when none. */
  details?: ExecutionDetails | null;
  /**
   * Optional: the monitor's interval. Caps the downtime a failed check accounts for (see docs/storage.md);
   * without it the cap is the previous gap between checks of the same monitor and region.
   */
  intervalSeconds?: number;
}

/** What an execution keeps of its probe's `details` (docs/monitors.md): a fixed list of keys, text or numbers. */
export type ExecutionDetails = Partial<Record<(typeof KEPT_DETAIL_KEYS)[number], string>> &
  Partial<Record<(typeof KEPT_NUMERIC_DETAIL_KEYS)[number], number>> &
  Partial<Record<(typeof KEPT_TIME_KEYS)[number], number>>;

/** The gRPC method probe's status name and `package.Service/Method` (docs/monitors.md, `grpc`). */
export const KEPT_DETAIL_KEYS = ['grpc_status', 'method'] as const;
/** The icmp probe's round-trip spread and loss (its average is the execution's duration). */
export const KEPT_NUMERIC_DETAIL_KEYS = ['rtt_min_ms', 'rtt_max_ms', 'loss_percent'] as const;
/** The database probes' login and query phases (postgres, mysql, redis), whole milliseconds like the timings. */
export const KEPT_TIME_KEYS = ['auth_ms', 'query_ms'] as const;

/** The kept subset of a probe's details, or null when it has none of them. */
export function keptDetails(details: Readonly<Record<string, unknown>> | undefined): ExecutionDetails | null {
  if (!details) return null;
  const kept: ExecutionDetails = {};
  for (const key of KEPT_DETAIL_KEYS) {
    const value = details[key];
    if (typeof value === 'string') kept[key] = value.slice(0, 300);
  }
  for (const key of KEPT_NUMERIC_DETAIL_KEYS) {
    const value = details[key];
    if (typeof value === 'number' && Number.isFinite(value)) kept[key] = value;
  }
  for (const key of KEPT_TIME_KEYS) {
    const value = details[key];
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) kept[key] = Math.round(value);
  }
  return Object.keys(kept).length > 0 ? kept : null;
}
