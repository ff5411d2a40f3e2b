import type { SchemaMigration } from '../../platform/db/index.ts';
import { col } from '../../platform/db/index.ts';

/** Tables of the maintenance module: windows (occurrences are computed), emitted occurrence events, held outages. */
export const maintenanceMigrations: SchemaMigration[] = [
  {
    name: '202611290100_maintenance_init',
    async up(db) {
      await db.schema
        .createTable('maintenance_window')
        .addColumn('id', col.id, (c) => c.primaryKey())
        .addColumn('organization_id', col.id, (c) => c.notNull())
        .addColumn('name', col.text, (c) => c.notNull())
        .addColumn('description', col.text)
        .addColumn('monitor_ids', col.json, (c) => c.notNull())
        .addColumn('tags', col.json, (c) => c.notNull())
        .addColumn('schedule', col.json, (c) => c.notNull())
        .addColumn('timezone', col.text, (c) => c.notNull())
        .addColumn('suppress_alerts', col.bool, (c) => c.notNull())
        .addColumn('exclude_from_sla', col.bool, (c) => c.notNull())
        .addColumn('status_page_ids', col.json, (c) => c.notNull())
        .addColumn('announce_minutes_before', col.int, (c) => c.notNull())
        .addColumn('early_ends', col.json, (c) => c.notNull())
        .addColumn('created_at', col.time, (c) => c.notNull())
        .addColumn('updated_at', col.time, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('maintenance_window_org_idx')
        .on('maintenance_window')
        .columns(['organization_id', 'id'])
        .execute();
      await db.schema
        .createTable('maintenance_emission')
        .addColumn('window_id', col.id, (c) => c.notNull())
        .addColumn('occurrence_start', col.time, (c) => c.notNull())
        .addColumn('kind', col.text, (c) => c.notNull())
        .addColumn('organization_id', col.id, (c) => c.notNull())
        .addColumn('emitted_at', col.time, (c) => c.notNull())
        .addPrimaryKeyConstraint('maintenance_emission_pk', ['window_id', 'occurrence_start', 'kind'])
        .execute();
      await db.schema
        .createTable('maintenance_held')
        .addColumn('monitor_id', col.id, (c) => c.primaryKey())
        .addColumn('organization_id', col.id, (c) => c.notNull())
        .addColumn('window_id', col.id, (c) => c.notNull())
        .addColumn('held_at', col.time, (c) => c.notNull())
        .addColumn('cause', col.text)
        .execute();
      await db.schema
        .createIndex('maintenance_held_org_idx')
        .on('maintenance_held')
        .columns(['organization_id'])
        .execute();
    },
  },
];
