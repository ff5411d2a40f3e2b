/**
 * Cost of intelligence per check on SQLite: 1,000 http monitors checked every 20 s, each with a week of detector
 * state already learnt (hourly summaries and hour-of-week buckets), then N checks fed through
 * IntelligenceService.applyChecks in batches of 50 (one transaction each, as the engine's batches). Prints CPU ms
 * per check and the database growth per check (observations are stored only when they change; the state rows are
 * updated in place). Compare the CPU with the engine's CPU per check in docs/BENCHMARKS.md.
 * Usage: node bench/intelligence/intelligence.bench.ts [checks]
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_MIGRATIONS } from '../../src/main.ts';
import { EventsService } from '../../src/modules/events/index.ts';
import { IntelligenceService, type IntelligenceCheck } from '../../src/modules/intelligence/index.ts';
import { IntelligenceRepository } from '../../src/modules/intelligence/intelligence.repository.ts';
import { newLatencyState, observeCheck } from '../../src/modules/intelligence/latency.detector.ts';
import { newChangeState } from '../../src/modules/intelligence/change.detector.ts';
import { createOrgs } from '../../src/modules/orgs/index.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { migrateToLatest, openDatabase } from '../../src/platform/db/index.ts';

const N = Number(process.argv[2] ?? 100_000);
const MONITORS = 1000;
const INTERVAL_MS = 20_000;
const BATCH = 50;
const T0 = Date.parse('2026-11-02T00:00:00.000Z');

let seed = 7;
const rnd = () => (seed = (seed * 48271) % 2147483647) / 2147483647;

const dir = mkdtempSync(join(tmpdir(), 'tocsin-intel-'));
const path = join(dir, 'tocsin.db');
const sizeOf = () => [path, `${path}-wal`].reduce((s, p) => s + (existsSync(p) ? statSync(p).size : 0), 0);
const database = openDatabase({ url: null, sqlitePath: path });
await migrateToLatest(database, ALL_MIGRATIONS);
const clock = new ManualClock(T0);
const org = (
  await createOrgs({ database, clock, defaultPlan: 'team', defaultRegion: 'local' }).createOrganization({
    name: 'bench',
  })
).id;
const monitors = Array.from({ length: MONITORS }, (_, m) => ({
  id: `mon_01k${String(m).padStart(23, '0')}`,
  base: 40 + Math.round(rnd() * 300),
}));
const service = new IntelligenceService({
  database,
  clock,
  events: new EventsService({ database, clock }),
  monitors: { findManyAnywhere: async () => [] },
  incidents: null,
});

// A week of learnt state per monitor (every 10 minutes is enough to fill the hourly summaries and buckets).
const weekAgo = T0 - 8 * 86_400_000;
await database.transaction(async (tx) => {
  const repo = new IntelligenceRepository(tx);
  for (const m of monitors) {
    const latency = newLatencyState();
    for (let at = weekAgo; at < T0; at += 600_000)
      observeCheck(latency, { at, up: true, latencyMs: m.base * (0.9 + 0.2 * rnd()) }, 1000);
    await repo.saveState(
      { monitorId: m.id, regionCode: 'eu-west' },
      { latency, changes: newChangeState(), snapshotDigest: null },
      T0,
    );
  }
});
await database.close();
const newService = () =>
  new IntelligenceService({
    database: db,
    clock,
    events: new EventsService({ database: db, clock }),
    monitors: { findManyAnywhere: async () => [] },
    incidents: null,
  });
let db = openDatabase({ url: null, sqlitePath: path });
let svc = newService();
void service;

function checkOf(i: number): IntelligenceCheck {
  const m = monitors[i % MONITORS]!;
  const at = T0 + Math.floor(i / MONITORS) * INTERVAL_MS + (i % MONITORS) * (INTERVAL_MS / MONITORS);
  const up = rnd() > 0.01;
  return {
    organizationId: org,
    monitorId: m.id,
    monitorName: m.id,
    target: `https://m${i % MONITORS}.example.com/`,
    type: 'http',
    regionCode: 'eu-west',
    at,
    up,
    latencyMs: m.base * (0.9 + 0.2 * rnd()),
    alertLatencyMs: 1000,
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
  };
}

// Warm-up: one check per monitor moves the seeded state into its hot and learnt rows (not measured).
for (let start = 0; start < MONITORS; start += BATCH) {
  const batch = Array.from({ length: BATCH }, (_, k) => checkOf(start + k));
  await db.transaction((tx) => svc.applyChecks(tx, batch));
}
await db.close();
const before = sizeOf();
db = openDatabase({ url: null, sqlitePath: path });
svc = newService();
let cpu = 0;
const wall0 = performance.now();
for (let start = MONITORS; start < MONITORS + N; start += BATCH) {
  const batch = Array.from({ length: Math.min(BATCH, MONITORS + N - start) }, (_, k) => checkOf(start + k));
  clock.set(batch[batch.length - 1]!.at);
  const c0 = process.cpuUsage();
  await db.transaction((tx) => svc.applyChecks(tx, batch));
  const c = process.cpuUsage(c0);
  cpu += c.user + c.system;
}
const wall = performance.now() - wall0;
await db.close();
const after = sizeOf();
console.log(
  `checks: ${N} after a warm-up round (${MONITORS} http monitors, 20 s, 1 % failures), batches of ${BATCH}, a week of state each`,
);
console.log(`intelligence CPU: ${(cpu / 1000 / N).toFixed(3)} ms per check (wall ${(wall / N).toFixed(3)} ms)`);
console.log(`database growth: ${after - before} B = ${((after - before) / N).toFixed(1)} B per check`);
rmSync(dir, { recursive: true, force: true });
