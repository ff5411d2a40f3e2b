import { sql } from 'kysely';
import type { SchemaMigration } from '../../../platform/db/index.ts';
import { col } from '../../../platform/db/index.ts';

/**
 * Tables of the check engine:
 * - `check_schedule`: one row per (monitor, region): next due time (phase-aligned, jittered per monitor) and lease;
 * - `check_state`: per (monitor, region) consecutive counters for the state machine;
 * - `monitor_status_change`: every status change of a monitor (dropped by 202611290400: nothing read it; a transition
 *   is kept where it is read: the monitor's status, the outbox's `monitor_status_changed`, the reports timeline);
 * - `check_cert_notice`: the last day a `cert_expiring` event was recorded for a monitor (at most one a day);
 * - `runner`: remote runners (hashed token, region, last heartbeat);
 * - `heartbeat_ping`: the last push received by a heartbeat monitor.
 */
export const checkEngineMigrations: SchemaMigration[] = [
  {
    name: '202611230001_checks_engine',
    async up(db) {
      await db.schema
        .createTable('check_schedule')
        .addColumn('monitor_id', col.id, (c) => c.notNull())
        .addColumn('region_code', col.text, (c) => c.notNull())
        .addColumn('organization_id', col.id, (c) => c.notNull())
        .addColumn('interval_ms', col.bigint, (c) => c.notNull())
        .addColumn('phase_ms', col.bigint, (c) => c.notNull())
        .addColumn('next_due_at', col.time, (c) => c.notNull())
        .addColumn('lease_owner', col.text)
        .addColumn('lease_until', col.time)
        .addColumn('monitor_version', col.time, (c) => c.notNull())
        .addPrimaryKeyConstraint('check_schedule_pk', ['monitor_id', 'region_code'])
        .execute();
      await db.schema
        .createIndex('check_schedule_due_idx')
        .on('check_schedule')
        .columns(['region_code', 'next_due_at'])
        .execute();

      await db.schema
        .createTable('check_state')
        .addColumn('monitor_id', col.id, (c) => c.notNull())
        .addColumn('region_code', col.text, (c) => c.notNull())
        .addColumn('successes', col.int, (c) => c.notNull())
        .addColumn('failures', col.int, (c) => c.notNull())
        .addColumn('last_at', col.time)
        .addColumn('last_status', col.text)
        .addColumn('last_cause', col.text)
        .addPrimaryKeyConstraint('check_state_pk', ['monitor_id', 'region_code'])
        .execute();

      await db.schema
        .createTable('monitor_status_change')
        .addColumn('id', col.id, (c) => c.primaryKey())
        .addColumn('organization_id', col.id, (c) => c.notNull())
        .addColumn('monitor_id', col.id, (c) => c.notNull())
        .addColumn('from_status', col.text, (c) => c.notNull())
        .addColumn('to_status', col.text, (c) => c.notNull())
        .addColumn('at', col.time, (c) => c.notNull())
        .addColumn('cause', col.text)
        .addColumn('execution_id', col.id)
        .execute();
      await db.schema
        .createIndex('monitor_status_change_mon_idx')
        .on('monitor_status_change')
        .columns(['monitor_id', 'at'])
        .execute();

      await db.schema
        .createTable('check_cert_notice')
        .addColumn('monitor_id', col.id, (c) => c.primaryKey())
        .addColumn('last_day', col.int, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('runner')
        .addColumn('id', col.id, (c) => c.primaryKey())
        .addColumn('region_code', col.text, (c) => c.notNull())
        .addColumn('name', col.text, (c) => c.notNull())
        .addColumn('token_hash', col.text, (c) => c.notNull().unique())
        .addColumn('created_at', col.time, (c) => c.notNull())
        .addColumn('last_seen_at', col.time)
        .addColumn('revoked_at', col.time)
        .execute();

      await db.schema
        .createTable('heartbeat_ping')
        .addColumn('monitor_id', col.id, (c) => c.primaryKey())
        .addColumn('last_ping_at', col.time, (c) => c.notNull())
        .addColumn('pings', col.bigint, (c) => c.notNull())
        .execute();
    },
  },
  {
    // The first failure of each region's current run of failures: a down verdict is dated back to it (reports).
    name: '202611232110_checks_failing_since',
    async up(db) {
      await db.schema.alterTable('check_state').addColumn('failing_since', col.time).execute();
    },
  },
  {
    // The fair claim counts each organization's checks in flight (live leases): one index range, not a table pass.
    name: '202611240629_checks_schedule_lease_index',
    async up(db) {
      await db.schema
        .createIndex('check_schedule_lease_idx')
        .on('check_schedule')
        .columns(['region_code', 'lease_until'])
        .execute();
    },
  },
  {
    // Each row's check timeout: a claim leases a row for at least its timeout and a margin, so a check slower than
    // `scheduler.lease_seconds` is not taken over (and its result refused) while it runs. 0 until the scheduler's
    // reconcile at start rewrites every row: the configured lease alone, as before.
    name: '202611242100_checks_schedule_timeout',
    async up(db) {
      await db.schema
        .alterTable('check_schedule')
        .addColumn('timeout_ms', col.bigint, (c) => c.notNull().defaultTo(0))
        .execute();
    },
  },
  {
    // Every transition was also written here, and nothing read it: what is read of a transition is the monitor's
    // status, the outbox's `monitor_status_changed` (live feed), the reports timeline and the incidents. Its index
    // goes with it.
    name: '202611290400_checks_drop_monitor_status_change',
    async up(db) {
      await db.schema.dropTable('monitor_status_change').execute();
    },
  },
  {
    // DECISIONS §20, degraded: per region, the consecutive checks that were slow or failed (`impaired`) and the
    // consecutive fast successes (`fast`). Rows from before count every success as fast and every failure as impaired
    // (no monitor had a latency to be slow against).
    name: '202612010500_checks_state_degraded',
    async up(db) {
      await db.schema
        .alterTable('check_state')
        .addColumn('impaired', col.int, (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('check_state')
        .addColumn('fast', col.int, (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`update check_state set impaired = failures, fast = successes`.execute(db);
      // A degraded monitor: since when, and whether its `degraded` event went out (not inside a maintenance window
      // that suppresses alerts), which decides whether `degraded_recovered` does.
      await db.schema
        .createTable('check_degraded')
        .addColumn('monitor_id', col.id, (c) => c.primaryKey())
        .addColumn('since', col.time, (c) => c.notNull())
        .addColumn('announced', col.bool, (c) => c.notNull())
        .execute();
    },
  },
];
