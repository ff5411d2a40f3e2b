/**
 * Bytes stored per execution on SQLite: N realistic executions (default 200,000) written through
 * ExecutionsStore.recordBatch in batches of 100 (one transaction each, as the engine does), then the
 * database is closed (WAL checkpointed and removed) and the growth of the file is divided by N.
 * Also prints CPU ms per execution of recordBatch and a per-table breakdown (dbstat).
 * Usage: node bench/storage/execution-bytes.bench.ts [executions]
 */
import { mkdtempSync, rmSync, statSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { ALL_MIGRATIONS } from '../../src/main.ts';
import { ExecutionsStore, type ExecutionRecord } from '../../src/modules/checks/executions/index.ts';
import { migrateToLatest, openDatabase } from '../../src/platform/db/index.ts';

const N = Number(process.argv[2] ?? 200_000);
const BATCH = 100;
const MONITORS = Number(process.env.BENCH_MONITORS ?? 1000);
const INTERVAL_MS = 30_000;

let seed = 42;
const rnd = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
const between = (a: number, b: number) => Math.round(a + rnd() * (b - a));

const dir = mkdtempSync(join(tmpdir(), 'tocsin-bytes-'));
const path = join(dir, 'tocsin.db');
const sizeOf = () => [path, `${path}-wal`].reduce((s, p) => s + (existsSync(p) ? statSync(p).size : 0), 0);

const database = openDatabase({ url: null, sqlitePath: path });
await migrateToLatest(database, ALL_MIGRATIONS);
await database.close();
const baseline = sizeOf();

// 1,000 monitors; 70% checked from one region, 30% from three: 1,600 series at 30 s.
const series: Array<{ monitorId: string; regionCode: string; phase: number; slowness: number }> = [];
for (let m = 0; m < MONITORS; m++) {
  const monitorId = `mon_01k${String(m).padStart(23, '0')}`;
  const regions = m % 10 < 7 ? ['eu-west'] : ['eu-west', 'us-east', 'ap-south'];
  for (const regionCode of regions)
    series.push({ monitorId, regionCode, phase: between(0, INTERVAL_MS - 1), slowness: between(40, 400) });
}

function executionFor(s: (typeof series)[number], startedAt: number): ExecutionRecord {
  const down = rnd() < 0.01;
  const dns = between(0, 4);
  const connect = between(1, 30);
  const tls = between(8, 60);
  const ttfb = Math.round(s.slowness * (0.8 + rnd() * 0.4));
  const download = between(0, 15);
  const total = dns + connect + tls + ttfb + download;
  const status = down ? 503 : 200;
  return {
    id: '',
    organizationId: 'org_01kaaaaaaaaaaaaaaaaaaaaaaa',
    monitorId: s.monitorId,
    regionCode: s.regionCode,
    startedAt,
    status: down ? 'down' : 'up',
    durationMs: total,
    timings: { dns_ms: dns, connect_ms: connect, tls_ms: tls, ttfb_ms: ttfb, download_ms: download, total_ms: total },
    httpStatus: status,
    assertions: [{ type: 'status', in: [200, 204], passed: !down, actual: status }],
    error: down ? { code: 'assertion_failed', message: 'status 503 not in [200, 204]' } : null,
    intervalSeconds: INTERVAL_MS / 1000,
  };
}

const db = openDatabase({ url: null, sqlitePath: path });
const store = new ExecutionsStore();
const start = Date.parse('2026-06-01T00:00:00.000Z');
let written = 0;
let cpuMicros = 0;
let pending: ExecutionRecord[] = [];
for (let round = 0; written < N; round++) {
  for (const s of series) {
    if (written >= N) break;
    pending.push(executionFor(s, start + round * INTERVAL_MS + s.phase));
    written++;
    if (pending.length === BATCH) {
      const before = process.cpuUsage();
      const batch = pending;
      await db.transaction((tx) => store.recordBatch(tx, batch));
      const used = process.cpuUsage(before);
      cpuMicros += used.user + used.system;
      pending = [];
    }
  }
}
if (pending.length > 0) await db.transaction((tx) => store.recordBatch(tx, pending));
const walBeforeClose = sizeOf();
await db.close(); // checkpoints the WAL into the file and removes it
const final = sizeOf();

const raw = new BetterSqlite3(path, { readonly: true });
const freePages =
  (raw.pragma('freelist_count', { simple: true }) as number) * (raw.pragma('page_size', { simple: true }) as number);
let breakdown: Array<{ name: string; bytes: number }> = [];
try {
  breakdown = raw
    .prepare('select name, sum(pgsize) as bytes from dbstat group by name order by bytes desc')
    .all() as typeof breakdown;
} catch {
  // dbstat not compiled in
}
raw.close();

const perExecution = (final - baseline) / N;
console.log(
  `executions: ${N} in batches of ${BATCH}; ${series.length} series (${MONITORS} monitors), 30 s interval, 1% failures`,
);
console.log(
  `database before: ${baseline} B; file+WAL at the end, before checkpoint: ${walBeforeClose} B; after checkpoint: ${final} B (free pages ${freePages} B)`,
);
console.log(`bytes per execution (all tables and indexes, rollups included): ${perExecution.toFixed(1)}`);
console.log(`recordBatch CPU: ${(cpuMicros / 1000 / N).toFixed(3)} ms per execution`);
for (const t of breakdown.filter((b) => b.bytes > 8192))
  console.log(`  ${t.name.padEnd(28)} ${String(t.bytes).padStart(12)} B  ${(t.bytes / N).toFixed(1)} B/execution`);
rmSync(dir, { recursive: true, force: true });
