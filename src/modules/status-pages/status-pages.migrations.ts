import type { SchemaMigration } from '../../platform/db/index.ts';
import { col } from '../../platform/db/index.ts';

export const statusPagesMigrations: SchemaMigration[] = [
  {
    name: '202611220011_status_pages_init',
    async up(db) {
      await db.schema
        .createTable('status_page')
        .addColumn('id', col.id, (c) => c.primaryKey())
        .addColumn('organization_id', col.id, (c) => c.notNull().references('organization.id').onDelete('cascade'))
        .addColumn('slug', col.text, (c) => c.notNull().unique())
        .addColumn('title', col.text, (c) => c.notNull())
        .addColumn('monitor_ids', col.json, (c) => c.notNull())
        .addColumn('public', col.bool, (c) => c.notNull())
        .addColumn('created_at', col.time, (c) => c.notNull())
        .addColumn('updated_at', col.time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('status_page_org_idx').on('status_page').columns(['organization_id', 'id']).execute();
    },
  },
];
