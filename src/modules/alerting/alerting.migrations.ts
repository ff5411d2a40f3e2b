import type { Kysely } from 'kysely';
import type { SchemaMigration } from '../../platform/db/index.ts';
import { col, fromJson, toJson } from '../../platform/db/index.ts';

/** The tables as the links migration reads and writes them (its own view: later schema changes do not apply). */
interface LinksMigrationTables {
  monitor: { id: string; organization_id: string; config: string };
  destination: { id: string; organization_id: string };
  monitor_destination: { organization_id: string; monitor_id: string; destination_id: string; created_at: number };
}

/**
 * Moves each monitor's `config.alert_destination_ids` into `monitor_destination` rows and removes the key from the
 * stored config. Ids that are not destinations of the monitor's organization (left behind by old bugs) are dropped:
 * they never alerted anyone.
 */
async function moveLinkArraysToRows(db: Kysely<LinksMigrationTables>): Promise<void> {
  const destinations = await db.selectFrom('destination').select(['id', 'organization_id']).execute();
  const orgOf = new Map(destinations.map((d) => [d.id, d.organization_id]));
  const monitors = await db
    .selectFrom('monitor')
    .select(['id', 'organization_id', 'config'])
    .where('config', 'like', '%alert_destination_ids%')
    .execute();
  // A migration runs once at start-up, outside any injected clock.
  const now = Date.now();
  for (const m of monitors) {
    const { alert_destination_ids: ids, ...rest } = fromJson<Record<string, unknown>>(m.config);
    const linked = [...new Set(Array.isArray(ids) ? ids : [])].filter(
      (id): id is string => typeof id === 'string' && orgOf.get(id) === m.organization_id,
    );
    if (linked.length > 0) {
      await db
        .insertInto('monitor_destination')
        .values(
          linked.map((destinationId) => ({
            organization_id: m.organization_id,
            monitor_id: m.id,
            destination_id: destinationId,
            created_at: now,
          })),
        )
        .onConflict((oc) => oc.columns(['monitor_id', 'destination_id']).doNothing())
        .execute();
    }
    await db
      .updateTable('monitor')
      .set({ config: toJson(rest) })
      .where('id', '=', m.id)
      .execute();
  }
}

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
  {
    name: '202611231000_alerting_monitor_destination_links',
    async up(db) {
      await db.schema
        .createTable('monitor_destination')
        .addColumn('organization_id', col.id, (c) => c.notNull())
        .addColumn('monitor_id', col.id, (c) => c.notNull().references('monitor.id').onDelete('cascade'))
        .addColumn('destination_id', col.id, (c) => c.notNull().references('destination.id').onDelete('cascade'))
        .addColumn('created_at', col.time, (c) => c.notNull())
        .addPrimaryKeyConstraint('monitor_destination_pk', ['monitor_id', 'destination_id'])
        .execute();
      await db.schema
        .createIndex('monitor_destination_destination_idx')
        .on('monitor_destination')
        .column('destination_id')
        .execute();
      await moveLinkArraysToRows(db as Kysely<LinksMigrationTables>);
    },
  },
  {
    // Silences (DECISIONS §16) and grouping (§17): a held delivery names its silence; a grouped one its group's
    // first delivery; a destination says how long it gathers events into one message (0 = off, as before).
    name: '202611290210_alerting_silences_grouping',
    async up(db) {
      await db.schema.alterTable('delivery').addColumn('silence_id', col.id).execute();
      await db.schema.alterTable('delivery').addColumn('group_id', col.id).execute();
      await db.schema.createIndex('delivery_group_idx').on('delivery').columns(['group_id', 'status']).execute();
      // The fan-out looks for a destination's open group among its pending deliveries.
      await db.schema
        .createIndex('delivery_destination_status_idx')
        .on('delivery')
        .columns(['destination_id', 'status'])
        .execute();
      await db.schema
        .alterTable('destination')
        .addColumn('group_window_seconds', col.int, (c) => c.notNull().defaultTo(0))
        .execute();
    },
  },
];
