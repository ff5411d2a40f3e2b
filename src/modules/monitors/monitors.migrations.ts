import type { SchemaMigration } from '../../platform/db/index.ts';
import { col } from '../../platform/db/index.ts';
import { monitorsSearchMigration } from './monitors.search.migration.ts';
import { monitorsSearchTriggerMigration, monitorsTagsMigration } from './monitors.tags.migration.ts';

export const monitorsMigrations: SchemaMigration[] = [
  {
    name: '202611220003_monitors_init',
    async up(db) {
      await db.schema
        .createTable('monitor')
        .addColumn('id', col.id, (c) => c.primaryKey())
        .addColumn('organization_id', col.id, (c) => c.notNull().references('organization.id').onDelete('cascade'))
        .addColumn('name', col.text, (c) => c.notNull())
        .addColumn('type', col.text, (c) => c.notNull())
        .addColumn('target', col.text, (c) => c.notNull())
        .addColumn('interval_seconds', col.int, (c) => c.notNull())
        .addColumn('region_codes', col.json, (c) => c.notNull())
        .addColumn('tags', col.json, (c) => c.notNull())
        .addColumn('environment', col.text, (c) => c.notNull())
        .addColumn('config', col.json, (c) => c.notNull())
        .addColumn('paused', col.bool, (c) => c.notNull().defaultTo(0))
        .addColumn('status', col.text, (c) => c.notNull())
        .addColumn('status_changed_at', col.time, (c) => c.notNull())
        .addColumn('last_checked_at', col.time)
        .addColumn('heartbeat_token', col.text, (c) => c.unique())
        .addColumn('created_at', col.time, (c) => c.notNull())
        .addColumn('updated_at', col.time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('monitor_org_idx').on('monitor').columns(['organization_id', 'id']).execute();
      await db.schema
        .createIndex('monitor_org_env_idx')
        .on('monitor')
        .columns(['organization_id', 'environment', 'id'])
        .execute();
    },
  },
  {
    // DECISIONS §17: `config.depends_on`. The config keeps the list the API shows; these rows index it both ways
    // (a parent's children when it recovers, an organization's graph for the cycle check). Deleting either monitor
    // deletes the edge.
    name: '202611290300_monitors_dependencies',
    async up(db) {
      await db.schema
        .createTable('monitor_dependency')
        .addColumn('monitor_id', col.id, (c) => c.notNull().references('monitor.id').onDelete('cascade'))
        .addColumn('depends_on_id', col.id, (c) => c.notNull().references('monitor.id').onDelete('cascade'))
        .addColumn('organization_id', col.id, (c) => c.notNull())
        .addPrimaryKeyConstraint('monitor_dependency_pk', ['monitor_id', 'depends_on_id'])
        .execute();
      await db.schema
        .createIndex('monitor_dependency_parent_idx')
        .on('monitor_dependency')
        .columns(['depends_on_id', 'monitor_id'])
        .execute();
      await db.schema
        .createIndex('monitor_dependency_org_idx')
        .on('monitor_dependency')
        .columns(['organization_id'])
        .execute();
    },
  },
  monitorsSearchMigration,
  monitorsTagsMigration,
  monitorsSearchTriggerMigration,
];
