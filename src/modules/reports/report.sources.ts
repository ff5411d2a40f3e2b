import type { ServiceContext } from '../auth/index.ts';
import type { Incident, IncidentKey } from '../incidents/index.ts';
import type { IntelligenceEvent, IntelligenceEventFilter, StoredCorrelation } from '../intelligence/index.ts';

/** One rollup row (checks module): a monitor's checks in one hour or one UTC day, in one region. */
export interface ReportRollupRow {
  monitor_key: number;
  hour_start: number;
  region_key: number;
  checks: number;
  failures: number;
  downtime_ms: number;
  /** Encoded latency sketch, as bytes or as hexadecimal text ('' or null: none). */
  sketch: Uint8Array | string | null;
}

/** A rollup row as rollupSnapshot reads it: only what the figures of local days sum. */
export type ReportSnapshotRow = Pick<ReportRollupRow, 'monitor_key' | 'hour_start' | 'checks' | 'failures' | 'sketch'>;

/**
 * Hourly rows of one monitor in one block of hours, summed: checks, failures and the hours' sketches as one
 * hexadecimal text, each sketch preceded by its length in bytes (4 bytes, big-endian; null: none), as
 * DecodedSketches.pushFramed reads them. Rows with the same (monitor, block) add up.
 */
export interface ReportBlockRow {
  monitor_key: number;
  /** Index of the block in `hourBlocks`. */
  block: number;
  checks: number;
  failures: number;
  sketches: string | null;
}

/** What reports read from the checks module's rollups (RollupsService and ExecutionsService fit). */
export interface ReportRollups {
  monitorKeys(monitorIds: readonly string[]): Promise<Map<string, number>>;
  rollupRows(
    monitorKeys: readonly number[],
    from: number,
    to: number,
    resolution: 'hour' | 'day',
  ): Promise<ReportRollupRow[]>;
  /**
   * Daily rows with their UTC day in [days.from, days.to) and the hourly rows of `hourBlocks` (the hours local days add
   * to or take from UTC days, in blocks of hours that count alike), summed per monitor and block (ReportBlockRow),
   * read in one snapshot: each daily row is exactly the sum of its hourly rows. Closed UTC days carry prefix sums
   * (hours [0, k) of the day, k = 1…23): the answer has a row per (monitor, region, request of `prefixes`) whose day
   * has them (hour_start = the request's index), and `hourBlocks` (the prefixes' own hours) read only for the days
   * that have none yet.
   */
  rollupSnapshot(
    monitorKeys: readonly number[],
    days: { from: number; to: number } | null,
    hourBlocks: ReadonlyArray<readonly number[]>,
    prefixes: ReportPrefixRequests,
  ): Promise<{ days: ReportSnapshotRow[]; blocks: ReportBlockRow[]; prefixes?: ReportSnapshotRow[] }>;
  /**
   * Per monitor key, what the rollups counted for the executions started in [from, to) (a part of one hour, cut by
   * a window edge): checks, failures and the encoded sketch of the successful ones' latencies; `complete` when none
   * of them can have been deleted by the executions' retention by `now` (the report's instant). Without it the edges count their hours whole.
   */
  executionTally?(
    monitorKeys: readonly number[],
    from: number,
    to: number,
    now: number,
  ): Promise<{ complete: boolean; byMonitor: Map<number, ExecutionCount> }>;
}

/** A monitor's executions in a span as its rollups counted them (latencies: encoded like a rollup's sketch). */
export interface ExecutionCount {
  checks: number;
  failures: number;
  sketch: Uint8Array;
}

/** Prefix sums asked for: request i is the hours [0, ks[i]) of the UTC day starting at days[i]. */
export interface ReportPrefixRequests {
  days: readonly number[];
  ks: readonly number[];
}

interface PageOf<T> {
  data: T[];
  next_cursor: string | null;
}

/** Incidents visible to the actor (IncidentsService fits). */
export interface ReportIncidents {
  list(
    ctx: ServiceContext,
    filter: { source?: 'monitor'; from?: number; to?: number },
    page: { limit: number; cursor?: string },
  ): Promise<PageOf<Incident>>;
  /** One keyset page (in opening order) of the incidents overlapping [from, to) the actor may see. */
  pageOverlapping(
    ctx: ServiceContext,
    window: { from: number; to: number; monitorIds?: readonly string[] },
    after: IncidentKey | undefined,
    limit: number,
  ): Promise<{ data: Incident[]; last: IncidentKey | null }>;
}

/** Intelligence events visible to the actor (IntelligenceService fits). */
export interface ReportAnomalies {
  list(
    ctx: ServiceContext,
    filter: IntelligenceEventFilter,
    page: { limit: number; cursor?: string },
  ): Promise<PageOf<IntelligenceEvent>>;
  /** Every event of [from, to): started inside or lasting into it (changes only inside). */
  listDuring(ctx: ServiceContext, window: { from: number; to: number }): Promise<IntelligenceEvent[]>;
  /** Correlations seen in [from, to), with the monitors the actor may see. */
  correlations(ctx: ServiceContext, from: number, to: number): Promise<StoredCorrelation[]>;
}

/** Reads every page of a cursor-paged list. */
export async function readAll<T>(page: (cursor: string | undefined) => Promise<PageOf<T>>): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  for (;;) {
    const p = await page(cursor);
    out.push(...p.data);
    if (!p.next_cursor) return out;
    cursor = p.next_cursor;
  }
}
