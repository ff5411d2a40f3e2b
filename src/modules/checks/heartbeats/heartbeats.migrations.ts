import type { SchemaMigration } from '../../../platform/db/index.ts';
import { sql } from 'kysely';
import { col } from '../../../platform/db/index.ts';

/**
 * Heartbeat signals (DECISIONS §20):
 * - `heartbeat_signal`: every ping kept (success, start, fail, log), its run id, duration, exit code, the first
 *   100 KB of its body and who sent it; `open` marks a start still waiting for its end;
 * - `heartbeat_ping` gains what the probe judges besides the last success: the last fail (and its exit code) and
 *   the start of the oldest run still open (`max_run_seconds`);
 * - `heartbeat_slug`: a heartbeat monitor's slug, unique in its organization (`/api/v1/ping/{ping_key}/{slug}`);
 * - `heartbeat_org_setting`: an organization's ping key and whether a ping may create its monitor.
 */
export const heartbeatSignalsMigrations: SchemaMigration[] = [
  {
    name: '202612010100_heartbeat_signals',
    async up(db) {
      await db.schema
        .createTable('heartbeat_signal')
        .addColumn('id', col.id, (c) => c.primaryKey())
        .addColumn('monitor_id', col.id, (c) => c.notNull())
        .addColumn('organization_id', col.id, (c) => c.notNull())
        .addColumn('kind', col.text, (c) => c.notNull())
        .addColumn('at', col.time, (c) => c.notNull())
        .addColumn('rid', col.text)
        .addColumn('open', col.bool, (c) => c.notNull().defaultTo(0))
        .addColumn('duration_ms', col.bigint)
        .addColumn('exit_code', col.int)
        .addColumn('body', col.text)
        .addColumn('body_bytes', col.int, (c) => c.notNull().defaultTo(0))
        .addColumn('truncated', col.bool, (c) => c.notNull().defaultTo(0))
        .addColumn('source_ip', col.text)
        .addColumn('user_agent', col.text)
        .execute();
      await db.schema
        .createIndex('heartbeat_signal_monitor_idx')
        .on('heartbeat_signal')
        .columns(['monitor_id', 'id'])
        .execute();
      await db.schema
        .createIndex('heartbeat_signal_open_idx')
        .on('heartbeat_signal')
        .columns(['monitor_id', 'open', 'at'])
        .execute();
      await db.schema.alterTable('heartbeat_ping').addColumn('last_fail_at', col.time).execute();
      await db.schema.alterTable('heartbeat_ping').addColumn('last_exit_code', col.int).execute();
      await db.schema.alterTable('heartbeat_ping').addColumn('open_since', col.time).execute();
      await db.schema
        .createTable('heartbeat_slug')
        .addColumn('organization_id', col.id, (c) => c.notNull())
        .addColumn('slug', col.text, (c) => c.notNull())
        .addColumn('monitor_id', col.id, (c) => c.notNull().unique())
        .addPrimaryKeyConstraint('heartbeat_slug_pk', ['organization_id', 'slug'])
        .execute();
      await db.schema
        .createTable('heartbeat_org_setting')
        .addColumn('organization_id', col.id, (c) => c.primaryKey())
        .addColumn('ping_key', col.text, (c) => c.unique())
        .addColumn('auto_create', col.bool, (c) => c.notNull().defaultTo(0))
        .addColumn('updated_at', col.time, (c) => c.notNull())
        .execute();
    },
  },
  {
    // Only starts are ever open: every success, fail and log (nearly every ping) entered the full (monitor_id, open,
    // at) index for nothing, one more leaf page per monitor written to the WAL by each ping batch's commit. The queries
    // that read open starts (`open = 1`: the pairing of a start with its end, the oldest open run, closing starts) use
    // this partial index as they used the full one.
    name: '202612010900_heartbeat_signal_open_partial',
    async up(db) {
      await db.schema.dropIndex('heartbeat_signal_open_idx').execute();
      await sql`create index heartbeat_signal_open_idx on heartbeat_signal (monitor_id, at) where open = 1`.execute(db);
    },
  },
  {
    // The monitor index took one leaf page per monitor of each ping batch, written to the WAL at every commit: on
    // SQLite most of a ping's storage cost (docs/BENCHMARKS.md, Heartbeats). A batch's common pings are now stored
    // with `filed` 0, outside it, and entered in bulk once about a thousand have gathered (HeartbeatsRepository
    // .fileSignals), when each leaf takes many entries at once. Rows written before are filed.
    name: '202612011000_heartbeat_signal_filed',
    async up(db) {
      await db.schema
        .alterTable('heartbeat_signal')
        .addColumn('filed', col.bool, (c) => c.notNull().defaultTo(1))
        .execute();
      await db.schema.dropIndex('heartbeat_signal_monitor_idx').execute();
      await sql`create index heartbeat_signal_monitor_idx on heartbeat_signal (monitor_id, id) where filed = 1`.execute(
        db,
      );
      await sql`create index heartbeat_signal_unfiled_idx on heartbeat_signal (id) where filed = 0`.execute(db);
    },
  },
];
