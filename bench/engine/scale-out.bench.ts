/**
 * Scale-out benchmark (issue 18, item 2), PostgreSQL only.
 *   node bench/engine/scale-out.bench.ts [--monitors 3000] [--interval 10] [--delay-ms 200] [--concurrency 10]
 *     [--flapping 20] [--flap-seconds 20] [--warm 40] [--window 90]
 * The same database and the same load are run twice: (a) ONE `tocsin serve`, (b) two `tocsin serve` plus two
 * `tocsin runner` (each runner long-polls one of the serve processes; every process serves the same region).
 * The targets (a child process) answer after `--delay-ms`, so one check holds one of a process's `--concurrency`
 * slots for at least that long: a process can run at most concurrency / delay checks per second whatever its CPU, and
 * the load (monitors / interval) is set above that, so (a) is saturated. Rate = executions stored with a start in the
 * window ÷ window. `--flapping` more monitors go down and up every `--flap-seconds` against a webhook destination;
 * the receiver (this process) counts deliveries per event id. Duplicates: (monitor, region, slot) run twice
 * (slots.from-executions.ts) and runs of one monitor that overlap in time (two holders of one lease at once).
 * CPU per process from /proc over the window, and the whole machine's busy share (/proc/stat) to tell a CPU limit.
 */
import { SERVICE_NODE_FLAGS } from '../support/service-flags.ts';
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { loadConfig } from '../../src/config/index.ts';
import { createTocsin } from '../../src/main.ts';
import { SCOPES } from '../../src/modules/auth/index.ts';
import { createLogger } from '../../src/platform/logger.ts';
import {
  cpuMsOf,
  deliveryFigures,
  machineTicks,
  startReceiver,
  startRunner,
  startServe,
  stopAll,
  type Proc,
} from './scale-out.processes.ts';
import { slotsFromExecutions } from './slots.from-executions.ts';

const { values: args } = parseArgs({
  options: {
    monitors: { type: 'string', default: '3000' },
    interval: { type: 'string', default: '10' },
    'delay-ms': { type: 'string', default: '200' },
    concurrency: { type: 'string', default: '10' },
    flapping: { type: 'string', default: '20' },
    'flap-seconds': { type: 'string', default: '20' },
    warm: { type: 'string', default: '40' },
    window: { type: 'string', default: '90' },
  },
});
const monitors = Number(args.monitors);
const intervalS = Number(args.interval);
const delayMs = Number(args['delay-ms']);
const concurrency = Number(args.concurrency);
const flapping = Number(args.flapping);
const warmMs = Number(args.warm) * 1000;
const windowMs = Number(args.window) * 1000;
const nodeFlags = ['--max-old-space-size=512', ...SERVICE_NODE_FLAGS];

const pgBase =
  process.env.DATABASE_URL ?? process.env.TOCSIN_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const pgName = `tocsin_scaleout_${process.pid}`;
const admin = new pg.Client({ connectionString: pgBase });
await admin.connect();
await admin.query(`CREATE DATABASE ${pgName}`);
await admin.end();
const dbUrl = new URL(pgBase);
dbUrl.pathname = `/${pgName}`;
async function dropDatabase(): Promise<void> {
  const cleanup = new pg.Client({ connectionString: pgBase });
  await cleanup.connect();
  await cleanup.query(`DROP DATABASE IF EXISTS ${pgName} WITH (FORCE)`);
  await cleanup.end();
}
// A run that fails (a process that did not start or stop cleanly) drops its database too; its children are killed
// by the phase's `finally`.
process.once('uncaughtException', (err) => {
  process.stderr.write(`${err.stack ?? String(err)}\n`);
  dropDatabase().then(
    () => process.exit(1),
    () => process.exit(1),
  );
});

const dataDir = mkdtempSync(join(tmpdir(), 'tocsin-bench-scaleout-'));
const configPath = join(dataDir, 'tocsin.json');
writeFileSync(
  configPath,
  JSON.stringify({
    plans: { enterprise: { interval_floor_seconds: 1, monitors: null } },
    scheduler: { concurrency, lease_seconds: 10 },
  }),
);
const env: Record<string, string> = {
  ...(process.env as Record<string, string>),
  DATABASE_URL: dbUrl.toString(),
  TOCSIN_DATA_DIR: dataDir,
  TOCSIN_CONFIG: configPath,
  // Every process must read the destination's sealed signing secret.
  TOCSIN_MASTER_KEY: randomBytes(32).toString('base64'),
  LOG_LEVEL: 'warn',
  NODE_ENV: 'production',
};

