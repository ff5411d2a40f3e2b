import type { SchemaMigration } from '../../platform/db/index.ts';
import { col } from '../../platform/db/index.ts';

export const noticesMigrations: SchemaMigration[] = [
  {
    // DECISIONS §18: notices on status pages with their updates, and the page's opt-in to drafts from incidents.
    name: '202611300300_status_pages_notices',
    async up(db) {
      await db.schema
        .createTable('status_page_notice')
        .addColumn('id', col.id, (c) => c.primaryKey())
        .addColumn('organization_id', col.id, (c) => c.notNull().references('organization.id').onDelete('cascade'))
        .addColumn('status_page_id', col.id, (c) => c.notNull().references('status_page.id').onDelete('cascade'))
        .addColumn('kind', col.text, (c) => c.notNull())
        .addColumn('title', col.text, (c) => c.notNull())
        .addColumn('impact', col.text, (c) => c.notNull())
        .addColumn('status', col.text)
        .addColumn('affected_monitor_ids', col.json, (c) => c.notNull())
        .addColumn('incident_id', col.id)
        .addColumn('published', col.bool, (c) => c.notNull())
        .addColumn('published_at', col.time)
        .addColumn('resolved_at', col.time)
        .addColumn('postmortem', col.text)
        .addColumn('postmortem_published_at', col.time)
        .addColumn('automatic', col.bool, (c) => c.notNull())
        .addColumn('created_at', col.time, (c) => c.notNull())
        .addColumn('updated_at', col.time, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('status_page_notice_page_idx')
        .on('status_page_notice')
        .columns(['status_page_id', 'id'])
        .execute();
      // The drafter's question "has this page a notice of this incident yet?".
      await db.schema
        .createIndex('status_page_notice_incident_idx')
        .on('status_page_notice')
        .columns(['incident_id'])
        .execute();
      await db.schema
        .createTable('status_page_notice_update')
        .addColumn('id', col.id, (c) => c.primaryKey())
        .addColumn('notice_id', col.id, (c) => c.notNull().references('status_page_notice.id').onDelete('cascade'))
        .addColumn('status', col.text)
        .addColumn('body', col.text, (c) => c.notNull())
        .addColumn('created_at', col.time, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('status_page_notice_update_notice_idx')
        .on('status_page_notice_update')
        .columns(['notice_id', 'id'])
        .execute();
      await db.schema
        .alterTable('status_page')
        .addColumn('auto_notices', col.bool, (c) => c.notNull().defaultTo(0))
        .execute();
    },
  },
];
