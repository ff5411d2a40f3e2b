import { sql, type Kysely } from 'kysely';
import type { Database, Dialect } from '../../../platform/db/index.ts';
import { PREFIX_COUNT, type DayPrefixes, type PrefixHour } from './day-prefixes.compute.ts';
import { HOUR_MS } from './rollups.compute.ts';
import type { RollupKey } from './rollups.repository.ts';
import type { RollupsTables } from './rollups.tables.ts';

/** An hourly rollup of some (monitor, region) as the compactor reads it. */
export interface SeriesHour extends PrefixHour {
  monitor_key: number;
  region_key: number;
}

/**
 * Where closed days keep their prefix sums (day-prefixes.compute.ts): on PostgreSQL three array columns of the daily
 * row; on SQLite the rows of execution_rollup_prefix (prefix k at day start + k hours) and the daily row's `prefixed`.
 */
export class DayPrefixesRepository {
  private readonly db: Kysely<RollupsTables>;
  private readonly dialect: Dialect;
  constructor(database: Database) {
    this.db = database.tables<RollupsTables>();
    this.dialect = database.dialect;
  }

  /**
   * Up to `limit` daily rows without prefixes whose day starts before `closedBefore`, oldest first, locked for the
   * caller's transaction on PostgreSQL (rows another compactor or a late writer holds are skipped: they come again
   * next time; SQLite's transaction holds the one write lock).
   */
  async lockUnprefixed(closedBefore: number, limit: number): Promise<RollupKey[]> {
    let q = this.db
      .selectFrom('execution_rollup_day')
      .select(['monitor_key', 'hour_start', 'region_key'])
      .where('hour_start', '<', closedBefore)
      .orderBy('hour_start')
      .limit(limit);
    q =
      this.dialect === 'postgres'
        ? q.where('prefix_checks', 'is', null).forUpdate().skipLocked()
        : q.where('prefixed', '=', 0);
    const rows = await q.execute();
    return rows.map((r) => ({
      monitor_key: r.monitor_key,
      hour_start: Number(r.hour_start),
      region_key: r.region_key,
    }));
  }

  /** Hourly rows of the monitors with their hour in [from, to) (all regions). */
  async hours(monitorKeys: readonly number[], from: number, to: number): Promise<SeriesHour[]> {
    if (monitorKeys.length === 0) return [];
    const rows = await this.db
      .selectFrom('execution_rollup')
      .select(['monitor_key', 'hour_start', 'region_key', 'checks', 'failures', 'sketch'])
      .where('monitor_key', 'in', [...monitorKeys])
      .where('hour_start', '>=', from)
      .where('hour_start', '<', to)
      .execute();
    return rows.map((r) => ({ ...r, hour_start: Number(r.hour_start) }));
  }

  /** The prefixes of one day's row on SQLite (every element; a day given prefixes has all 23 rows). */
  async readSqlite(key: RollupKey): Promise<DayPrefixes> {
    const rows = await this.db
      .selectFrom('execution_rollup_prefix')
      .select(['hour_start', 'checks', 'failures', 'sketch'])
      .where('monitor_key', '=', key.monitor_key)
      .where('region_key', '=', key.region_key)
      .where('hour_start', '>', key.hour_start)
      .where('hour_start', '<=', key.hour_start + PREFIX_COUNT * HOUR_MS)
      .orderBy('hour_start')
      .execute();
    const out: DayPrefixes = { checks: [], failures: [], sketches: [] };
    for (const r of rows) {
      out.checks.push(r.checks);
      out.failures.push(r.failures);
      out.sketches.push(r.sketch && r.sketch.length > 0 ? r.sketch : null);
    }
    return out;
  }

  /** Sets the prefixes of daily rows (once per row and day, or again for a result recorded late). */
  async write(rows: ReadonlyArray<RollupKey & DayPrefixes>): Promise<void> {
    for (const r of rows) {
      if (this.dialect === 'postgres') {
        await sql`update execution_rollup_day
            set prefix_checks = ${r.checks}::integer[],
                prefix_failures = ${r.failures}::integer[],
                prefix_sketches = ${r.sketches.map((s) => (s ? Buffer.from(s) : null))}::bytea[]
            where monitor_key = ${r.monitor_key} and hour_start = ${r.hour_start} and region_key = ${r.region_key}`.execute(
          this.db,
        );
        continue;
      }
      await this.db
        .insertInto('execution_rollup_prefix')
        .values(
          r.checks.map((checks, i) => ({
            monitor_key: r.monitor_key,
            hour_start: r.hour_start + (i + 1) * HOUR_MS,
            region_key: r.region_key,
            checks,
            failures: r.failures[i]!,
            downtime_ms: 0,
            sketch: r.sketches[i] ? Buffer.from(r.sketches[i]) : null,
          })),
        )
        .onConflict((oc) =>
          oc.columns(['monitor_key', 'hour_start', 'region_key']).doUpdateSet((eb) => ({
            checks: eb.ref('excluded.checks'),
            failures: eb.ref('excluded.failures'),
            sketch: eb.ref('excluded.sketch'),
          })),
        )
        .execute();
      await this.db
        .updateTable('execution_rollup_day')
        .set({ prefixed: 1 })
        .where('monitor_key', '=', r.monitor_key)
        .where('hour_start', '=', r.hour_start)
        .where('region_key', '=', r.region_key)
        .execute();
    }
  }
}