const targets: ChildProcess = fork(
  new URL('./targets.child.ts', import.meta.url),
  ['4', String(delayMs), String(Number(args['flap-seconds']) * 1000)],
  { stdio: 'inherit' },
);
const { ports } = await new Promise<{ ports: number[] }>((resolve) =>
  targets.once('message', (m) => resolve(m as { ports: number[] })),
);
const receiver = await startReceiver();

const config = loadConfig({ env, isTty: false });
const region = config.defaultRegion;
const setup = await createTocsin(config, { logger: createLogger({ level: 'warn', pretty: false }), background: false });
const org = await setup.services.orgs.createOrganization({ name: 'scale-out', plan: 'enterprise' });
const user = await setup.services.orgs.ensureUser({ email: 'scale-out@example.com' });
await setup.services.orgs.addMember(org.id, user.id, 'owner');
const key = await setup.services.auth.issueKey({
  organizationId: org.id,
  name: 'bench',
  scopes: [...SCOPES],
  environments: ['production'],
  userId: user.id,
  createdBy: user.id,
});
const destination = await setup.app.inject({
  method: 'POST',
  url: '/api/v1/auth/organization/webhooks',
  headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
  payload: JSON.stringify({ type: 'generic_webhook', name: 'receiver', config: { url: receiver.url } }),
});
if (destination.statusCode !== 201) throw new Error(`destination: ${destination.body}`);
const destinationId = (destination.json() as { id: string }).id;
const actor = (await setup.services.auth.authenticate(key.key))!;
const t0 = Date.now();
for (let i = 0; i < monitors + flapping; i++) {
  const flap = i >= monitors;
  await setup.services.monitors.create(
    { actor, db: setup.database, clock: setup.clock },
    {
      target: `http://127.0.0.1:${ports[i % ports.length]}/${flap ? 'flap' : 'm'}/${i}`,
      interval_seconds: intervalS,
      name: `${flap ? 'flap' : 'steady'} ${i}`,
      config: {
        timeout_ms: 5_000,
        ...(flap && { failure_threshold: 1, success_threshold: 1, alert_destination_ids: [destinationId] }),
      },
    },
  );
}
process.stderr.write(`created ${monitors} + ${flapping} flapping monitors in ${Date.now() - t0} ms\n`);
const tokens = [
  await setup.services.checks.runners.createToken(region, 'bench runner 1'),
  await setup.services.checks.runners.createToken(region, 'bench runner 2'),
];
await setup.close();

interface Phase {
  name: string;
  windowStart: number;
  windowEnd: number;
  cpu: { name: string; cpu_percent_of_one_core: number }[];
  machineBusyPercent: number;
  load: number[];
}

/** Starts the processes, warms up, measures CPU over the window, stops them gracefully. */
async function phase(name: string, start: () => Promise<Proc[]>): Promise<Phase> {
  const procs = await start();
  try {
    await new Promise((r) => setTimeout(r, warmMs));
    const cpu0 = procs.map((p) => cpuMsOf(p.child.pid!));
    const m0 = machineTicks();
    const windowStart = Date.now();
    await new Promise((r) => setTimeout(r, windowMs));
    const windowEnd = Date.now();
    const cpu1 = procs.map((p) => cpuMsOf(p.child.pid!));
    const m1 = machineTicks();
    const load = loadavg().map((l) => +l.toFixed(2));
    // Runners first: their last results go to the serve processes still running.
    const codes = [
      ...(await stopAll(procs.filter((p) => p.port === null))),
      ...(await stopAll(procs.filter((p) => p.port !== null))),
    ];
    if (codes.some((c) => c !== 0))
      throw new Error(`${name}: exit codes ${codes.join(', ')} (expected 0 after SIGTERM)`);
    return {
      name,
      windowStart,
      windowEnd,
      cpu: procs.map((p, i) => ({
        name: p.name,
        cpu_percent_of_one_core: +(((cpu1[i]! - cpu0[i]!) / (windowEnd - windowStart)) * 100).toFixed(1),
      })),
      machineBusyPercent: +(((m1.busy - m0.busy) / (m1.total - m0.total)) * 100).toFixed(1),
      load,
    };
  } finally {
    for (const p of procs) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  }
}

const loadAtStart = loadavg().map((l) => +l.toFixed(2));
const one = await phase('one serve', async () => [await startServe('serve A', env, nodeFlags)]);
const four = await phase('two serve + two runners', async () => {
  const a = await startServe('serve A', env, nodeFlags);
  const b = await startServe('serve B', env, nodeFlags);
  const runners = await Promise.all(
    [a, b].map((s, i) =>
      startRunner(`runner ${i + 1} (via serve ${i === 0 ? 'A' : 'B'})`, env, nodeFlags, {
        region,
        controlPlane: `http://127.0.0.1:${s.port}`,
        token: tokens[i]!.token,
        concurrency,
      }),
    ),
  );
  return [a, b, ...runners];
});
targets.disconnect();

