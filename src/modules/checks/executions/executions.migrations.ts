import type { SchemaMigration } from '../../../platform/db/index.ts';
import { col } from '../../../platform/db/index.ts';

/**
 * Integer surrogate keys. On SQLite the column must be declared exactly `integer primary key` to be the
 * rowid (no separate index); on PostgreSQL a serial column gives concurrent processes distinct values.
 */
const serial = (dialect: string) => (dialect === 'postgres' ? 'serial' : 'integer');
const bigSerial = (dialect: string) => (dialect === 'postgres' ? 'bigserial' : 'integer');

export const executionsMigrations: SchemaMigration[] = [
  {
    name: '202611230001_executions_init',
    async up(db, dialect) {
      await db.schema
        .createTable('monitor_key')
        .addColumn('id', serial(dialect), (c) => c.primaryKey())
        .addColumn('monitor_id', col.id, (c) => c.notNull().unique())
        .addColumn('organization_id', col.id, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('region_key')
        .addColumn('id', serial(dialect), (c) => c.primaryKey())
        .addColumn('code', col.text, (c) => c.notNull().unique())
        .execute();
      await db.schema
        .createTable('execution_shape')
        .addColumn('id', serial(dialect), (c) => c.primaryKey())
        .addColumn('body', col.text, (c) => c.notNull().unique())
        .execute();
      // No foreign keys: executions of a monitor deleted while its checks were in flight must not fail the
      // engine's transaction; they age out with retention.
      await db.schema
        .createTable('execution')
        .addColumn('id', bigSerial(dialect), (c) => c.primaryKey())
        .addColumn('monitor_key', col.int, (c) => c.notNull())
        .addColumn('region_key', col.int, (c) => c.notNull())
        .addColumn('started_at', col.time, (c) => c.notNull())
        .addColumn('down', col.bool, (c) => c.notNull())
        .addColumn('duration_ms', col.int, (c) => c.notNull())
        .addColumn('dns_ms', col.int)
        .addColumn('connect_ms', col.int)
        .addColumn('tls_ms', col.int)
        .addColumn('ttfb_ms', col.int)
        .addColumn('download_ms', col.int)
        .addColumn('total_ms', col.int)
        .addColumn('http_status', col.int)
        .addColumn('shape_key', col.int)
        .addColumn('detail', col.json)
        .execute();
      // The one index: listing and minute history by monitor and time.
      await db.schema
        .createIndex('execution_monitor_time_idx')
        .on('execution')
        .columns(['monitor_key', 'started_at'])
        .execute();
      await db.schema
        .createTable('execution_series')
        .addColumn('monitor_key', col.int, (c) => c.notNull())
        .addColumn('region_key', col.int, (c) => c.notNull())
        .addColumn('last_started_at', col.time, (c) => c.notNull())
        .addColumn('last_down', col.bool, (c) => c.notNull())
        .addColumn('last_gap_ms', col.bigint)
        .addPrimaryKeyConstraint('execution_series_pk', ['monitor_key', 'region_key'])
        .execute();
    },
  },
];
