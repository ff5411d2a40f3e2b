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

export interface RollupsTables {
  execution_rollup: RollupRow;
  /** Same columns; hour_start holds the start of the UTC day. */
  execution_rollup_day: RollupRow;
}

/** Hourly rollups, or the same per UTC day. */
export type RollupTable = keyof RollupsTables;
