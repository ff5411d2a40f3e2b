/**
 * Stored bytes per execution with intelligence off and on, in steady state.
 *
 * 1,000 http monitors (one region each) checked every 20 s. Each batch of 100 executions is one transaction, as the
 * engine's: `ExecutionsStore.recordBatch` (execution rows, rollups) and, with intelligence on,
 * `IntelligenceService.applyChecks` with realistic response details (headers with volatile values, a remote address
 * shared by 5 monitors, a body digest), 1 % failures. A warm-up (default 90 simulated minutes) creates every
 * one-off row (per-series keys and rollups, intelligence state and learnt rows, first observations and attributes);
 * then the database size is taken, the measured period runs (default 60 simulated minutes), and the size is taken
 * again. Stored bytes per execution = growth of the whole database over the measured period / executions in it:
 * every table and index (executions, rollups, intelligence state rewritten in place, learnt hours, observations,
 * attributes, signals, correlations and events, outbox rows). SQLite: file size after the WAL is checkpointed (database
 * closed). PostgreSQL: sum of pg_total_relation_size over the public tables after a VACUUM (dead row versions of rows
 * rewritten in place are reused, not counted as growth).
 *
 * Usage: node bench/intelligence/stored-bytes.bench.ts [--dialect sqlite|postgres] [--warmup-min 90] [--minutes 60]
 *        [--monitors 1000] [--intelligence on|off|both]
 * PostgreSQL: TOCSIN_TEST_POSTGRES_URL (a database is created and dropped).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { ALL_MIGRATIONS } from '../../src/main.ts';
import { ExecutionsStore, type ExecutionRecord } from '../../src/modules/checks/executions/index.ts';
import { EventsService } from '../../src/modules/events/index.ts';
import { IntelligenceService, type IntelligenceCheck } from '../../src/modules/intelligence/index.ts';
import { createOrgs } from '../../src/modules/orgs/index.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { migrateToLatest, openDatabase, type Database } from '../../src/platform/db/index.ts';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const DIALECT = arg('dialect', 'sqlite');
const WARMUP_MIN = Number(arg('warmup-min', '90'));
const MINUTES = Number(arg('minutes', '60'));
const MONITORS = Number(arg('monitors', '1000'));
const MODES = arg('intelligence', 'both') === 'both' ? ['off', 'on'] : [arg('intelligence', 'both')];
const INTERVAL_MS = 20_000;
const BATCH = 100;
const T0 = Date.parse('2026-11-02T00:00:00.000Z');

interface Store {
  open(): Database;
  /** Bytes of the whole database, and per table/index. */
  size(db: Database): Promise<{ total: number; tables: Map<string, number> }>;
  drop(): Promise<void>;
  /** SQLite sizes are taken with the database closed (WAL checkpointed). */
  closedForSize: boolean;
}

