import type { Generated } from 'kysely';

/**
 * Compact execution storage (see docs/storage.md "Executions"): integer surrogates for the monitor and the
 * region, integer milliseconds, 0/1 status, and JSON only when it carries information.
 */
export interface ExecutionRow {
  /** Compact key; the public `exe_…` id is derived from it (execution.ids.ts). */
  id: number;
  monitor_key: number;
  region_key: number;
  started_at: number;
  /** 0 = up, 1 = down (SQLite stores 0 and 1 in the record header, no payload byte). */
  down: number;
  duration_ms: number;
  dns_ms: number | null;
  connect_ms: number | null;
  tls_ms: number | null;
  ttfb_ms: number | null;
  download_ms: number | null;
  /** null when equal to duration_ms (the usual case). */
  total_ms: number | null;
  http_status: number | null;
  /** Passing assertions whose `actual` is derivable are stored once in execution_shape and referenced. */
  shape_key: number | null;
  /** JSON {"a": assertions, "e": error, "d": details}, only when the execution carries more than the columns say. */
  detail: string | null;
}

export interface MonitorKeyRow {
  id: Generated<number>;
  monitor_id: string;
  organization_id: string;
}

export interface RegionKeyRow {
  id: Generated<number>;
  code: string;
}

export interface ExecutionShapeRow {
  id: Generated<number>;
  body: string;
}

/** Last check per (monitor, region), for downtime accounting across batches. */
export interface ExecutionSeriesRow {
  monitor_key: number;
  region_key: number;
  last_started_at: number;
  last_down: number;
  /** Gap between the last two checks, the cap for downtime when the interval is not given. */
  last_gap_ms: number | null;
}

export interface ExecutionsTables {
  execution: ExecutionRow;
  monitor_key: MonitorKeyRow;
  region_key: RegionKeyRow;
  execution_shape: ExecutionShapeRow;
  execution_series: ExecutionSeriesRow;
}
