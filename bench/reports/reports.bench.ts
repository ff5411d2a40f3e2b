/**
 * Reports at scale (issue 13 item 7): `tocsin demo`'s generator writes N monitors × D days of history through the
 * check engine (cached between runs: /tmp/tocsin-bench-reports/<key>/ for SQLite, database tocsin_bench_reports_<key>
 * for PostgreSQL), then this times over HTTP (app.inject, auth included):
 *   - availability and performance JSON (and PDF when the renderer answers format=pdf) over the whole history, in
 *     UTC, Europe/Berlin and America/New_York (non-UTC days are the slow path);
 *   - the SLA report (the demo's 2 targets plus --sla-targets − 2 more);
 *   - lateness of a running check engine (--lateness-monitors http monitors every 10 s against loopback servers in a
 *     child process, run by a CheckRunner in this process, as in `tocsin serve`) without, then with, reports being
 *     generated in a loop.
 * Usage: node bench/reports/reports.bench.ts [--dialect sqlite|postgres] [--monitors 1000] [--days 90]
 *        [--interval 3600] [--intelligence off|on] [--sla-targets 100] [--runs 3] [--lateness-seconds 40]
 *        [--lateness-monitors 300] [--report-workers 1] [--reseed]
 * --report-workers: the `reports.workers` setting (0: reports built on the main thread, as before they had threads);
 * --warm: start the report threads first (`tocsin serve` no longer does: the first request starts them, as without it);
 * --first-pdf: time the availability PDF (Europe/Berlin) as the first request of the process, then go on as usual;
 * --only REGEX: time only the reports whose printed label matches (e.g. "performance json America").
 * The default interval (one check an hour) keeps seeding 1,000 × 90 days at 2.2 M checks: every hourly and daily
 * rollup row a report reads exists, as at any interval; only the sketches hold fewer distinct latencies.
 * PostgreSQL: TOCSIN_TEST_POSTGRES_URL or DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres).
 */
import { fork } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { loadConfig } from '../../src/config/index.ts';
import { createTocsin } from '../../src/main.ts';
import { SCOPES } from '../../src/modules/auth/index.ts';
import {
  CheckRunner,
  createProbeRegistry,
  DayPrefixesCompactor,
  LocalWorkSource,
} from '../../src/modules/checks/index.ts';
import { systemClock } from '../../src/platform/clock.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { demoHistoryPlace, saveMeta, seedDemoHistory } from '../support/demo-history.ts';

const { values: args } = parseArgs({
  options: {
    dialect: { type: 'string', default: 'sqlite' },
    monitors: { type: 'string', default: '1000' },
    days: { type: 'string', default: '90' },
    interval: { type: 'string', default: '3600' },
    intelligence: { type: 'string', default: 'off' },
    'sla-targets': { type: 'string', default: '100' },
    runs: { type: 'string', default: '3' },
    'lateness-seconds': { type: 'string', default: '40' },
    'lateness-monitors': { type: 'string', default: '300' },
    reseed: { type: 'boolean', default: false },
    'no-migrate': { type: 'boolean', default: false },
    'skip-lateness': { type: 'boolean', default: false },
    'report-workers': { type: 'string', default: '1' },
    warm: { type: 'boolean', default: false },
    'first-pdf': { type: 'boolean', default: false },
    /** Only the reports whose label (as printed, e.g. "performance json America/New_York") matches this regex. */
    only: { type: 'string' },
  },
});
const dialect = args.dialect === 'postgres' ? 'postgres' : 'sqlite';
const MONITORS = Number(args.monitors);
const DAYS = Number(args.days);
const INTERVAL = Number(args.interval);
const SLA_TARGETS = Number(args['sla-targets']);
const RUNS = Number(args.runs);
const LATENESS_MS = Number(args['lateness-seconds']) * 1000;
const LATENESS_MONITORS = Number(args['lateness-monitors']);

const INTELLIGENCE = args.intelligence === 'on';
const key = `m${MONITORS}-d${DAYS}-i${INTERVAL}-t${SLA_TARGETS}${INTELLIGENCE ? '-intel' : ''}`;
const root = '/tmp/tocsin-bench-reports';
const dataDir = join(root, `${key}-${dialect}`);
const logger = createLogger({ level: 'warn', pretty: false, destination: process.stderr });

interface Meta {
  organization_id: string;
  api_key: string;
  from: string;
  to: string;
  checks: number;
  seed_seconds: number;
}

const place = demoHistoryPlace(dialect, dataDir, `tocsin_bench_reports_${key.replace(/-/g, '_')}`);
const { env, pgUrl } = place;

async function seed(): Promise<Meta> {
  const { result, seedSeconds } = await seedDemoHistory(
    place,
    writeConfig,
    {
      monitors: MONITORS,
      days: DAYS,
      intervalSeconds: INTERVAL,
      extraSlaTargets: Math.max(0, SLA_TARGETS - 2),
      organizationName: 'Bench demo',
      email: 'bench@example.com',
      progress: (done, total) => {
        if (done % 5000 === 0) process.stderr.write(`seed: ${Math.round((100 * done) / total)} %\n`);
      },
    },
    logger,
    async (_tocsin, demo) => ({
      organization_id: demo.organization_id,
      api_key: demo.api_key,
      from: demo.from,
      to: demo.to,
      checks: demo.checks,
    }),
  );
  const meta: Meta = { ...result, seed_seconds: seedSeconds };
  saveMeta(place, meta);
  return meta;
}

