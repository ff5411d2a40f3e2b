import { sql } from 'kysely';
import type { SchemaMigration } from '../../../platform/db/index.ts';
import { col } from '../../../platform/db/index.ts';

export const rollupsMigrations: SchemaMigration[] = [
  {
    name: '202611230002_rollups_init',
    async up(db, dialect) {
      let table = db.schema
        .createTable('execution_rollup')
        .addColumn('monitor_key', col.int, (c) => c.notNull())
        .addColumn('hour_start', col.time, (c) => c.notNull())
        .addColumn('region_key', col.int, (c) => c.notNull())
        .addColumn('checks', col.int, (c) => c.notNull())
        .addColumn('failures', col.int, (c) => c.notNull())
        .addColumn('downtime_ms', col.bigint, (c) => c.notNull())
        .addColumn('sketch', col.bytes(dialect))
        // The primary key serves every query: one monitor (or several), a time range, all or one region.
        .addPrimaryKeyConstraint('execution_rollup_pk', ['monitor_key', 'hour_start', 'region_key']);
      // SQLite: the table is its primary-key b-tree (no rowid, no second copy of the key).
      if (dialect === 'sqlite') table = table.modifyEnd(sql`without rowid`);
      await table.execute();
    },
  },
  {
    // The same rollups per UTC day (hour_start holds the day's start): a 90-day history reads 90 rows per
    // region instead of 2,160.
    name: '202611230003_rollups_daily',
    async up(db, dialect) {
      let table = db.schema
        .createTable('execution_rollup_day')
        .addColumn('monitor_key', col.int, (c) => c.notNull())
        .addColumn('hour_start', col.time, (c) => c.notNull())
        .addColumn('region_key', col.int, (c) => c.notNull())
        .addColumn('checks', col.int, (c) => c.notNull())
        .addColumn('failures', col.int, (c) => c.notNull())
        .addColumn('downtime_ms', col.bigint, (c) => c.notNull())
        .addColumn('sketch', col.bytes(dialect))
        .addPrimaryKeyConstraint('execution_rollup_day_pk', ['monitor_key', 'hour_start', 'region_key']);
      if (dialect === 'sqlite') table = table.modifyEnd(sql`without rowid`);
      await table.execute();
    },
  },
];
