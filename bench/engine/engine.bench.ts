/**
 * Check-engine benchmark (issue 4, (b) and (c)).
 *   node bench/engine/engine.bench.ts [--monitors 10000] [--minutes 5] [--interval 30] [--dialect sqlite|postgres] [--processes 1|2] [--mode serve|runner] [--intelligence on|off]
 * Targets run in one child process, the service in one or more others; this process only sets up the database
 * and reads the figures. `--mode serve` (default): real `tocsin serve` processes, measured through /proc, lateness
 * and duplicates read back from the stored executions. `--mode runner`: only the in-process runner's code path
 * (scheduler + runner + storage) in an instrumented child, for profiles and the storage/engine split.
 * PostgreSQL: DATABASE_URL or TOCSIN_TEST_POSTGRES_URL (a fresh database is created for the run).
 */
import { SERVICE_NODE_FLAGS } from '../support/service-flags.ts';
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { loadConfig } from '../../src/config/index.ts';
import { createTocsin } from '../../src/main.ts';
import { SCOPES } from '../../src/modules/auth/index.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { runServeProcesses, type ServeRun } from './serve.processes.ts';
import { slotsFromExecutions } from './slots.from-executions.ts';

const { values: args } = parseArgs({
  options: {
    monitors: { type: 'string', default: '10000' },
    minutes: { type: 'string', default: '5' },
    interval: { type: 'string', default: '30' },
    dialect: { type: 'string', default: 'sqlite' },
    processes: { type: 'string' },
    targets: { type: 'string', default: '4' },
    concurrency: { type: 'string', default: '200' },
    mode: { type: 'string', default: 'serve' },
    intelligence: { type: 'string', default: 'on' },
    'warm-seconds': { type: 'string' },
  },
});
const monitors = Number(args.monitors);
const windowMs = Number(args.minutes) * 60_000;
const intervalS = Number(args.interval);
const dialect = args.dialect as 'sqlite' | 'postgres';
const processes = Number(args.processes ?? (dialect === 'postgres' ? 2 : 1));
// Before the window: every monitor checked at least once (one interval and 10 s), or --warm-seconds.
const warmMs = args['warm-seconds'] === undefined ? intervalS * 1000 + 10_000 : Number(args['warm-seconds']) * 1000;
const mode = args.mode as 'serve' | 'runner';
if (args.intelligence !== 'on' && args.intelligence !== 'off') throw new Error('--intelligence is on or off');
if (mode !== 'serve' && mode !== 'runner') throw new Error('--mode is serve or runner');
// The service runs with the flags `npm start` and bin/tocsin.js use; BENCH_NODE_FLAGS replaces them ('' = V8 defaults).
const nodeFlags = [
  '--max-old-space-size=512',
  ...(process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? SERVICE_NODE_FLAGS),
  ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
];

function once<T>(child: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve(m as T));
    child.once('exit', (code) => reject(new Error(`child exited with ${code}`)));
  });
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

const dataDir = mkdtempSync(join(tmpdir(), 'tocsin-bench-engine-'));
const configPath = join(dataDir, 'tocsin.json');
writeFileSync(
  configPath,
  JSON.stringify({
    plans: { enterprise: { interval_floor_seconds: 1, monitors: null } },
    scheduler: { concurrency: Number(args.concurrency), lease_seconds: 30 },
    intelligence: { enabled: args.intelligence === 'on' },
  }),
);
const env: Record<string, string> = {
  ...(process.env as Record<string, string>),
  TOCSIN_DATA_DIR: dataDir,
  TOCSIN_CONFIG: configPath,
  LOG_LEVEL: 'warn',
  NODE_ENV: 'production',
};
let pgName: string | null = null;
if (dialect === 'postgres') {
  const base =
    process.env.DATABASE_URL ?? process.env.TOCSIN_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  pgName = `tocsin_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${pgName}`);
  await admin.end();
  const u = new URL(base);
  u.pathname = `/${pgName}`;
  env.DATABASE_URL = u.toString();
} else {
  delete env.DATABASE_URL;
}

// Targets.
const targets = fork(new URL('./targets.child.ts', import.meta.url), [args.targets], { stdio: 'inherit' });
const { ports } = await once<{ ports: number[] }>(targets);

// Database and monitors.
const config = loadConfig({ env, isTty: false });
const setup = await createTocsin(config, { logger: createLogger({ level: 'warn', pretty: false }), background: false });
const org = await setup.services.orgs.createOrganization({ name: 'bench', plan: 'enterprise' });
const user = await setup.services.orgs.ensureUser({ email: 'bench@example.com' });
await setup.services.orgs.addMember(org.id, user.id, 'owner');
const key = await setup.services.auth.issueKey({
  organizationId: org.id,
  name: 'bench',
  scopes: [...SCOPES],
  environments: ['production'],
  userId: user.id,
  createdBy: user.id,
});
const actor = (await setup.services.auth.authenticate(key.key))!;
const t0 = Date.now();
for (let i = 0; i < monitors; i++) {
  await setup.services.monitors.create(
    { actor, db: setup.database, clock: setup.clock },
    {
      target: `http://127.0.0.1:${ports[i % ports.length]}/m/${i}`,
      interval_seconds: intervalS,
      name: `bench ${i}`,
    },
  );
}
process.stderr.write(`created ${monitors} monitors in ${Date.now() - t0} ms\n`);
const db = setup.database.tables<unknown>();
const countExecutions = async () =>
  Number((await sql<{ n: string | number }>`select count(*) as n from execution`.execute(db)).rows[0]!.n);
