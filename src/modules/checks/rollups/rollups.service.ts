import type { Actor } from '../../auth/index.ts';
import type { Clock } from '../../../platform/clock.ts';
import type { Database } from '../../../platform/db/index.ts';
import { validationFailed } from '../../../platform/errors.ts';
import { bucketedRange, MAX_RANGE_MS, type BucketResolution } from '../../../platform/time-buckets.ts';
import { LatencySketch } from './latency.sketch.ts';
import { DAY_MS, HOUR_MS, hourOf } from './rollups.compute.ts';
import {
  readDaysAndHourBlocks,
  RollupsRepository,
  type BlockRow,
  type PrefixRequests,
  type SnapshotRow,
} from './rollups.repository.ts';
import type { RollupRow } from './rollups.tables.ts';

export type HistoryResolution = BucketResolution;
export { MAX_RANGE_MS };

/** Visibility of monitors to an actor (`get` throws not_found); MonitorsService fits. */
export interface HistoryMonitorLookup {
  get(actor: Actor, id: string): Promise<{ id: string }>;
  /** Which of `ids` the actor sees. */
  visibleIds(actor: Actor, ids: readonly string[]): Promise<Set<string>>;
}

/** What history needs from execution storage (ExecutionsService fits). */
export interface ExecutionSeriesSource {
  monitorKey(monitorId: string): Promise<number | undefined>;
  monitorKeys(monitorIds: readonly string[]): Promise<Map<string, number>>;
  regionKey(code: string): Promise<number | undefined>;
  samples(
    monitorKey: number,
    regionKey: number | undefined,
    from: number,
    to: number,
  ): Promise<Array<{ started_at: number; down: number; duration_ms: number }>>;
  tally(
    monitorKeys: readonly number[],
    from: number,
    to: number,
  ): Promise<Array<{ monitor_key: number; down: number; duration_ms: number; n: number }>>;
}

export interface RollupsServiceDeps {
  database: Database;
  clock: Clock;
  /** Raw executions are kept this long; minute resolution is only available within it. */
  retentionDays: number;
  monitors: HistoryMonitorLookup;
  executions: ExecutionSeriesSource;
}

export interface HistoryQuery {
  from?: number;
  to?: number;
  resolution?: HistoryResolution;
  regionCode?: string;
}

export interface HistoryBucket {
  start: number;
  end: number;
  checks: number;
  failures: number;
  /** 100 × (checks − failures) / checks; null when no checks. */
  uptimePercent: number | null;
  p50Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
}

/** A bucket of several monitors' history together: their checks and failures summed. */
export interface TotalBucket {
  start: number;
  end: number;
  checks: number;
  failures: number;
  /** 100 × (checks − failures) / checks; null when no checks. */
  uptimePercent: number | null;
}

/** What a monitor's rollups counted for some executions: checks, failures and the successful ones' latencies. */
export interface ExecutionTally {
  checks: number;
  failures: number;
  /** Encoded like a rollup's sketch: the latencies of the successful checks. */
  sketch: Uint8Array;
}

export interface DailyUptime {
  day: string;
  checks: number;
  failures: number;
  downtime_seconds: number;
  uptime_percent: number | null;
}

const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;
const uptimeOf = (checks: number, failures: number) =>
  checks === 0 ? null : round((100 * (checks - failures)) / checks, 3);
const q = (sketch: LatencySketch, quantile: number) => {
  const v = sketch.quantile(quantile);
  return v === null ? null : round(v, 1);
};

/** Exact nearest-rank percentile of sorted values. */
function exactPercentile(sorted: number[], quantile: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.max(0, Math.ceil(quantile * sorted.length) - 1)]!;
}

const dayFormatters = new Map<string, Intl.DateTimeFormat>();
function dayFormatter(timezone: string): Intl.DateTimeFormat {
  let f = dayFormatters.get(timezone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' });
    } catch {
      throw validationFailed([{ field: 'timezone', issue: 'must be an IANA time zone such as Europe/Paris' }]);
    }
    dayFormatters.set(timezone, f);
  }
  return f;
}

function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + DAY_MS).toISOString().slice(0, 10);
}

