import type { SchemaMigration } from '../../platform/db/index.ts';
import { col } from '../../platform/db/index.ts';

export const orgsMigrations: SchemaMigration[] = [
  {
    name: '202611220001_orgs_init',
    async up(db) {
      await db.schema
        .createTable('organization')
        .addColumn('id', col.id, (c) => c.primaryKey())
        .addColumn('name', col.text, (c) => c.notNull())
        .addColumn('plan', col.text, (c) => c.notNull())
        .addColumn('default_region', col.text, (c) => c.notNull())
        .addColumn('email_alerts_enabled', col.bool, (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', col.time, (c) => c.notNull())
        .addColumn('updated_at', col.time, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('app_user')
        .addColumn('id', col.id, (c) => c.primaryKey())
        .addColumn('email', col.text, (c) => c.notNull().unique())
        .addColumn('name', col.text)
        .addColumn('email_verified_at', col.time)
        .addColumn('created_at', col.time, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('membership')
        .addColumn('organization_id', col.id, (c) => c.notNull().references('organization.id').onDelete('cascade'))
        .addColumn('user_id', col.id, (c) => c.notNull().references('app_user.id').onDelete('cascade'))
        .addColumn('role', col.text, (c) => c.notNull())
        .addColumn('created_at', col.time, (c) => c.notNull())
        .addPrimaryKeyConstraint('membership_pk', ['organization_id', 'user_id'])
        .execute();
      await db.schema.createIndex('membership_user_idx').on('membership').column('user_id').execute();
    },
  },
  {
    name: '202611220200_orgs_email_verification',
    async up(db) {
      // Email verification links: only a hash of the token is stored; single use, expiring.
      await db.schema
        .createTable('email_verification')
        .addColumn('token_hash', col.text, (c) => c.primaryKey())
        .addColumn('user_id', col.id, (c) => c.notNull().references('app_user.id').onDelete('cascade'))
        .addColumn('expires_at', col.time, (c) => c.notNull())
        .addColumn('used_at', col.time)
        .addColumn('created_at', col.time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('email_verification_user_idx').on('email_verification').column('user_id').execute();
    },
  },
  {
    name: '202611232200_orgs_invitations',
    async up(db) {
      // Pending invitations: a row until its one-time link is followed (then deleted, the membership made) or it
      // is revoked. One pending invitation per address and organization; only a hash of the token is stored.
      await db.schema
        .createTable('invitation')
        .addColumn('id', col.id, (c) => c.primaryKey())
        .addColumn('organization_id', col.id, (c) => c.notNull().references('organization.id').onDelete('cascade'))
        .addColumn('email', col.text, (c) => c.notNull())
        .addColumn('name', col.text)
        .addColumn('role', col.text, (c) => c.notNull())
        .addColumn('token_hash', col.text, (c) => c.notNull().unique())
        .addColumn('expires_at', col.time, (c) => c.notNull())
        .addColumn('invited_by', col.text, (c) => c.notNull())
        .addColumn('created_at', col.time, (c) => c.notNull())
        .addUniqueConstraint('invitation_org_email_uq', ['organization_id', 'email'])
        .execute();
    },
  },
  {
    name: '202611240037_orgs_passwords',
    async up(db) {
      // A user's sign-in password (a self-describing scrypt string; null for users who never set one) and the
      // one-time password reset links: only a hash of the token is stored; single use, expiring.
      await db.schema.alterTable('app_user').addColumn('password_hash', col.text).execute();
      await db.schema
        .createTable('password_reset')
        .addColumn('token_hash', col.text, (c) => c.primaryKey())
        .addColumn('user_id', col.id, (c) => c.notNull().references('app_user.id').onDelete('cascade'))
        .addColumn('expires_at', col.time, (c) => c.notNull())
        .addColumn('used_at', col.time)
        .addColumn('created_at', col.time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('password_reset_user_idx').on('password_reset').column('user_id').execute();
    },
  },
];
