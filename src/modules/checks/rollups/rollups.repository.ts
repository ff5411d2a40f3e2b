import { sql, type Kysely } from 'kysely';
import type { Database, Dialect } from '../../../platform/db/index.ts';
import type { RollupRow, RollupsTables, RollupTable } from './rollups.tables.ts';

/** A rollup row with its sketch as hexadecimal text (any case), '' or null when it has none. */
export type RollupRowHex = Omit<RollupRow, 'sketch'> & { sketch: string | null };

export interface RollupKey {
  monitor_key: number;
  hour_start: number;
  region_key: number;
}

const CHUNK = 300;

export class RollupsRepository {
  private readonly db: Kysely<RollupsTables>;
  private readonly dialect: Dialect;
  private readonly table: RollupTable;
  /** `table`: hourly rollups (default) or daily ones. */
  constructor(database: Database, table: RollupTable = 'execution_rollup') {
    this.db = database.tables<RollupsTables>();
    this.dialect = database.dialect;
    this.table = table;
  }

  /**
   * Reads the rows of `keys` for an update in the caller's transaction: missing rows are created empty
   * first (so concurrent writers of a new hour serialize on the unique key), then read with
   * `FOR UPDATE` on PostgreSQL (SQLite: the transaction already holds the single write lock).
   */
  async lockForUpdate(keys: RollupKey[]): Promise<RollupRow[]> {
    const out: RollupRow[] = [];
    for (let i = 0; i < keys.length; i += CHUNK) {
      const part = keys.slice(i, i + CHUNK);
      await this.db
        .insertInto(this.table)
        .values(part.map((k) => ({ ...k, checks: 0, failures: 0, downtime_ms: 0, sketch: null })))
        .onConflict((oc) => oc.columns(['monitor_key', 'hour_start', 'region_key']).doNothing())
        .execute();
      let q = this.db
        .selectFrom(this.table)
        .selectAll()
        .where((eb) =>
          eb(
            eb.refTuple('monitor_key', 'hour_start', 'region_key'),
            'in',
            part.map((k) => eb.tuple(k.monitor_key, k.hour_start, k.region_key)),
          ),
        );
      if (this.dialect === 'postgres') q = q.forUpdate();
      out.push(...(await q.execute()));
    }
    return out;
  }

  async write(rows: RollupRow[]): Promise<void> {
    for (let i = 0; i < rows.length; i += CHUNK) {
      await this.db
        .insertInto(this.table)
        .values(rows.slice(i, i + CHUNK).map((r) => ({ ...r, sketch: r.sketch ? Buffer.from(r.sketch) : null })))
        .onConflict((oc) =>
          oc.columns(['monitor_key', 'hour_start', 'region_key']).doUpdateSet((eb) => ({
            checks: eb.ref('excluded.checks'),
            failures: eb.ref('excluded.failures'),
            downtime_ms: eb.ref('excluded.downtime_ms'),
            sketch: eb.ref('excluded.sketch'),
          })),
        )
        .execute();
    }
  }

  /** Rows of the monitors with hour_start in [from, to), optionally one region, oldest first. */
  async range(monitorKeys: readonly number[], from: number, to: number, regionKey?: number): Promise<RollupRow[]> {
    if (monitorKeys.length === 0) return [];
    let q = this.db
      .selectFrom(this.table)
      .selectAll()
      .where(
        'monitor_key',
        monitorKeys.length === 1 ? '=' : 'in',
        monitorKeys.length === 1 ? monitorKeys[0]! : [...monitorKeys],
      )
      .where('hour_start', '>=', from)
      .where('hour_start', '<', to);
    if (regionKey !== undefined) q = q.where('region_key', '=', regionKey);
    return q.orderBy('monitor_key').orderBy('hour_start').execute();
  }
}

/**
 * Daily rows of some monitors with their day in [days.from, days.to) and their hourly rows at `hourStarts`, read in
 * one snapshot (REPEATABLE READ on PostgreSQL; on SQLite one transaction on the process's one connection), so that a
 * daily row is exactly the sum of the hours read with it even while checks are being recorded: a report takes hours
 * away from days.
 */
export async function readDaysAndHours(
  database: Database,
  monitorKeys: readonly number[],
  days: { from: number; to: number } | null,
  hourStarts: readonly number[],
): Promise<{ days: RollupRowHex[]; hours: RollupRowHex[] }> {
  if (monitorKeys.length === 0) return { days: [], hours: [] };
  // Sketches come as hex text: better-sqlite3 and node-postgres make a Buffer per blob, which was about half of the
  // reading cost of a report (≈ 180,000 rows for 1,000 monitors × 90 days in Berlin, ≈ 540,000 in New York).
  const hex =
    database.dialect === 'postgres' ? sql<string | null>`encode(sketch, 'hex')` : sql<string | null>`hex(sketch)`;
  const columns = ['monitor_key', 'hour_start', 'region_key', 'checks', 'failures', 'downtime_ms'] as const;
  if (hourStarts.length === 0) {
    // One statement is one snapshot by itself: no transaction (on PostgreSQL two round trips fewer).
    const db = database.tables<RollupsTables>();
    const dayRows = days
      ? await db
          .selectFrom('execution_rollup_day')
          .select([...columns, hex.as('sketch')])
          .where('monitor_key', 'in', [...monitorKeys])
          .where('hour_start', '>=', days.from)
          .where('hour_start', '<', days.to)
          .execute()
      : [];
    return { days: dayRows, hours: [] };
  }
  let tx = database.tables<RollupsTables>().transaction();
  if (database.dialect === 'postgres') tx = tx.setIsolationLevel('repeatable read').setAccessMode('read only');
  return tx.execute(async (trx) => {
    const keys = [...monitorKeys];
    const dayRows = days
      ? await trx
          .selectFrom('execution_rollup_day')
          .select([...columns, hex.as('sketch')])
          .where('monitor_key', 'in', keys)
          .where('hour_start', '>=', days.from)
          .where('hour_start', '<', days.to)
          .execute()
      : [];
    const hours: RollupRowHex[] = [];
    // A few hundred instants per statement; each is a seek on the primary key.
    for (let i = 0; i < hourStarts.length; i += CHUNK) {
      hours.push(
        ...(await trx
          .selectFrom('execution_rollup')
          .select([...columns, hex.as('sketch')])
          .where('monitor_key', 'in', keys)
          .where('hour_start', 'in', hourStarts.slice(i, i + CHUNK))
          .execute()),
      );
    }
    return { days: dayRows, hours };
  });
}
