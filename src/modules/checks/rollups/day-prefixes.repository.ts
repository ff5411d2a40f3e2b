import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../platform/db/index.ts';
import type { DayPrefixes, PrefixHour } from './day-prefixes.compute.ts';
import type { RollupKey } from './rollups.repository.ts';
import type { RollupsTables } from './rollups.tables.ts';

/** An hourly rollup of some (monitor, region) as the compactor reads it. */
export interface SeriesHour extends PrefixHour {
  monitor_key: number;
  region_key: number;
}

/** The prefix columns of daily rollups (PostgreSQL only; see day-prefixes.compute.ts). */
export class DayPrefixesRepository {
  private readonly db: Kysely<RollupsTables>;
  constructor(database: Database) {
    if (database.dialect !== 'postgres') throw new Error('day prefixes are kept on PostgreSQL only');
    this.db = database.tables<RollupsTables>();
  }

  /**
   * Up to `limit` daily rows without prefixes whose day starts before `closedBefore`, oldest first, locked for the
   * caller's transaction (rows another compactor or a late writer holds are skipped: they come again next time).
   */
  async lockUnprefixed(closedBefore: number, limit: number): Promise<RollupKey[]> {
    const rows = await this.db
      .selectFrom('execution_rollup_day')
      .select(['monitor_key', 'hour_start', 'region_key'])
      .where('prefix_checks', 'is', null)
      .where('hour_start', '<', closedBefore)
      .orderBy('hour_start')
      .limit(limit)
      .forUpdate()
      .skipLocked()
      .execute();
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

  /** Sets the prefixes of daily rows (one UPDATE each: once per row and day, or for a result recorded late). */
  async write(rows: ReadonlyArray<RollupKey & DayPrefixes>): Promise<void> {
    for (const r of rows) {
      await sql`update execution_rollup_day
          set prefix_checks = ${r.checks}::integer[],
              prefix_failures = ${r.failures}::integer[],
              prefix_sketches = ${r.sketches.map((s) => (s ? Buffer.from(s) : null))}::bytea[]
          where monitor_key = ${r.monitor_key} and hour_start = ${r.hour_start} and region_key = ${r.region_key}`.execute(
        this.db,
      );
    }
  }
}