function writeConfig(): void {
  writeFileSync(
    env.TOCSIN_CONFIG!,
    JSON.stringify({
      regions: ['local', 'bench'],
      // Off by default: seeding is faster, and reports read intelligence only for the performance report's anomalies.
      intelligence: { enabled: INTELLIGENCE },
      plans: { enterprise: { interval_floor_seconds: 1, monitors: null } },
      reports: { workers: Number(args['report-workers']) },
    }),
  );
}

const pct = (sorted: number[], p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const r1 = (v: number) => Math.round(v * 10) / 10;

let meta: Meta;
if (!args.reseed && existsSync(place.metaPath)) {
  meta = JSON.parse(readFileSync(place.metaPath, 'utf8')) as Meta;
  writeConfig();
  console.log(`using the cached history in ${pgUrl ? new URL(pgUrl).pathname.slice(1) : dataDir}`);
} else {
  meta = await seed();
  console.log(
    `seeded ${MONITORS} monitors × ${DAYS} days (${meta.checks} checks every ${INTERVAL} s) in ${meta.seed_seconds} s`,
  );
}

const tocsin = await createTocsin(loadConfig({ env, isTty: false }), {
  logger,
  clock: systemClock,
  background: false,
  // --no-migrate: measure an older checkout against a history cached by a newer one.
  migrate: !args['no-migrate'],
});
{
  // What a running service has done by the time anyone asks for a report: its compactor gave every closed UTC day
  // its prefix sums (the first pass after seeding or an upgrade goes through the whole history), and on PostgreSQL
  // autovacuum (off on the bench's server) cleaned and analyzed the rollup tables the seeding rewrote.
  const t0 = performance.now();
  const days = await new DayPrefixesCompactor({ database: tocsin.database, clock: systemClock }).compactOnce();
  const compactMs = performance.now() - t0;
  const t1 = performance.now();
  if (dialect === 'postgres')
    await sql`vacuum analyze execution_rollup, execution_rollup_day`.execute(tocsin.database.tables<unknown>());
  console.log(
    `prefix sums given to ${days} closed days in ${Math.round(compactMs)} ms; vacuum analyze ${Math.round(performance.now() - t1)} ms`,
  );
}
if (args.warm) {
  const t0 = performance.now();
  await tocsin.services.reportRenderer.warm();
  console.log(`report threads warmed in ${Math.round(performance.now() - t0)} ms`);
}
const headers = { authorization: `Bearer ${meta.api_key}` };
const range = `from=${meta.from}&to=${meta.to}`;

async function timeOne(url: string): Promise<{ ms: number; cpuMs: number; status: number; bytes: number }> {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const res = await tocsin.app.inject({ method: 'GET', url, headers });
  const c = process.cpuUsage(c0);
  return {
    ms: performance.now() - t0,
    // This process's CPU (user + system) for the request: what a quiet machine would take, SQLite included.
    cpuMs: (c.user + c.system) / 1000,
    status: res.statusCode,
    bytes: res.rawPayload.length,
  };
}

const rows: string[] = [];
const only = args.only ? new RegExp(args.only) : null;
async function measure(label: string, url: string): Promise<void> {
  if (only && !only.test(label)) return;
  const samples: number[] = [];
  const cpu: number[] = [];
  let status = 0;
  let bytes = 0;
  for (let i = 0; i < RUNS; i++) {
    const r = await timeOne(url);
    status = r.status;
    bytes = r.bytes;
    if (status !== 200) break;
    samples.push(r.ms);
    cpu.push(r.cpuMs);
  }
  if (status !== 200) {
    rows.push(`| ${label} | answered ${status} | | | |`);
    console.log(`${label}: answered ${status}`);
    return;
  }
  const sorted = [...samples].sort((a, b) => a - b);
  const cpuSorted = [...cpu].sort((a, b) => a - b);
  const line = `| ${label} | ${r1(samples[0]!)} | ${r1(pct(sorted, 50))} | ${r1(pct(cpuSorted, 50))} | ${Math.round(bytes / 1024)} KiB |`;
  rows.push(line);
  console.log(line);
}

console.log(
  `\n${dialect}, ${MONITORS} monitors × ${DAYS} days, ${RUNS} runs each (first, median), report workers ${args['report-workers']}`,
);
console.log(
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
if (args['first-pdf']) {
  const r = await timeOne(`/api/v1/reports/availability?${range}&timezone=Europe/Berlin&format=pdf`);
  console.log(
    `first request of the process, availability PDF Europe/Berlin: ${r.status}, ${r1(r.ms)} ms wall, ${r1(r.cpuMs)} ms CPU${args.warm ? ' (threads warmed before)' : ''}`,
  );
}
console.log('| report | first ms | median ms | median CPU ms | size |');
for (const tz of ['UTC', 'Europe/Berlin', 'America/New_York']) {
  for (const report of ['availability', 'performance']) {
    await measure(`${report} json ${tz}`, `/api/v1/reports/${report}?${range}&timezone=${tz}`);
  }
}
for (const report of ['availability', 'performance']) {
  await measure(`${report} pdf Europe/Berlin`, `/api/v1/reports/${report}?${range}&timezone=Europe/Berlin&format=pdf`);
}
await measure(`sla json (${SLA_TARGETS} targets) UTC`, `/api/v1/reports/sla?${range}`);
await measure(`sla json (${SLA_TARGETS} targets) Europe/Berlin`, `/api/v1/reports/sla?${range}&timezone=Europe/Berlin`);

if (args['skip-lateness']) {
  await tocsin.close();
  process.exit(0);
}

// Lateness of a running engine, without and with reports being generated.
const targets = fork(new URL('../engine/targets.child.ts', import.meta.url), ['4'], { stdio: 'inherit' });
const { ports } = await new Promise<{ ports: number[] }>((resolve) =>
  targets.once('message', (m) => resolve(m as { ports: number[] })),
);
const org = await tocsin.services.orgs.createOrganization({ name: 'lateness', plan: 'enterprise' });
const user = await tocsin.services.orgs.ensureUser({ email: 'lateness@example.com' });
await tocsin.services.orgs.addMember(org.id, user.id, 'owner');
const key2 = await tocsin.services.auth.issueKey({
  organizationId: org.id,
  name: 'lateness',
  scopes: [...SCOPES],
  environments: ['production'],
  userId: user.id,
  createdBy: user.id,
});
const actor = (await tocsin.services.auth.authenticate(key2.key))!;
const ctx = { actor, db: tocsin.database, clock: systemClock };
const engineMonitors: string[] = [];
for (let i = 0; i < LATENESS_MONITORS; i++) {
  const m = await tocsin.services.monitors.create(ctx, {
    name: `lateness ${i}`,
    target: `http://127.0.0.1:${ports[i % ports.length]}/`,
    interval_seconds: 10,
    region_codes: ['bench'],
  });
  engineMonitors.push(m.id);
}
let phase: 'warmup' | 'quiet' | 'reports' | 'done' = 'warmup';
const lateness: Record<'quiet' | 'reports', number[]> = { quiet: [], reports: [] };
const runner = new CheckRunner({
  source: new LocalWorkSource(tocsin.services.checks.engine, 'bench-reports', ['bench']),
  probes: createProbeRegistry(),
  clock: systemClock,
  logger,
  concurrency: 100,
  allowPrivateTargets: true,
  onResult: (check, o) => {
    if (phase === 'quiet' || phase === 'reports') lateness[phase].push(o.started_at - check.dueAt);
  },
});
runner.start();
await new Promise((r) => setTimeout(r, 15_000));
// How long the main thread's event loop could not turn, per phase (what the engine's timers and I/O wait for).
const loopDelay: Record<'quiet' | 'reports', ReturnType<typeof monitorEventLoopDelay>> = {
  quiet: monitorEventLoopDelay({ resolution: 10 }),
  reports: monitorEventLoopDelay({ resolution: 10 }),
};
phase = 'quiet';
loopDelay.quiet.enable();
await new Promise((r) => setTimeout(r, LATENESS_MS));
phase = 'reports';
loopDelay.quiet.disable();
loopDelay.reports.enable();
const until = Date.now() + LATENESS_MS;
let generated = 0;
const loopUrls = [
  `/api/v1/reports/availability?${range}&timezone=Europe/Berlin`,
  `/api/v1/reports/performance?${range}&timezone=Europe/Berlin`,
  `/api/v1/reports/sla?${range}`,
];
while (Date.now() < until) {
  await timeOne(loopUrls[generated % loopUrls.length]!);
  generated++;
  // Requests arrive one by one: the event loop turns between them, as between two HTTP requests.
  await new Promise((r) => setImmediate(r));
}
phase = 'done';
loopDelay.reports.disable();
await runner.stop();
targets.kill();
for (const id of engineMonitors) await tocsin.services.monitors.delete(ctx, id);

console.log(
  `\nengine: ${LATENESS_MONITORS} http monitors every 10 s on loopback, ${LATENESS_MS / 1000} s per phase; lateness ms`,
);
console.log('| phase | checks | p50 | p99 | max | main event loop delay p99 / max ms |');
for (const p of ['quiet', 'reports'] as const) {
  const s = [...lateness[p]].sort((a, b) => a - b);
  const d = loopDelay[p];
  console.log(
    `| ${p} | ${s.length} | ${pct(s, 50)} | ${pct(s, 99)} | ${s[s.length - 1]} | ${r1(d.percentile(99) / 1e6)} / ${r1(d.max / 1e6)} |`,
  );
}
console.log(`reports generated during the reports phase: ${generated}`);
console.log(
  `RSS ${Math.round(process.memoryUsage().rss / 1048576)} MiB; load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
await tocsin.close();
process.exit(0);
