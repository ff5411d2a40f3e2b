import { sql, type Kysely } from 'kysely';
import type { Dialect, SchemaMigration } from '../../../platform/db/index.ts';
import { col } from '../../../platform/db/index.ts';

/**
 * A rollup table: one row per (monitor, bucket start, region). The primary key serves every query (one or
 * several monitors, a time range, all or one region); on SQLite the table is that b-tree (no rowid, no
 * second copy of the key).
 */
async function createRollupTable(db: Kysely<unknown>, dialect: Dialect, name: string): Promise<void> {
  let table = db.schema
    .createTable(name)
    .addColumn('monitor_key', col.int, (c) => c.notNull())
    .addColumn('hour_start', col.time, (c) => c.notNull())
    .addColumn('region_key', col.int, (c) => c.notNull())
    .addColumn('checks', col.int, (c) => c.notNull())
    .addColumn('failures', col.int, (c) => c.notNull())
    .addColumn('downtime_ms', col.bigint, (c) => c.notNull())
    .addColumn('sketch', col.bytes(dialect))
    .addPrimaryKeyConstraint(`${name}_pk`, ['monitor_key', 'hour_start', 'region_key']);
  if (dialect === 'sqlite') table = table.modifyEnd(sql`without rowid`);
  await table.execute();
}

export const rollupsMigrations: SchemaMigration[] = [
  {
    name: '202611230002_rollups_init',
    up: (db, dialect) => createRollupTable(db, dialect, 'execution_rollup'),
  },
  {
    // The same rollups per UTC day (hour_start holds the day's start): a 90-day history reads 90 rows per
    // region instead of 2,160.
    name: '202611230003_rollups_daily',
    up: (db, dialect) => createRollupTable(db, dialect, 'execution_rollup_day'),
  },
  {
    // PostgreSQL: a closed UTC day also carries its prefix sums (hours [0, k) for k = 1…23, element k), so a
    // report in a zone whose days start at another hour reads one prefix per UTC day instead of its edge hours
    // (day-prefixes.compactor.ts, docs/reports.md "Reading cost"). The partial index finds the days not done yet.
    name: '202611241000_rollups_day_prefixes',
    up: async (db, dialect) => {
      if (dialect !== 'postgres') return;
      await sql`alter table execution_rollup_day
        add column prefix_checks integer[],
        add column prefix_failures integer[],
        add column prefix_sketches bytea[]`.execute(db);
      await sql`create index execution_rollup_day_unprefixed on execution_rollup_day (hour_start)
        where prefix_checks is null`.execute(db);
    },
  },
  {
    // The same on SQLite: the prefixes are rows of their own (hour_start = day start + k hours, the rollup tables'
    // shape, found by key seeks in-process) and the daily row says it has them (`prefixed`).
    name: '202611241100_rollups_day_prefixes_sqlite',
    up: async (db, dialect) => {
      if (dialect !== 'sqlite') return;
      await sql`alter table execution_rollup_day add column prefixed integer not null default 0`.execute(db);
      await sql`create index execution_rollup_day_unprefixed on execution_rollup_day (hour_start)
        where prefixed = 0`.execute(db);
      await createRollupTable(db, dialect, 'execution_rollup_prefix');
    },
  },
];
