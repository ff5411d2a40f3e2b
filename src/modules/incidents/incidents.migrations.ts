import { sql } from 'kysely';
import type { SchemaMigration } from '../../platform/db/index.ts';
import { col } from '../../platform/db/index.ts';

export const incidentsMigrations: SchemaMigration[] = [
  {
    name: '202611220010_incidents_init',
    async up(db, dialect) {
      await db.schema
        .createTable('incident')
        .addColumn('id', col.id, (c) => c.primaryKey())
        .addColumn('organization_id', col.id, (c) => c.notNull().references('organization.id').onDelete('cascade'))
        .addColumn('number', col.bigint, (c) => c.notNull())
        .addColumn('title', col.text, (c) => c.notNull())
        .addColumn('source', col.text, (c) => c.notNull())
        // No foreign key: an incident outlives its monitor (history), monitor_id stays as a reference.
        .addColumn('monitor_id', col.id)
        .addColumn('cause', col.text)
        .addColumn('status', col.text, (c) => c.notNull())
        .addColumn('opened_at', col.time, (c) => c.notNull())
        .addColumn('acknowledged_at', col.time)
        .addColumn('acknowledged_by', col.text)
        .addColumn('resolved_at', col.time)
        .addColumn('resolved_by', col.text)
        .addColumn('last_reminder_at', col.time)
        .addColumn('created_at', col.time, (c) => c.notNull())
        .addColumn('updated_at', col.time, (c) => c.notNull())
        .addUniqueConstraint('incident_org_number_uq', ['organization_id', 'number'])
        .execute();
      await db.schema.createIndex('incident_org_idx').on('incident').columns(['organization_id', 'id']).execute();
      await db.schema.createIndex('incident_monitor_idx').on('incident').columns(['monitor_id', 'opened_at']).execute();
      // Exactly one open monitor incident per monitor, whatever processes race or crash: the database decides.
      // Partial unique indexes exist with the same syntax on SQLite and PostgreSQL.
      await sql`create unique index incident_one_open_per_monitor on incident (monitor_id) where status <> 'resolved' and source = 'monitor'`.execute(
        db,
      );
      // Open incidents, for the reminder role and status pages.
      await sql`create index incident_open_idx on incident (status, id) where status <> 'resolved'`.execute(db);

      await db.schema
        .createTable('incident_event')
        .addColumn('seq', dialect === 'postgres' ? 'bigserial' : 'integer', (c) =>
          dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('incident_id', col.id, (c) => c.notNull().references('incident.id').onDelete('cascade'))
        .addColumn('organization_id', col.id, (c) => c.notNull())
        .addColumn('type', col.text, (c) => c.notNull())
        .addColumn('at', col.time, (c) => c.notNull())
        .addColumn('actor', col.text)
        .addColumn('message', col.text)
        .execute();
      await db.schema
        .createIndex('incident_event_incident_idx')
        .on('incident_event')
        .columns(['incident_id', 'seq'])
        .execute();

      // Per-organization number allocation: one row per organization, incremented inside the creating transaction
      // (the row lock serializes concurrent creators on PostgreSQL; SQLite has one writer).
      await db.schema
        .createTable('incident_counter')
        .addColumn('organization_id', col.id, (c) => c.primaryKey().references('organization.id').onDelete('cascade'))
        .addColumn('last_number', col.bigint, (c) => c.notNull())
        .execute();
    },
  },
  {
    // Reports and the export page through an organization's incidents in opening order (keyset, no OFFSET).
    name: '202611240453_incidents_opened_index',
    async up(db) {
      await db.schema
        .createIndex('incident_org_opened_idx')
        .on('incident')
        .columns(['organization_id', 'opened_at', 'id'])
        .execute();
    },
  },
  {
    // When a monitor incident's outage began (the first failing check): duration_seconds counts from it.
    name: '202611281500_incidents_down_since',
    async up(db) {
      await db.schema.alterTable('incident').addColumn('down_since', col.time).execute();
    },
  },
  {
    // DECISIONS §17: a monitor incident opened while a parent was down or in maintenance is held back from alerting.
    // blocked_by: the parents (JSON array of monitor ids) that held it, null when it was not held; suppressed_by: the
    // parent's incident; alert_release_due_at: when, every parent recovered, its alert goes out if it is still down
    // (its own checks have had time to see the recovery); alert_released_at: when it went out (null: not yet).
    name: '202611290301_incidents_dependencies',
    async up(db) {
      await db.schema.alterTable('incident').addColumn('blocked_by', col.json).execute();
      await db.schema.alterTable('incident').addColumn('suppressed_by', col.id).execute();
      await db.schema.alterTable('incident').addColumn('alert_release_due_at', col.time).execute();
      await db.schema.alterTable('incident').addColumn('alert_released_at', col.time).execute();
      // The held incidents whose release is due (the reminders role's pass).
      await sql`create index incident_release_due_idx on incident (alert_release_due_at, id) where alert_release_due_at is not null and alert_released_at is null`.execute(
        db,
      );
    },
  },
];
