import type { SchemaMigration } from '../../platform/db/index.ts';
import { col } from '../../platform/db/index.ts';

export const configDocumentsMigrations: SchemaMigration[] = [
  {
    name: '202611300700_config_documents_init',
    async up(db) {
      await db.schema
        .createTable('config_item')
        .addColumn('organization_id', col.id, (c) => c.notNull())
        .addColumn('kind', col.text, (c) => c.notNull())
        .addColumn('key', col.text, (c) => c.notNull())
        .addColumn('item_id', col.id, (c) => c.notNull())
        .addColumn('applied', col.json, (c) => c.notNull())
        .addColumn('applied_at', col.time, (c) => c.notNull())
        .addPrimaryKeyConstraint('config_item_pk', ['organization_id', 'kind', 'key'])
        .execute();
      // "Is this record managed?" (the 409 of a change through the API) asks by record.
      await db.schema
        .createIndex('config_item_item_idx')
        .on('config_item')
        .columns(['organization_id', 'item_id'])
        .unique()
        .execute();
    },
  },
];
