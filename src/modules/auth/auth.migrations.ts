import type { Kysely } from 'kysely';
import type { SchemaMigration } from '../../platform/db/index.ts';
import type { AuthTables } from './auth.tables.ts';
import { col } from '../../platform/db/index.ts';
import { sessionsMigrations } from './sessions.migrations.ts';

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
  {
    name: '202611220100_auth_service_accounts',
    async up(db) {
      await db.schema
        .createTable('service_account')
        .addColumn('id', col.id, (c) => c.primaryKey())
        .addColumn('organization_id', col.id, (c) => c.notNull().references('organization.id').onDelete('cascade'))
        .addColumn('name', col.text, (c) => c.notNull())
        .addColumn('role', col.text, (c) => c.notNull())
        .addColumn('created_by', col.id)
        .addColumn('created_at', col.time, (c) => c.notNull())
        .addColumn('deleted_at', col.time)
        .execute();
      await db.schema
        .createIndex('service_account_org_idx')
        .on('service_account')
        .columns(['organization_id', 'id'])
        .execute();
    },
  },
  {
    name: '202611220101_auth_idempotency_keys',
    async up(db) {
      await db.schema
        .createTable('idempotency_key')
        .addColumn('id', col.id, (c) => c.primaryKey())
        .addColumn('organization_id', col.id, (c) => c.notNull())
        .addColumn('key', col.text, (c) => c.notNull())
        .addColumn('method', col.text, (c) => c.notNull())
        .addColumn('path', col.text, (c) => c.notNull())
        .addColumn('body_hash', col.text, (c) => c.notNull())
        .addColumn('state', col.text, (c) => c.notNull())
        .addColumn('status', col.int)
        .addColumn('response_body', col.text)
        .addColumn('response_headers', col.json)
        .addColumn('created_at', col.time, (c) => c.notNull())
        .addColumn('expires_at', col.time, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('idempotency_key_org_key_uq')
        .on('idempotency_key')
        .columns(['organization_id', 'key'])
        .unique()
        .execute();
      await db.schema.createIndex('idempotency_key_expires_idx').on('idempotency_key').column('expires_at').execute();
    },
  },
  {
    name: '202611220102_auth_key_usage',
    async up(db) {
      await db.schema
        .createTable('api_key_usage')
        .addColumn('key_id', col.id, (c) => c.notNull())
        .addColumn('organization_id', col.id, (c) => c.notNull())
        .addColumn('minute', col.time, (c) => c.notNull())
        .addColumn('read_count', col.int, (c) => c.notNull())
        .addColumn('write_count', col.int, (c) => c.notNull())
        .addColumn('delete_count', col.int, (c) => c.notNull())
        .addColumn('status_2xx', col.int, (c) => c.notNull())
        .addColumn('status_3xx', col.int, (c) => c.notNull())
        .addColumn('status_4xx', col.int, (c) => c.notNull())
        .addColumn('status_5xx', col.int, (c) => c.notNull())
        .addPrimaryKeyConstraint('api_key_usage_pk', ['key_id', 'minute'])
        .execute();
    },
  },
  {
    // Idempotency records belong to the key that made them: another key of the organization replaying the
    // same Idempotency-Key is a new request, never the first key's stored response. Rows made before this
    // carry no key and cannot be attributed: they go (they would expire within 24 hours anyway).
    name: '202611232040_auth_idempotency_per_key',
    async up(db) {
      await (db as Kysely<Pick<AuthTables, 'idempotency_key'>>).deleteFrom('idempotency_key').execute();
      await db.schema.dropIndex('idempotency_key_org_key_uq').execute();
      await db.schema.alterTable('idempotency_key').addColumn('api_key_id', col.id).execute();
      await db.schema
        .createIndex('idempotency_key_api_key_key_uq')
        .on('idempotency_key')
        .columns(['api_key_id', 'key'])
        .unique()
        .execute();
    },
  },
  ...sessionsMigrations,
];
