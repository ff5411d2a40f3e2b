import { sql } from 'kysely';
import type { SchemaMigration } from '../../platform/db/index.ts';
import { col } from '../../platform/db/index.ts';

export const intelligenceMigrations: SchemaMigration[] = [
  {
    name: '202611232100_intelligence_init',
    async up(db) {
      // DECISIONS §13. No foreign key to monitor: events outlive their monitor as history.
      await db.schema
        .createTable('intelligence_event')
        .addColumn('id', col.id, (c) => c.primaryKey())
        .addColumn('organization_id', col.id, (c) => c.notNull().references('organization.id').onDelete('cascade'))
        .addColumn('monitor_id', col.id, (c) => c.notNull())
        .addColumn('region_code', col.text)
        .addColumn('category', col.text, (c) => c.notNull())
        .addColumn('kind', col.text, (c) => c.notNull())
        .addColumn('severity', col.text, (c) => c.notNull())
        .addColumn('summary', col.text, (c) => c.notNull())
        .addColumn('before', col.json)
        .addColumn('after', col.json)
        .addColumn('started_at', col.time, (c) => c.notNull())
        .addColumn('ended_at', col.time)
        .addColumn('incident_id', col.id)
        // What an opening event waits for to end (latency_anomaly, flapping, alert_latency, grade:tls …).
        .addColumn('open_key', col.text)
        .addColumn('created_at', col.time, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('intelligence_event_org_idx')
        .on('intelligence_event')
        .columns(['organization_id', 'id'])
        .execute();
      await db.schema
        .createIndex('intelligence_event_monitor_idx')
        .on('intelligence_event')
        .columns(['monitor_id', 'id'])
        .execute();
      await sql`create index intelligence_event_open_idx on intelligence_event (monitor_id, open_key) where ended_at is null and open_key is not null`.execute(
        db,
      );

      // Detector state per monitor and region ('' for per-monitor state such as grades): updated in place.
      await db.schema
        .createTable('intelligence_state')
        .addColumn('monitor_id', col.id, (c) => c.notNull())
        .addColumn('region_code', col.text, (c) => c.notNull())
        .addColumn('state', col.json, (c) => c.notNull())
        .addColumn('updated_at', col.time, (c) => c.notNull())
        .addPrimaryKeyConstraint('intelligence_state_pk', ['monitor_id', 'region_code'])
        .execute();

      // Observations, stored only when they differ from the previous one of the monitor and region.
      await db.schema
        .createTable('intelligence_observation')
        .addColumn('monitor_id', col.id, (c) => c.notNull())
        .addColumn('region_code', col.text, (c) => c.notNull())
        .addColumn('observed_at', col.time, (c) => c.notNull())
        .addColumn('snapshot', col.json, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('intelligence_observation_idx')
        .on('intelligence_observation')
        .columns(['monitor_id', 'region_code', 'observed_at'])
        .execute();

      // Grade history: one row per grading whose result differs from the previous one of that kind.
      await db.schema
        .createTable('intelligence_grade')
        .addColumn('monitor_id', col.id, (c) => c.notNull())
        .addColumn('kind', col.text, (c) => c.notNull())
        .addColumn('grade', col.text, (c) => c.notNull())
        .addColumn('score', col.real, (c) => c.notNull())
        .addColumn('reasons', col.json, (c) => c.notNull())
        .addColumn('not_tested', col.json, (c) => c.notNull())
        .addColumn('graded_at', col.time, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('intelligence_grade_idx')
        .on('intelligence_grade')
        .columns(['monitor_id', 'kind', 'graded_at'])
        .execute();

      await db.schema
        .createTable('intelligence_correlation')
        .addColumn('id', col.id, (c) => c.primaryKey())
        .addColumn('organization_id', col.id, (c) => c.notNull().references('organization.id').onDelete('cascade'))
        .addColumn('attribute', col.text, (c) => c.notNull())
        .addColumn('value', col.text, (c) => c.notNull())
        .addColumn('monitor_ids', col.json, (c) => c.notNull())
        .addColumn('incident_ids', col.json, (c) => c.notNull())
        .addColumn('coverage', col.real, (c) => c.notNull())
        .addColumn('summary', col.text, (c) => c.notNull())
        .addColumn('started_at', col.time, (c) => c.notNull())
        .addColumn('last_seen_at', col.time, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('intelligence_correlation_org_idx')
        .on('intelligence_correlation')
        .columns(['organization_id', 'attribute', 'value', 'last_seen_at'])
        .execute();
    },
  },
  {
    name: '202611232140_intelligence_correlation_inputs',
    async up(db) {
      // What correlations compare, per monitor and region: written only when the observation changes.
      await db.schema
        .createTable('intelligence_attributes')
        .addColumn('monitor_id', col.id, (c) => c.notNull())
        .addColumn('region_code', col.text, (c) => c.notNull())
        .addColumn('organization_id', col.id, (c) => c.notNull())
        .addColumn('attributes', col.json, (c) => c.notNull())
        .addColumn('updated_at', col.time, (c) => c.notNull())
        .addPrimaryKeyConstraint('intelligence_attributes_pk', ['monitor_id', 'region_code'])
        .execute();
      await db.schema
        .createIndex('intelligence_attributes_org_idx')
        .on('intelligence_attributes')
        .columns(['organization_id'])
        .execute();
      // A monitor+region starting to fail or turning anomalous: kept for the correlation window only.
      await db.schema
        .createTable('intelligence_signal')
        .addColumn('organization_id', col.id, (c) => c.notNull())
        .addColumn('monitor_id', col.id, (c) => c.notNull())
        .addColumn('region_code', col.text, (c) => c.notNull())
        .addColumn('at', col.time, (c) => c.notNull())
        .addColumn('reason', col.text, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('intelligence_signal_org_idx')
        .on('intelligence_signal')
        .columns(['organization_id', 'at'])
        .execute();
    },
  },
  {
    name: '202611240142_intelligence_drop_correlation_incident_ids',
    async up(db) {
      // Never filled: the incidents a correlation explains are found on read (IntelligenceService.incidentCorrelations).
      await db.schema.alterTable('intelligence_correlation').dropColumn('incident_ids').execute();
    },
  },
  {
    name: '202611240157_intelligence_recent_indexes',
    async up(db) {
      // A batch with failures reads the organization's correlations still in their window, and the attributes'
      // version (count and latest write): both from the index alone, however long the history grows.
      await db.schema
        .createIndex('intelligence_correlation_recent_idx')
        .on('intelligence_correlation')
        .columns(['organization_id', 'last_seen_at'])
        .execute();
      await db.schema
        .createIndex('intelligence_attributes_version_idx')
        .on('intelligence_attributes')
        .columns(['organization_id', 'updated_at'])
        .execute();
    },
  },
];