async function sqliteStore(): Promise<Store> {
  const dir = mkdtempSync(join(tmpdir(), 'tocsin-stored-'));
  const path = join(dir, 'tocsin.db');
  return {
    closedForSize: true,
    open: () => openDatabase({ url: null, sqlitePath: path }),
    async size() {
      const total = [path, `${path}-wal`].reduce((s, p) => s + (existsSync(p) ? statSync(p).size : 0), 0);
      const { default: BetterSqlite3 } = await import('better-sqlite3');
      const raw = new BetterSqlite3(path, { readonly: true });
      const tables = new Map<string, number>();
      try {
        for (const r of raw.prepare('select name, sum(pgsize) as bytes from dbstat group by name').all() as Array<{
          name: string;
          bytes: number;
        }>)
          tables.set(r.name, r.bytes);
      } catch {
        // dbstat not compiled in: totals only
      }
      raw.close();
      return { total, tables };
    },
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

async function postgresStore(): Promise<Store> {
  const base = process.env.TOCSIN_TEST_POSTGRES_URL;
  if (!base) throw new Error('TOCSIN_TEST_POSTGRES_URL is not set');
  const name = `tocsin_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    closedForSize: false,
    open: () => openDatabase({ url: url.toString(), sqlitePath: '', poolSize: 2 }),
    async size(db) {
      const kysely = db.tables<unknown>();
      await sql`vacuum`.execute(kysely);
      const rows = await sql<{ name: string; bytes: string }>`
        select c.relname as name, pg_total_relation_size(c.oid) as bytes
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind = 'r'`.execute(kysely);
      const tables = new Map(rows.rows.map((r) => [r.name, Number(r.bytes)]));
      return { total: [...tables.values()].reduce((a, b) => a + b, 0), tables };
    },
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

async function run(mode: string): Promise<void> {
  const store = DIALECT === 'postgres' ? await postgresStore() : await sqliteStore();
  let db = store.open();
  await migrateToLatest(db, ALL_MIGRATIONS);
  const clock = new ManualClock(T0);
  const org = (
    await createOrgs({ database: db, clock, defaultPlan: 'team', defaultRegion: 'local' }).createOrganization({
      name: 'bench',
    })
  ).id;
  let seed = 11;
  const rnd = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  const monitors = Array.from({ length: MONITORS }, (_, m) => ({
    id: `mon_01k${String(m).padStart(23, '0')}`,
    base: 40 + Math.round(rnd() * 300),
    phase: Math.floor(rnd() * INTERVAL_MS),
  }));
  const executions = new ExecutionsStore();
  const newService = (database: Database) =>
    new IntelligenceService({
      database,
      clock,
      events: new EventsService({ database, clock }),
      monitors: { findManyAnywhere: async () => [] },
      incidents: null,
    });
  let intelligence = newService(db);

  function checksOfRound(round: number): Array<{ execution: ExecutionRecord; check: IntelligenceCheck }> {
    return monitors.map((m, i) => {
      const at = T0 + round * INTERVAL_MS + m.phase;
      const down = rnd() < 0.01;
      const total = Math.round(m.base * (0.9 + 0.2 * rnd()));
      const status = down ? 503 : 200;
      return {
        execution: {
          id: '',
          organizationId: org,
          monitorId: m.id,
          regionCode: 'eu-west',
          startedAt: at,
          status: down ? 'down' : 'up',
          durationMs: total,
          timings: { dns_ms: 1, connect_ms: 5, tls_ms: 20, ttfb_ms: total - 30, download_ms: 4, total_ms: total },
          httpStatus: status,
          assertions: [{ type: 'status', in: [200, 204], passed: !down, actual: status }],
          error: down ? { code: 'assertion_failed', message: 'status 503 not in [200, 204]' } : null,
          intervalSeconds: INTERVAL_MS / 1000,
        },
        check: {
          organizationId: org,
          monitorId: m.id,
          monitorName: m.id,
          target: `https://m${i}.example.com/`,
          type: 'http',
          regionCode: 'eu-west',
          at,
          up: !down,
          latencyMs: total,
          alertLatencyMs: null,
          openIncidents: false,
          details: {
            headers: {
              'content-type': 'text/html; charset=utf-8',
              'content-length': String(5000 + Math.round(rnd() * 100)),
              server: 'nginx',
              'cache-control': 'max-age=60',
              etag: `"${Math.round(rnd() * 1e9)}"`,
              'strict-transport-security': 'max-age=31536000',
              'x-frame-options': 'DENY',
              date: new Date(at).toUTCString(),
            },
            body_sha256: 'a'.repeat(64),
            remote_address: `192.0.2.${i % 200}`,
          },
        },
      };
    });
  }

  let executed = 0;
  async function runRounds(from: number, to: number): Promise<void> {
    for (let round = from; round < to; round++) {
      const items = checksOfRound(round).sort((a, b) => a.check.at - b.check.at);
      for (let start = 0; start < items.length; start += BATCH) {
        const batch = items.slice(start, start + BATCH);
        clock.set(batch[batch.length - 1]!.check.at);
        await db.transaction(async (tx) => {
          await executions.recordBatch(
            tx,
            batch.map((b) => b.execution),
          );
          if (mode === 'on')
            await intelligence.applyChecks(
              tx,
              batch.map((b) => b.check),
            );
        });
        executed += batch.length;
      }
    }
  }

  async function sizeNow() {
    if (!store.closedForSize) return store.size(db);
    await db.close();
    const s = await store.size(db);
    db = store.open();
    intelligence = newService(db);
    return s;
  }

  const perRound = 60_000 / INTERVAL_MS;
  const warmRounds = WARMUP_MIN * perRound;
  const cpu0 = process.cpuUsage();
  await runRounds(0, warmRounds);
  const before = await sizeNow();
  const executedBefore = executed;
  await runRounds(warmRounds, warmRounds + MINUTES * perRound);
  const after = await sizeNow();
  const n = executed - executedBefore;
  const cpu = process.cpuUsage(cpu0);
  console.log(
    `${DIALECT}, intelligence ${mode}: ${MONITORS} monitors / 20 s, warm-up ${WARMUP_MIN} min (${executedBefore} executions), ` +
      `measured ${MINUTES} min (${n} executions); CPU ${((cpu.user + cpu.system) / 1000 / executed).toFixed(3)} ms per execution overall`,
  );
  console.log(
    `  stored bytes per execution: ${((after.total - before.total) / n).toFixed(1)} B  (database ${before.total} → ${after.total} B)`,
  );
  const names = new Set([...before.tables.keys(), ...after.tables.keys()]);
  const growth = [...names]
    .map((name) => ({ name, bytes: (after.tables.get(name) ?? 0) - (before.tables.get(name) ?? 0) }))
    .filter((g) => g.bytes !== 0)
    .sort((a, b) => b.bytes - a.bytes);
  for (const g of growth)
    console.log(`    ${g.name.padEnd(40)} ${String(g.bytes).padStart(10)} B  ${(g.bytes / n).toFixed(1)} B/execution`);
  await db.close();
  await store.drop();
}

for (const mode of MODES) await run(mode);
