import type { SchemaMigration } from '../../platform/db/index.ts';
import { col } from '../../platform/db/index.ts';

export const alertingMigrations: SchemaMigration[] = [
  {
    name: '202611220300_alerting_destinations_deliveries',
    async up(db) {
      await db.schema
        .createTable('destination')
        .addColumn('id', col.id, (c) => c.primaryKey())
        .addColumn('organization_id', col.id, (c) => c.notNull())
        .addColumn('type', col.text, (c) => c.notNull())
        .addColumn('name', col.text, (c) => c.notNull())
        .addColumn('events', col.json, (c) => c.notNull())
        // Non-secret config fields in clear; the secret ones (and the signing secret) sealed in `sealed_secrets`.
        .addColumn('config', col.json, (c) => c.notNull())
        .addColumn('sealed_secrets', col.text)
        .addColumn('payload_format', col.text)
        .addColumn('state', col.json, (c) => c.notNull())
        .addColumn('last_success_at', col.time)
        .addColumn('last_failure_at', col.time)
        .addColumn('last_failure_reason', col.text)
        .addColumn('needs_reauthorization', col.bool, (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', col.time, (c) => c.notNull())
        .addColumn('updated_at', col.time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('destination_org_idx').on('destination').columns(['organization_id', 'id']).execute();

      await db.schema
        .createTable('delivery')
        .addColumn('id', col.id, (c) => c.primaryKey())
        .addColumn('organization_id', col.id, (c) => c.notNull())
        // A destination, or null for the organization-wide email to one member (member_user_id).
        .addColumn('destination_id', col.id)
        .addColumn('member_user_id', col.id)
        .addColumn('member_email', col.text)
        // destination id or `member:<user id>`: the unit of ordering together with monitor_id.
        .addColumn('target_key', col.text, (c) => c.notNull())
        .addColumn('event_id', col.id, (c) => c.notNull())
        .addColumn('event_seq', col.bigint, (c) => c.notNull())
        .addColumn('event_type', col.text, (c) => c.notNull())
        .addColumn('monitor_id', col.id)
        // The AlertEvent as it was when fanned out (render input; re-rendered on every attempt).
        .addColumn('event_snapshot', col.json, (c) => c.notNull())
        .addColumn('status', col.text, (c) => c.notNull())
        .addColumn('attempts', col.int, (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', col.time, (c) => c.notNull())
        .addColumn('lease_owner', col.text)
        .addColumn('lease_until', col.time)
        .addColumn('last_error', col.text)
        .addColumn('provider_reference', col.text)
        .addColumn('created_at', col.time, (c) => c.notNull())
        .addColumn('updated_at', col.time, (c) => c.notNull())
        .addColumn('delivered_at', col.time)
        .execute();
      // Fan-out is idempotent: one delivery per (event, target).
      await db.schema
        .createIndex('delivery_event_target_uq')
        .on('delivery')
        .columns(['event_id', 'target_key'])
        .unique()
        .execute();
      await db.schema.createIndex('delivery_due_idx').on('delivery').columns(['status', 'next_attempt_at']).execute();
      await db.schema
        .createIndex('delivery_order_idx')
        .on('delivery')
        .columns(['target_key', 'monitor_id', 'event_seq'])
        .execute();
      await db.schema
        .createIndex('delivery_destination_idx')
        .on('delivery')
        .columns(['destination_id', 'created_at'])
        .execute();

      await db.schema
        .createTable('slack_install_state')
        .addColumn('state_hash', col.text, (c) => c.primaryKey())
        .addColumn('organization_id', col.id, (c) => c.notNull())
        .addColumn('destination_id', col.id)
        .addColumn('name', col.text, (c) => c.notNull())
        .addColumn('expires_at', col.time, (c) => c.notNull())
        .addColumn('created_at', col.time, (c) => c.notNull())
        .execute();
    },
  },
];