/** Buckets of [start, end) from one monitor's rollup rows (oldest first): every bucket present, empty ones nulls. */
function bucketsOf(rows: readonly RollupRow[], start: number, end: number, step: number): HistoryBucket[] {
  const buckets: HistoryBucket[] = [];
  let i = 0;
  for (let s = start; s < end; s += step) {
    let checks = 0;
    let failures = 0;
    const sketch = new LatencySketch();
    for (; i < rows.length && Number(rows[i]!.hour_start) < s + step; i++) {
      const r = rows[i]!;
      checks += r.checks;
      failures += r.failures;
      sketch.mergeEncoded(r.sketch);
    }
    buckets.push({
      start: s,
      end: s + step,
      checks,
      failures,
      uptimePercent: uptimeOf(checks, failures),
      p50Ms: q(sketch, 0.5),
      p95Ms: q(sketch, 0.95),
      p99Ms: q(sketch, 0.99),
    });
  }
  return buckets;
}

/** History from rollups (hour, day) or raw executions (minute), and daily uptime for status pages. */
export class RollupsService {
  private readonly deps: RollupsServiceDeps;
  private readonly repo: RollupsRepository;
  private readonly daily: RollupsRepository;
  constructor(deps: RollupsServiceDeps) {
    this.deps = deps;
    this.repo = new RollupsRepository(deps.database, 'execution_rollup');
    this.daily = new RollupsRepository(deps.database, 'execution_rollup_day');
  }

  /**
   * Raw rollup rows of monitors (by monitor key) whose bucket starts in [from, to): hourly ones, or the daily ones
   * (bucket = UTC day). For reports, which merge them per window and per local day.
   */
  rollupRows(
    monitorKeys: readonly number[],
    from: number,
    to: number,
    resolution: 'hour' | 'day',
  ): Promise<RollupRow[]> {
    return (resolution === 'day' ? this.daily : this.repo).range(monitorKeys, from, to);
  }

  /**
   * For reports: daily rows of monitors (by monitor key) whose UTC day starts in [days.from, days.to) and hourly rows
   * whose hour starts in one of `hourBlocks` (a row each, its block's index on it), read in one snapshot (a daily row
   * is the sum of its hours). With `prefixes` (what reports ask): the prefix sums of UTC days asked for
   * too (each row's hour_start is the request's index), and the hour blocks, on PostgreSQL summed per monitor and
   * block, only for days without prefixes.
   */
  rollupSnapshot(
    monitorKeys: readonly number[],
    days: { from: number; to: number } | null,
    hourBlocks: ReadonlyArray<readonly number[]>,
    options: { prefixes?: PrefixRequests } = {},
  ): Promise<{ days: SnapshotRow[]; blocks: BlockRow[]; prefixes: SnapshotRow[] }> {
    return readDaysAndHourBlocks(this.deps.database, monitorKeys, days, hourBlocks, options);
  }

  /**
   * For reports, whose rollups are whole hours: per monitor key, the checks of [from, to) (a part of an hour a window
   * edge cuts) counted from the raw executions, as the rollups counted them (monitors without any are absent).
   * `complete`: none of them can have been deleted by `now` (the report's instant: a report thread's own clock is not
   * the request's) — `from` is within `retentionDays` of it, and the retention role deletes only older executions.
   */
  async executionTally(
    monitorKeys: readonly number[],
    from: number,
    to: number,
    now: number,
  ): Promise<{ complete: boolean; byMonitor: Map<number, ExecutionTally> }> {
    const complete = from >= now - this.deps.retentionDays * DAY_MS;
    const sketches = new Map<number, { checks: number; failures: number; sketch: LatencySketch }>();
    for (const row of await this.deps.executions.tally(monitorKeys, from, to)) {
      let t = sketches.get(row.monitor_key);
      if (!t) sketches.set(row.monitor_key, (t = { checks: 0, failures: 0, sketch: new LatencySketch() }));
      t.checks += row.n;
      if (row.down === 1) t.failures += row.n;
      else for (let i = 0; i < row.n; i++) t.sketch.add(row.duration_ms);
    }
    const byMonitor = new Map(
      [...sketches].map(([key, t]) => [key, { checks: t.checks, failures: t.failures, sketch: t.sketch.encode() }]),
    );
    return { complete, byMonitor };
  }

