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
 * A daily rollup row: hour_start holds the start of the UTC day. On PostgreSQL a closed day also carries its prefix
 * sums (element k: the hours [0, k), k = 1…23; day-prefixes.compute.ts), null until the compactor gives them; SQLite
 * has no such columns (undefined when read).
 */
export interface RollupDayRow extends RollupRow {
  prefix_checks?: number[] | null;
  prefix_failures?: number[] | null;
  prefix_sketches?: Array<Uint8Array | null> | null;
}

export interface RollupsTables {
  execution_rollup: RollupRow;
  execution_rollup_day: RollupDayRow;
}

/** Hourly rollups, or the same per UTC day. */
export type RollupTable = keyof RollupsTables;
