import type { BackgroundRole } from '../../../platform/background-role.ts';
import type { Clock } from '../../../platform/clock.ts';
import type { Database } from '../../../platform/db/index.ts';
import type { Logger } from '../../../platform/logger.ts';
import { BackgroundLoop } from '../../../platform/background-loop.ts';
import type { Timers } from '../../../platform/timers.ts';
import { addToPrefixes, prefixesOfHours, type DayPrefixes } from './day-prefixes.compute.ts';
import { DayPrefixesRepository, type SeriesHour } from './day-prefixes.repository.ts';
import { DAY_MS, type RollupDelta } from './rollups.compute.ts';
import type { RollupKey } from './rollups.repository.ts';
import type { RollupDayRow } from './rollups.tables.ts';

export interface DayPrefixesCompactorDeps {
  database: Database;
  clock: Clock;
  logger?: Logger;
  /** A day gets its prefixes this long after it ended (late results after that update them in place). Default 15 min. */
  graceMs?: number;
  /** Daily rows per transaction. Default 100: on SQLite a transaction holds the write lock and the event loop. */
  batchSize?: number;
  /** How often a pass runs. Default 10 minutes. */
  everyMs?: number;
  /** The loop's timers (tests pass a fake); the system's by default. */
  timers?: Timers;
}

/**
 * Background role: gives every closed UTC day of every (monitor, region) its prefix sums, in
 * transactions of a few hundred rows; the first pass after an upgrade goes through the whole history.
 *
 * Each transaction locks its daily rows first and then reads their hours (PostgreSQL; SQLite runs one transaction at a
 * time). A writer locks the hourly rows of a batch before the daily ones, so a result recorded meanwhile is either read here (its transaction committed before the
 * daily row was locked) or finds the prefixes set once it gets the daily row, and adds itself to them
 * (ExecutionsStore): never both, never neither.
 */
export class DayPrefixesCompactor implements BackgroundRole {
  readonly name = 'rollup-day-prefixes';
  private readonly deps: DayPrefixesCompactorDeps;
  private readonly loop: BackgroundLoop;

  constructor(deps: DayPrefixesCompactorDeps) {
    this.deps = deps;
    this.loop = new BackgroundLoop({
      name: this.name,
      everyMs: deps.everyMs ?? 600_000,
      pass: () => this.compactOnce().then(() => undefined),
      failed: (err) => void deps.logger?.error({ err }, 'rollup day prefixes failed'),
      ...(deps.timers && { timers: deps.timers }),
    });
  }

  /** Gives prefixes to every daily row closed for `graceMs`; returns how many rows it gave them to. */
  async compactOnce(): Promise<number> {
    const closedBefore = this.deps.clock.now() - (this.deps.graceMs ?? 15 * 60_000) - DAY_MS + 1;
    const batchSize = this.deps.batchSize ?? 100;
    let total = 0;
    while (!this.loop.stopping) {
      const done = await this.deps.database.transaction((tx) => compactBatch(tx, closedBefore, batchSize));
      total += done;
      if (done < batchSize) break;
      // Checks and requests run between two transactions (the first pass after an upgrade is thousands of them).
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    if (total > 0) this.deps.logger?.info({ days: total }, 'gave closed rollup days their prefix sums');
    return total;
  }

  start(): Promise<void> {
    return this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }
}

/** One transaction: lock up to `limit` daily rows without prefixes, read their hours, write their prefixes. */
async function compactBatch(tx: Database, closedBefore: number, limit: number): Promise<number> {
  const repo = new DayPrefixesRepository(tx);
  const days = await repo.lockUnprefixed(closedBefore, limit);
  if (days.length === 0) return 0;
  // Rows come oldest day first: a batch spans one or two days of many monitors, read as one range per day.
  const byDay = new Map<number, RollupKey[]>();
  for (const d of days) {
    const list = byDay.get(d.hour_start);
    if (list) list.push(d);
    else byDay.set(d.hour_start, [d]);
  }
  const out: Array<RollupKey & DayPrefixes> = [];
  for (const [dayStart, keys] of byDay) {
    const hours = await repo.hours([...new Set(keys.map((k) => k.monitor_key))], dayStart, dayStart + DAY_MS);
    const bySeries = new Map<string, SeriesHour[]>();
    for (const h of hours) {
      const id = `${h.monitor_key}:${h.region_key}`;
      const list = bySeries.get(id);
      if (list) list.push(h);
      else bySeries.set(id, [h]);
    }
    for (const k of keys)
      out.push({ ...k, ...prefixesOfHours(dayStart, bySeries.get(`${k.monitor_key}:${k.region_key}`) ?? []) });
  }
  await repo.write(out);
  return days.length;
}

/**
 * In a batch's transaction, after its daily rows were locked and written: the days among them that already have
 * prefixes (a result recorded after its day was compacted) get the batch's hourly deltas added to them.
 */
export async function addLateToDayPrefixes(
  tx: Database,
  daysBefore: readonly RollupDayRow[],
  hourly: readonly RollupDelta[],
): Promise<void> {
  const settled = daysBefore.filter((d) => d.prefixed === 1 || (d.prefix_checks != null && d.prefix_sketches != null));
  if (settled.length === 0) return;
  const repo = new DayPrefixesRepository(tx);
  const out: Array<RollupKey & DayPrefixes> = [];
  for (const d of settled) {
    const key = { monitor_key: d.monitor_key, hour_start: Number(d.hour_start), region_key: d.region_key };
    const deltas = hourly.filter(
      (h) =>
        h.monitorKey === key.monitor_key &&
        h.regionKey === key.region_key &&
        h.hourStart >= key.hour_start &&
        h.hourStart < key.hour_start + DAY_MS,
    );
    const before: DayPrefixes =
      d.prefixed === 1
        ? await repo.readSqlite(key)
        : { checks: d.prefix_checks!, failures: d.prefix_failures!, sketches: d.prefix_sketches! };
    out.push({ ...key, ...addToPrefixes(key.hour_start, before, deltas) });
  }
  await repo.write(out);
}