  /**
   * `history` of several monitors with one query shape (the monitor list's bars and sparklines: one request for
   * the visible rows). Monitors that do not exist, or that the actor cannot see, are left out: the list the ids
   * came from may have changed since. Bad query values fail the whole call, as for one monitor.
   */
  async historyMany(
    actor: Actor,
    monitorIds: readonly string[],
    query: HistoryQuery,
  ): Promise<Array<{ monitorId: string; buckets: HistoryBucket[] }>> {
    const { start, end, step, resolution } = this.rangeOf(query);
    if (resolution === 'minute') {
      throw validationFailed([{ field: 'resolution', issue: 'several monitors have hour or day history only' }]);
    }
    const visible = await this.deps.monitors.visibleIds(actor, [...new Set(monitorIds)]);
    const shown = [...new Set(monitorIds)].filter((id) => visible.has(id));
    const keys = await this.deps.executions.monitorKeys(shown);
    let regionKey: number | undefined;
    if (query.regionCode !== undefined) regionKey = (await this.deps.executions.regionKey(query.regionCode)) ?? -1;
    // One read for all of them (ordered by monitor key, then hour), split per monitor below.
    const allKeys = [...new Set(keys.values())];
    const rows =
      allKeys.length === 0
        ? []
        : resolution === 'day'
          ? await this.daily.range(allKeys, start, end, regionKey)
          : await this.repo.range(allKeys, hourOf(start), end, regionKey);
    const rowsOfKey = new Map<number, RollupRow[]>();
    for (const row of rows) {
      const own = rowsOfKey.get(row.monitor_key);
      if (own) own.push(row);
      else rowsOfKey.set(row.monitor_key, [row]);
    }
    return shown.map((monitorId) => {
      const key = keys.get(monitorId);
      return { monitorId, buckets: bucketsOf(key === undefined ? [] : (rowsOfKey.get(key) ?? []), start, end, step) };
    });
  }

  /**
   * All the monitors of `monitorIds` (the caller resolves which it may see) as one series: per bucket, their checks
   * and failures summed, so a busy monitor weighs more than a quiet one (the overview's uptime chart). Every bucket
   * of the range is present, oldest first. No latency percentiles: the monitors' latencies are not one population.
   */
  async historyTotal(
    monitorIds: readonly string[],
    query: HistoryQuery & { resolution?: 'hour' | 'day' },
  ): Promise<TotalBucket[]> {
    const { start, end, step, resolution } = this.rangeOf(query);
    const keys = [...new Set((await this.deps.executions.monitorKeys(monitorIds)).values())];
    let regionKey: number | undefined;
    if (query.regionCode !== undefined) regionKey = (await this.deps.executions.regionKey(query.regionCode)) ?? -1;
    const totals =
      keys.length === 0
        ? new Map<number, { checks: number; failures: number }>()
        : await (resolution === 'day' ? this.daily : this.repo).totalsByBucket(keys, start, end, regionKey);
    const buckets: TotalBucket[] = [];
    for (let s = start; s < end; s += step) {
      let checks = 0;
      let failures = 0;
      // Hourly rows fall in a bucket of their hour; a day bucket holds its day's row (both start on the bucket).
      for (let hour = s; hour < s + step; hour += resolution === 'day' ? step : HOUR_MS) {
        const total = totals.get(hour);
        if (total) {
          checks += total.checks;
          failures += total.failures;
        }
      }
      buckets.push({ start: s, end: s + step, checks, failures, uptimePercent: uptimeOf(checks, failures) });
    }
    return buckets;
  }

  /** The buckets a history query covers, its bounds checked: at most MAX_RANGE_MS, minute only within retention. */
  private rangeOf(query: HistoryQuery): { start: number; end: number; step: number; resolution: HistoryResolution } {
    const now = this.deps.clock.now();
    const range = bucketedRange(query, now);
    const from = query.from ?? (query.to ?? now) - DAY_MS;
    const retentionStart = now - this.deps.retentionDays * DAY_MS;
    if (range.resolution === 'minute' && from < retentionStart) {
      throw validationFailed([
        {
          field: 'from',
          issue: `minute resolution comes from raw executions, kept ${this.deps.retentionDays} days; use hour or day`,
        },
      ]);
    }
    return range;
  }