/** Runs of one monitor that overlap in time: two holders of one (monitor, region) at once. */
async function overlappingRuns(db: Kysely<unknown>, from: number, to: number): Promise<number> {
  const rows = (
    await sql<{ monitor_key: number; region_key: number; started_at: string | number; duration_ms: number }>`
      select monitor_key, region_key, started_at, duration_ms from execution
       where started_at >= ${from} and started_at < ${to}
       order by monitor_key, region_key, started_at`.execute(db)
  ).rows;
  let overlaps = 0;
  for (let i = 1; i < rows.length; i++) {
    const prev = rows[i - 1]!;
    const cur = rows[i]!;
    if (prev.monitor_key !== cur.monitor_key || prev.region_key !== cur.region_key) continue;
    if (Number(cur.started_at) < Number(prev.started_at) + prev.duration_ms) overlaps++;
  }
  return overlaps;
}

const after = await createTocsin(config, {
  logger: createLogger({ level: 'warn', pretty: false }),
  background: false,
  migrate: false,
});
const db = after.database.tables<unknown>();
const figures = [];
for (const p of [one, four]) {
  const slots = await slotsFromExecutions(db, intervalS * 1000, p.windowStart, p.windowEnd);
  const seconds = (p.windowEnd - p.windowStart) / 1000;
  const l = slots.lateness;
  figures.push({
    setup: p.name,
    checks_per_second: +(slots.checksInWindow / seconds).toFixed(1),
    checks_in_window: slots.checksInWindow,
    lateness_ms_p50_p99: [l[Math.floor(l.length * 0.5)], l[Math.floor(l.length * 0.99)]],
    duplicate_slots: slots.duplicateSlots,
    overlapping_runs: await overlappingRuns(db, p.windowStart, p.windowEnd),
    cpu: p.cpu,
    machine_cpu_busy_percent: p.machineBusyPercent,
    load_average_at_window_end: p.load,
  });
}
const events = (
  await sql<{ type: string; n: string | number }>`
    select type, count(*) as n from domain_event where type in ('down', 'recovered') group by type`.execute(db)
).rows;
const eventTwice = (
  await sql<{ n: string | number }>`
    select count(*) as n from (select incident_id, type from domain_event where type in ('down', 'recovered')
      group by incident_id, type having count(*) > 1) t`.execute(db)
).rows[0]!.n;
await after.close();
// Deliveries still in the outbox when the processes stopped are not counted; duplicates are what matters here.
const deliveries = deliveryFigures(receiver.deliveries);
await receiver.close();
// BENCH_KEEP_DB=1 keeps the database for a look at the rows (its name is printed).
if (process.env.BENCH_KEEP_DB === '1') process.stderr.write(`kept database ${pgName}\n`);
else await dropDatabase();

console.log(
  JSON.stringify(
    {
      machine: `${cpus().length} × ${cpus()[0]?.model ?? '?'}`,
      node: process.version,
      date: new Date().toISOString(),
      load_average_at_start: loadAtStart,
      monitors: { steady: monitors, flapping, interval_s: intervalS, target_delay_ms: delayMs },
      load_checks_per_second: +((monitors + flapping) / intervalS).toFixed(1),
      concurrency_per_process: concurrency,
      // Without a delay the slots bound nothing the machine can reach: CPU (or the database) is the limit.
      slot_bound_checks_per_second_per_process: delayMs > 0 ? +(concurrency / (delayMs / 1000)).toFixed(1) : null,
      warm_s: warmMs / 1000,
      window_s: windowMs / 1000,
      phases: figures,
      windows: [one, four].map((p) => [p.windowStart, p.windowEnd]),
      ratio: +(figures[1]!.checks_per_second / figures[0]!.checks_per_second).toFixed(2),
      alerts: {
        events_in_database: Object.fromEntries(events.map((e) => [e.type, Number(e.n)])),
        incident_events_recorded_twice: Number(eventTwice),
        events_delivered: deliveries.events,
        webhook_requests: deliveries.requests,
        events_with_two_delivery_ids: deliveries.eventsWithTwoDeliveries,
        delivery_ids_sent_twice: deliveries.deliveriesSentAgain,
      },
    },
    null,
    2,
  ),
);
process.exit(0);
