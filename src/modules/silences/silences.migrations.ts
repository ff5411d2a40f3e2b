import type { SchemaMigration } from '../../platform/db/index.ts';
import { col } from '../../platform/db/index.ts';

export const silencesMigrations: SchemaMigration[] = [
  {
    name: '202611290200_silences_init',
    async up(db) {
      await db.schema
        .createTable('silence')
        .addColumn('id', col.id, (c) => c.primaryKey())
        .addColumn('organization_id', col.id, (c) => c.notNull())
        .addColumn('monitor_ids', col.json, (c) => c.notNull())
        .addColumn('tags', col.json, (c) => c.notNull())
        .addColumn('events', col.json, (c) => c.notNull())
        .addColumn('destination_ids', col.json, (c) => c.notNull())
        .addColumn('starts_at', col.time, (c) => c.notNull())
        .addColumn('ends_at', col.time, (c) => c.notNull())
        .addColumn('comment', col.text, (c) => c.notNull())
        .addColumn('created_by', col.text, (c) => c.notNull())
        .addColumn('created_at', col.time, (c) => c.notNull())
        .addColumn('updated_at', col.time, (c) => c.notNull())
        .execute();
      // The fan-out reads the silences of an organization that have not ended yet.
      await db.schema
        .createIndex('silence_org_ends_idx')
        .on('silence')
        .columns(['organization_id', 'ends_at'])
        .execute();
    },
  },
];
