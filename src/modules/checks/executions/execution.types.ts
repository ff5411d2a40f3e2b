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
  /**
   * Optional: the monitor's interval. Caps the downtime a failed check accounts for (see docs/storage.md);
   * without it the cap is the previous gap between checks of the same monitor and region.
   */
  intervalSeconds?: number;
}
