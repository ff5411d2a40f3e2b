import type { SchemaMigration } from '../../platform/db/index.ts';
import { col } from '../../platform/db/index.ts';

/** One badge token per monitor (DECISIONS §18): a new one replaces it, a revoke deletes it, so does the monitor. */
export const badgesMigrations: SchemaMigration[] = [
  {
    name: '202611300600_badges_init',
    async up(db) {
      await db.schema
        .createTable('monitor_badge')
        .addColumn('id', col.id, (c) => c.primaryKey())
        .addColumn('organization_id', col.id, (c) => c.notNull())
        .addColumn('monitor_id', col.id, (c) => c.notNull().unique().references('monitor.id').onDelete('cascade'))
        .addColumn('token', col.text, (c) => c.notNull().unique())
        .addColumn('created_at', col.time, (c) => c.notNull())
        .execute();
    },
  },
];
