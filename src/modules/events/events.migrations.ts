import type { SchemaMigration } from '../../platform/db/index.ts';
import { col } from '../../platform/db/index.ts';

export const eventsMigrations: SchemaMigration[] = [
  {
    name: '202611220004_events_outbox',
    async up(db, dialect) {
      // The durable outbox: written in the same transaction as the change that caused the event.
      await db.schema
        .createTable('domain_event')
        .addColumn('seq', dialect === 'postgres' ? 'bigserial' : 'integer', (c) =>
          dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('id', col.id, (c) => c.notNull().unique())
        .addColumn('organization_id', col.id, (c) => c.notNull())
        .addColumn('type', col.text, (c) => c.notNull())
        .addColumn('monitor_id', col.id)
        .addColumn('incident_id', col.id)
        .addColumn('occurred_at', col.time, (c) => c.notNull())
        .addColumn('payload', col.json, (c) => c.notNull())
        .addColumn('created_at', col.time, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('domain_event_org_idx')
        .on('domain_event')
        .columns(['organization_id', 'seq'])
        .execute();
      // Each consumer (the alert pipeline, later reports) remembers how far it has read.
      await db.schema
        .createTable('event_consumer')
        .addColumn('name', col.text, (c) => c.primaryKey())
        .addColumn('last_seq', col.bigint, (c) => c.notNull())
        .addColumn('updated_at', col.time, (c) => c.notNull())
        .execute();
    },
  },
  {
    // GET /incidents/{id}/deliveries finds an incident's events by it (then their deliveries by event id).
    name: '202611240730_events_incident_index',
    async up(db) {
      await db.schema
        .createIndex('domain_event_incident_idx')
        .on('domain_event')
        .columns(['incident_id', 'seq'])
        .execute();
    },
  },
];
