import { sql } from 'kysely';
import type { SchemaMigration } from '../../platform/db/index.ts';
import { col } from '../../platform/db/index.ts';

/**
 * Tables of the reports module:
 * - `report_monitor`: each monitor's name, target, environment and tags, and when it was created and deleted;
 * - `monitor_timeline`: the changes the accounting counts (lifecycle and up/down verdicts), in order;
 * - `sla_target`: SLA targets (DECISIONS §8);
 * - `custom_report`: custom reports (DECISIONS §8), added by a later migration.
 * The first migration fills the first two from what was already recorded (monitors, their status-change log),
 * so an upgraded installation reports on its history.
 */
export const reportsMigrations: SchemaMigration[] = [
  {
    name: '202611232120_reports_init',
    async up(db, dialect) {
      await db.schema
        .createTable('report_monitor')
        .addColumn('monitor_id', col.id, (c) => c.primaryKey())
        .addColumn('organization_id', col.id, (c) => c.notNull())
        .addColumn('name', col.text, (c) => c.notNull())
        .addColumn('type', col.text, (c) => c.notNull())
        .addColumn('target', col.text, (c) => c.notNull())
        .addColumn('environment', col.text, (c) => c.notNull())
        .addColumn('tags', col.json, (c) => c.notNull())
        .addColumn('created_at', col.time, (c) => c.notNull())
        .addColumn('deleted_at', col.time)
        .execute();
      await db.schema
        .createIndex('report_monitor_org_idx')
        .on('report_monitor')
        .columns(['organization_id', 'monitor_id'])
        .execute();
      await db.schema
        .createTable('monitor_timeline')
        .addColumn('seq', dialect === 'postgres' ? 'bigserial' : 'integer', (c) =>
          dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('monitor_id', col.id, (c) => c.notNull())
        .addColumn('at', col.time, (c) => c.notNull())
        .addColumn('kind', col.text, (c) => c.notNull())
        .addColumn('since', col.time)
        .execute();
      await db.schema
        .createIndex('monitor_timeline_mon_idx')
        .on('monitor_timeline')
        .columns(['monitor_id', 'at', 'seq'])
        .execute();
      await db.schema
        .createTable('sla_target')
        .addColumn('id', col.id, (c) => c.primaryKey())
        .addColumn('organization_id', col.id, (c) => c.notNull())
        .addColumn('name', col.text, (c) => c.notNull())
        .addColumn('monitor_ids', col.json, (c) => c.notNull())
        .addColumn('target_percent', col.real, (c) => c.notNull())
        .addColumn('period', col.text, (c) => c.notNull())
        .addColumn('created_at', col.time, (c) => c.notNull())
        .addColumn('updated_at', col.time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sla_target_org_idx').on('sla_target').columns(['organization_id', 'id']).execute();

      // History recorded before this module existed: monitors from their creation, verdicts from the status-change
      // log (down counted from the verdict: the first failure was not recorded then), paused ones since they paused.
      await sql`insert into report_monitor (monitor_id, organization_id, name, type, target, environment, tags, created_at, deleted_at)
        select id, organization_id, name, type, target, environment, tags, created_at, null from monitor`.execute(db);
      await sql`insert into monitor_timeline (monitor_id, at, kind, since)
        select id, created_at, 'created', null from monitor order by created_at`.execute(db);
      await sql`insert into monitor_timeline (monitor_id, at, kind, since)
        select c.monitor_id, c.at, c.to_status, case when c.to_status = 'down' then c.at else null end
        from monitor_status_change c join monitor m on m.id = c.monitor_id
        where c.to_status in ('up', 'down') order by c.at`.execute(db);
      await sql`insert into monitor_timeline (monitor_id, at, kind, since)
        select id, status_changed_at, 'paused', null from monitor where paused = 1`.execute(db);
    },
  },
  {
    name: '202611240317_reports_custom_reports',
    async up(db) {
      await db.schema
        .createTable('custom_report')
        .addColumn('id', col.id, (c) => c.primaryKey())
        .addColumn('organization_id', col.id, (c) => c.notNull())
        .addColumn('owner_id', col.id, (c) => c.notNull())
        .addColumn('name', col.text, (c) => c.notNull())
        .addColumn('period', col.json, (c) => c.notNull())
        .addColumn('timezone', col.text, (c) => c.notNull())
        .addColumn('widgets', col.json, (c) => c.notNull())
        .addColumn('visibility', col.text, (c) => c.notNull())
        .addColumn('shared_with_user_ids', col.json, (c) => c.notNull())
        .addColumn('created_at', col.time, (c) => c.notNull())
        .addColumn('updated_at', col.time, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('custom_report_org_idx')
        .on('custom_report')
        .columns(['organization_id', 'id'])
        .execute();
    },
  },
];