  /** Buckets oldest first; every bucket of the range is present (empty ones have checks 0 and nulls). */
  async history(actor: Actor, monitorId: string, query: HistoryQuery): Promise<HistoryBucket[]> {
    const monitor = await this.deps.monitors.get(actor, monitorId);
    const { start, end, step, resolution } = this.rangeOf(query);
    const buckets: HistoryBucket[] = [];
    const key = await this.deps.executions.monitorKey(monitor.id);
    let regionKey: number | undefined;
    if (query.regionCode !== undefined) regionKey = (await this.deps.executions.regionKey(query.regionCode)) ?? -1;

    const empty = (s: number): HistoryBucket => ({
      start: s,
      end: s + step,
      checks: 0,
      failures: 0,
      uptimePercent: null,
      p50Ms: null,
      p95Ms: null,
      p99Ms: null,
    });
    if (key === undefined) {
      for (let s = start; s < end; s += step) buckets.push(empty(s));
      return buckets;
    }

    if (resolution === 'minute') {
      const samples = await this.deps.executions.samples(key, regionKey, start, end);
      let i = 0;
      for (let s = start; s < end; s += step) {
        let checks = 0;
        let failures = 0;
        const latencies: number[] = [];
        for (; i < samples.length && Number(samples[i]!.started_at) < s + step; i++) {
          checks += 1;
          if (samples[i]!.down === 1) failures += 1;
          else latencies.push(samples[i]!.duration_ms);
        }
        latencies.sort((a, b) => a - b);
        buckets.push({
          start: s,
          end: s + step,
          checks,
          failures,
          uptimePercent: uptimeOf(checks, failures),
          p50Ms: exactPercentile(latencies, 0.5),
          p95Ms: exactPercentile(latencies, 0.95),
          p99Ms: exactPercentile(latencies, 0.99),
        });
      }
      return buckets;
    }

    const rows =
      resolution === 'day'
        ? await this.daily.range([key], start, end, regionKey)
        : await this.repo.range([key], hourOf(start), end, regionKey);
    return bucketsOf(rows, start, end, step);
  }

  /** Median latency (ms) of a monitor's successful checks in the hours from `fromMs` to `toMs`; null: none. */
  async medianResponseMs(monitorId: string, fromMs: number, toMs: number): Promise<number | null> {
    const key = await this.deps.executions.monitorKey(monitorId);
    if (key === undefined) return null;
    const sketch = new LatencySketch();
    for (const row of await this.repo.range([key], hourOf(fromMs), toMs)) sketch.mergeEncoded(row.sketch);
    return q(sketch, 0.5);
  }

  /**
   * Per monitor, one entry per calendar day (in `timezone`, default UTC) from the day of `fromMs` to the
   * day of `toMs − 1`, all regions together; days without data have checks 0 and uptime_percent null.
   * An hourly rollup belongs to the day its hour starts in (zones with a non-whole-hour offset are thus
   * approximated to the hour). uptime_percent = 100 × (checks − failures) / checks.
   */
  async dailyUptime(
    monitorIds: string[],
    fromMs: number,
    toMs: number,
    timezone = 'UTC',
  ): Promise<Map<string, DailyUptime[]>> {
    const fmt = dayFormatter(timezone);
    const out = new Map<string, DailyUptime[]>();
    if (toMs <= fromMs) {
      for (const id of monitorIds) out.set(id, []);
      return out;
    }
    const firstDay = fmt.format(fromMs);
    const lastDay = fmt.format(toMs - 1);
    const days: string[] = [];
    for (let d = firstDay; days.length < 4000; d = nextDay(d)) {
      days.push(d);
      if (d >= lastDay) break;
    }
    const keys = await this.deps.executions.monitorKeys(monitorIds);
    // UTC days come from the daily rollups; other zones regroup the hourly ones.
    const rows =
      timezone === 'UTC'
        ? await this.daily.range([...new Set(keys.values())], Math.floor(fromMs / DAY_MS) * DAY_MS, toMs)
        : await this.repo.range([...new Set(keys.values())], hourOf(fromMs), toMs);
    const labelOfHour = new Map<number, string>();
    const perKey = new Map<number, Map<string, { checks: number; failures: number; downtimeMs: number }>>();
    for (const r of rows) {
      const hour = Number(r.hour_start);
      let label = labelOfHour.get(hour);
      if (label === undefined) {
        label = fmt.format(hour);
        labelOfHour.set(hour, label);
      }
      let byDay = perKey.get(r.monitor_key);
      if (!byDay) perKey.set(r.monitor_key, (byDay = new Map()));
      const acc = byDay.get(label) ?? { checks: 0, failures: 0, downtimeMs: 0 };
      acc.checks += r.checks;
      acc.failures += r.failures;
      acc.downtimeMs += Number(r.downtime_ms);
      byDay.set(label, acc);
    }
    for (const id of monitorIds) {
      const k = keys.get(id);
      const byDay = k === undefined ? undefined : perKey.get(k);
      out.set(
        id,
        days.map((day) => {
          const acc = byDay?.get(day);
          if (!acc) return { day, checks: 0, failures: 0, downtime_seconds: 0, uptime_percent: null };
          return {
            day,
            checks: acc.checks,
            failures: acc.failures,
            downtime_seconds: Math.round(acc.downtimeMs / 1000),
            uptime_percent: uptimeOf(acc.checks, acc.failures),
          };
        }),
      );
    }
    return out;
  }
}
