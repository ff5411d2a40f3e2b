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
  /** The probe's facts kept with the execution (`keptDetails`): gRPC `grpc_status` and `method`; null when none. */
  details?: ExecutionDetails | null;
  /**
   * Optional: the monitor's interval. Caps the downtime a failed check accounts for (see docs/storage.md);
   * without it the cap is the previous gap between checks of the same monitor and region.
   */
  intervalSeconds?: number;
}

/** What an execution keeps of its probe's `details` (docs/monitors.md): strings only, a fixed list of keys. */
export type ExecutionDetails = Partial<Record<(typeof KEPT_DETAIL_KEYS)[number], string>>;

/** The gRPC method probe's status name and `package.Service/Method` (docs/monitors.md, `grpc`). */
export const KEPT_DETAIL_KEYS = ['grpc_status', 'method'] as const;

/** The kept subset of a probe's details, or null when it has none of them. */
export function keptDetails(details: Readonly<Record<string, unknown>> | undefined): ExecutionDetails | null {
  if (!details) return null;
  const kept: ExecutionDetails = {};
  for (const key of KEPT_DETAIL_KEYS) {
    const value = details[key];
    if (typeof value === 'string') kept[key] = value.slice(0, 300);
  }
  return Object.keys(kept).length > 0 ? kept : null;
}