const sqlitePath = join(dataDir, 'tocsin.db');
const fileBytes = () =>
  dialect === 'sqlite'
    ? [sqlitePath, `${sqlitePath}-wal`].reduce((a, p) => a + (existsSync(p) ? statSync(p).size : 0), 0)
    : 0;
const pgBytes = async (on: typeof db) =>
  dialect === 'postgres'
    ? Number((await sql<{ n: string }>`select pg_database_size(current_database()) as n`.execute(on)).rows[0]!.n)
    : 0;
const exe0 = await countExecutions();
const pgSize0 = await pgBytes(db);
await setup.close();
const bytes0 = dialect === 'sqlite' ? fileBytes() : 0;

// Service processes.
interface Report {
  owner: string;
  windowMs: number;
  checksInWindow: number;
  cpuMs: number;
  rssAvg: number;
  rssMax: number;
  heapAvg?: number;
  loopDelayP99Ms?: number;
  loopDelayMaxMs?: number;
  lateness: number[];
  keys: string[];
}
let reports: Report[];
let serveRun: ServeRun | null = null;
if (mode === 'serve') {
  serveRun = await runServeProcesses({ count: processes, env, nodeFlags, warmMs, windowMs });
  reports = serveRun.processes.map((p) => ({
    owner: `serve pid ${p.pid}`,
    windowMs,
    checksInWindow: 0,
    cpuMs: p.cpuMs,
    rssAvg: p.rssAvgBytes,
    rssMax: p.rssMaxBytes,
    lateness: [],
    keys: [],
  }));
} else {
  const children = Array.from({ length: processes }, (_, i) =>
    fork(new URL('./service.child.ts', import.meta.url), [], {
      env: { ...env, BENCH_WARM_MS: String(warmMs), BENCH_WINDOW_MS: String(windowMs), BENCH_OWNER: `bench_${i}` },
      stdio: 'inherit',
      execArgv: nodeFlags,
    }),
  );
  reports = await Promise.all(children.map((c) => once<Report>(c)));
}
targets.disconnect();

const after = await createTocsin(config, {
  logger: createLogger({ level: 'warn', pretty: false }),
  background: false,
  migrate: false,
});
const exe1 = Number(
  (await sql<{ n: string | number }>`select count(*) as n from execution`.execute(after.database.tables<unknown>()))
    .rows[0]!.n,
);
const pgSize = await pgBytes(after.database.tables<unknown>());
const fromExecutions = serveRun
  ? await slotsFromExecutions(
      after.database.tables<unknown>(),
      intervalS * 1000,
      serveRun.windowStart,
      serveRun.windowEnd,
    )
  : null;
await after.close();
const bytes1 = dialect === 'sqlite' ? fileBytes() : pgSize;

let lateness: number[];
let duplicates: number;
let slotsRun: number;
let checks: number;
if (fromExecutions) {
  ({ lateness, duplicateSlots: duplicates, slotsRun, checksInWindow: checks } = fromExecutions);
} else {
  lateness = reports.flatMap((r) => r.lateness).sort((a, b) => a - b);
  const seen = new Map<string, number>();
  for (const r of reports) for (const k of r.keys) seen.set(k, (seen.get(k) ?? 0) + 1);
  duplicates = [...seen.values()].filter((n) => n > 1).length;
  slotsRun = seen.size;
  checks = reports.reduce((a, r) => a + r.checksInWindow, 0);
}
const cpuMs = reports.reduce((a, r) => a + r.cpuMs, 0);
const result = {
  machine: `${cpus().length} × ${cpus()[0]?.model ?? '?'}`,
  load_average_at_end: loadavg().map((x) => +x.toFixed(2)),
  node: process.version,
  date: new Date().toISOString(),
  dialect,
  mode,
  intelligence: args.intelligence,
  processes,
  monitors,
  interval_seconds: intervalS,
  window_seconds: windowMs / 1000,
  checks_in_window: checks,
  checks_per_second: +(checks / (windowMs / 1000)).toFixed(1),
  expected_checks_per_second: +(monitors / intervalS).toFixed(1),
  lateness_ms: {
    p50: pct(lateness, 50),
    p90: pct(lateness, 90),
    p99: pct(lateness, 99),
    max: lateness[lateness.length - 1],
  },
  cpu_ms_per_check: +(cpuMs / checks).toFixed(3),
  cpu_percent_of_one_core: +((cpuMs / windowMs) * 100).toFixed(1),
  rss_mib: reports.map((r) => ({
    owner: r.owner,
    cpu_ms: Math.round(r.cpuMs),
    avg: Math.round(r.rssAvg / 2 ** 20),
    max: Math.round(r.rssMax / 2 ** 20),
    heap_used_avg: r.heapAvg === undefined ? undefined : Math.round(r.heapAvg / 2 ** 20),
    event_loop_delay_p99_ms: r.loopDelayP99Ms,
    event_loop_delay_max_ms: r.loopDelayMaxMs,
  })),
  executions_stored: exe1 - exe0,
  bytes_per_execution: dialect === 'sqlite' ? +((bytes1 - bytes0) / (exe1 - exe0)).toFixed(1) : null,
  postgres_database_growth_bytes_per_execution:
    dialect === 'postgres' ? +((pgSize - pgSize0) / (exe1 - exe0)).toFixed(1) : null,
  duplicate_slot_executions: duplicates,
  slots_run: slotsRun,
};
console.log(JSON.stringify(result, null, 2));
if (pgName) {
  const admin = new pg.Client({
    connectionString:
      process.env.DATABASE_URL ?? process.env.TOCSIN_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${pgName} WITH (FORCE)`);
  await admin.end();
}
process.exit(0);
