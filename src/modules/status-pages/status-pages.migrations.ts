import type { SchemaMigration } from '../../platform/db/index.ts';
import { col } from '../../platform/db/index.ts';
import { subscribersMigrations } from './subscribers.migrations.ts';

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
  {
    // Opt-in: a page shows its SLA targets' current achievement only when its owner asks for it (default off).
    name: '202611240700_status_pages_show_sla_targets',
    async up(db) {
      await db.schema
        .alterTable('status_page')
        .addColumn('show_sla_targets', col.bool, (c) => c.notNull().defaultTo(0))
        .execute();
    },
  },
  {
    // Opt-in: other sites may frame the public page only when its owner allows it (default: this app only).
    name: '202611281100_status_pages_allow_embedding',
    async up(db) {
      await db.schema
        .alterTable('status_page')
        .addColumn('allow_embedding', col.bool, (c) => c.notNull().defaultTo(0))
        .execute();
    },
  },
  {
    // DECISIONS §18 layout: ordered groups of monitors, a custom domain served by Host (unique when set: several
    // NULLs are allowed on both dialects), password access (the hash only) and the page's own time zone.
    name: '202611300400_status_pages_layout',
    async up(db) {
      await db.schema
        .alterTable('status_page')
        .addColumn('groups', col.json, (c) => c.notNull().defaultTo('[]'))
        .execute();
      await db.schema.alterTable('status_page').addColumn('custom_domain', col.text).execute();
      await db.schema
        .alterTable('status_page')
        .addColumn('access', col.text, (c) => c.notNull().defaultTo('public'))
        .execute();
      await db.schema.alterTable('status_page').addColumn('password_hash', col.text).execute();
      await db.schema
        .alterTable('status_page')
        .addColumn('timezone', col.text, (c) => c.notNull().defaultTo('UTC'))
        .execute();
      await db.schema
        .createIndex('status_page_custom_domain_idx')
        .on('status_page')
        .column('custom_domain')
        .unique()
        .execute();
    },
  },
  ...subscribersMigrations,
];
