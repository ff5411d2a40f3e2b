import type { SchemaMigration } from '../../platform/db/index.ts';
import { col } from '../../platform/db/index.ts';

/**
 * Tables of the scheduled-reports module: the schedules (with their run lease), one row per run (its outbox event
 * and how its deliveries ended) and the rendered files the deliveries link to (bytes in the database, so every
 * process of a PostgreSQL installation can serve them).
 */
export const scheduledReportsMigrations: SchemaMigration[] = [
  {
    name: '202611240541_scheduledreports_init',
    async up(db, dialect) {
      await db.schema
        .createTable('scheduled_report')
        .addColumn('id', col.id, (c) => c.primaryKey())
        .addColumn('organization_id', col.id, (c) => c.notNull())
        .addColumn('report_type', col.text, (c) => c.notNull())
        .addColumn('custom_report_id', col.id)
        .addColumn('frequency', col.text, (c) => c.notNull())
        .addColumn('day_of_week', col.int)
        .addColumn('day_of_month', col.int)
        .addColumn('time_of_day', col.text, (c) => c.notNull())
        .addColumn('timezone', col.text, (c) => c.notNull())
        .addColumn('destination_ids', col.json, (c) => c.notNull())
        .addColumn('enabled', col.bool, (c) => c.notNull())
        .addColumn('next_run_at', col.time, (c) => c.notNull())
        .addColumn('last_run_at', col.time)
        .addColumn('last_status', col.text, (c) => c.notNull())
        .addColumn('run_requests', col.int, (c) => c.notNull())
        .addColumn('lease_owner', col.text)
        .addColumn('lease_until', col.time)
        .addColumn('created_by_user_id', col.id)
        .addColumn('created_by_key_id', col.id, (c) => c.notNull())
        .addColumn('environments', col.json, (c) => c.notNull())
        .addColumn('created_at', col.time, (c) => c.notNull())
        .addColumn('updated_at', col.time, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('scheduled_report_org_idx')
        .on('scheduled_report')
        .columns(['organization_id', 'id'])
        .execute();
      await db.schema
        .createIndex('scheduled_report_due_idx')
        .on('scheduled_report')
        .columns(['enabled', 'next_run_at'])
        .execute();
      await db.schema
        .createTable('scheduled_report_run')
        .addColumn('event_id', col.id, (c) => c.primaryKey())
        .addColumn('scheduled_report_id', col.id, (c) => c.notNull())
        .addColumn('organization_id', col.id, (c) => c.notNull())
        .addColumn('manual', col.bool, (c) => c.notNull())
        .addColumn('period_from', col.time, (c) => c.notNull())
        .addColumn('period_to', col.time, (c) => c.notNull())
        .addColumn('destination_count', col.int, (c) => c.notNull())
        .addColumn('status', col.text, (c) => c.notNull())
        .addColumn('started_at', col.time, (c) => c.notNull())
        .addColumn('ended_at', col.time)
        .execute();
      await db.schema
        .createIndex('scheduled_report_run_status_idx')
        .on('scheduled_report_run')
        .columns(['status', 'started_at'])
        .execute();
      await db.schema
        .createIndex('scheduled_report_run_sched_idx')
        .on('scheduled_report_run')
        .columns(['scheduled_report_id', 'started_at'])
        .execute();
      await db.schema
        .createTable('report_file')
        .addColumn('id', col.id, (c) => c.primaryKey())
        .addColumn('organization_id', col.id, (c) => c.notNull())
        .addColumn('scheduled_report_id', col.id, (c) => c.notNull())
        .addColumn('event_id', col.id, (c) => c.notNull())
        .addColumn('kind', col.text, (c) => c.notNull())
        .addColumn('filename', col.text, (c) => c.notNull())
        .addColumn('content_type', col.text, (c) => c.notNull())
        .addColumn('size_bytes', col.bigint, (c) => c.notNull())
        .addColumn('body', col.bytes(dialect), (c) => c.notNull())
        .addColumn('token_hash', col.text, (c) => c.notNull())
        .addColumn('expires_at', col.time, (c) => c.notNull())
        .addColumn('created_at', col.time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('report_file_expiry_idx').on('report_file').columns(['expires_at']).execute();
    },
  },
];
