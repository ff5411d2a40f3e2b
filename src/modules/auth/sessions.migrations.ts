import type { SchemaMigration } from '../../platform/db/index.ts';
import { col } from '../../platform/db/index.ts';

export const sessionsMigrations: SchemaMigration[] = [
  {
    name: '202611240041_auth_sessions',
    async up(db) {
      // Browser sessions (only a hash of the cookie's token is stored) and failed sign-ins per account and per
      // address, kept in the database so the slow-down holds across processes.
      await db.schema
        .createTable('user_session')
        .addColumn('id', col.id, (c) => c.primaryKey())
        .addColumn('token_hash', col.text, (c) => c.notNull().unique())
        .addColumn('user_id', col.id, (c) => c.notNull().references('app_user.id').onDelete('cascade'))
        .addColumn('organization_id', col.id, (c) => c.notNull().references('organization.id').onDelete('cascade'))
        .addColumn('created_at', col.time, (c) => c.notNull())
        .addColumn('last_seen_at', col.time, (c) => c.notNull())
        .addColumn('expires_at', col.time, (c) => c.notNull())
        .addColumn('ended_at', col.time)
        .addColumn('user_agent', col.text)
        .addColumn('ip', col.text)
        .execute();
      await db.schema.createIndex('user_session_user_idx').on('user_session').column('user_id').execute();
      await db.schema
        .createTable('sign_in_throttle')
        .addColumn('subject', col.text, (c) => c.primaryKey())
        .addColumn('failures', col.int, (c) => c.notNull())
        .addColumn('last_failure_at', col.time, (c) => c.notNull())
        .addColumn('blocked_until', col.time, (c) => c.notNull())
        .execute();
    },
  },
];
