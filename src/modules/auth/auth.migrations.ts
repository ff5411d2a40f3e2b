import type { SchemaMigration } from '../../platform/db/index.ts';
import { col } from '../../platform/db/index.ts';

export const authMigrations: SchemaMigration[] = [
  {
    name: '202611220002_auth_api_keys',
    async up(db) {
      await db.schema
        .createTable('api_key')
        .addColumn('id', col.id, (c) => c.primaryKey())
        .addColumn('organization_id', col.id, (c) => c.notNull().references('organization.id').onDelete('cascade'))
        .addColumn('name', col.text, (c) => c.notNull())
        .addColumn('prefix', col.text, (c) => c.notNull())
        .addColumn('hash', col.text, (c) => c.notNull().unique())
        .addColumn('previous_hash', col.text)
        .addColumn('previous_valid_until', col.time)
        .addColumn('scopes', col.json, (c) => c.notNull())
        .addColumn('environments', col.json, (c) => c.notNull())
        .addColumn('expires_at', col.time)
        .addColumn('read_per_minute', col.int, (c) => c.notNull())
        .addColumn('write_per_minute', col.int, (c) => c.notNull())
        .addColumn('delete_per_minute', col.int, (c) => c.notNull())
        .addColumn('created_by', col.id)
        .addColumn('user_id', col.id)
        .addColumn('service_account_id', col.id)
        .addColumn('last_used_at', col.time)
        .addColumn('revoked_at', col.time)
        .addColumn('created_at', col.time, (c) => c.notNull())
        .addColumn('updated_at', col.time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('api_key_org_idx').on('api_key').columns(['organization_id', 'id']).execute();
      await db.schema.createIndex('api_key_previous_hash_idx').on('api_key').column('previous_hash').execute();
    },
  },
];
