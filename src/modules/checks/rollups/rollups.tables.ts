/** One row per (monitor, hour, region): the hourly rollup of executions. */
export interface RollupRow {
  monitor_key: number;
  /** Epoch ms of the UTC hour's start. */
  hour_start: number;
  region_key: number;
  checks: number;
  failures: number;
  downtime_ms: number;
  /** Latency sketch of the hour's successful checks (latency.sketch.ts encoding); null when none. */
  sketch: Uint8Array | null;
}

/**
 * A daily rollup row: hour_start holds the start of the UTC day. A closed day also gets its prefix sums (the hours
 * [0, k), k = 1…23; day-prefixes.compute.ts) from the compactor: on PostgreSQL in these arrays (element k; null
 * until then), on SQLite as rows of execution_rollup_prefix with `prefixed` set to 1. Each dialect's columns are
 * undefined when read on the other.
 */
export interface RollupDayRow extends RollupRow {
  prefix_checks?: number[] | null;
  prefix_failures?: number[] | null;
  prefix_sketches?: Array<Uint8Array | null> | null;
  prefixed?: number;
}

export interface RollupsTables {
  execution_rollup: RollupRow;
  execution_rollup_day: RollupDayRow;
  /** SQLite: a closed day's prefix k at hour_start = day start + k hours (same columns; downtime_ms 0). */
  execution_rollup_prefix: RollupRow;
}

/** Hourly rollups, or the same per UTC day. */
export type RollupTable = 'execution_rollup' | 'execution_rollup_day';
