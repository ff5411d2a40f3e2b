/**
 * Overload benchmark (issue 18, item 5): far more checks due than the runner can take.
 *   node bench/engine/overload.bench.ts [--monitors 10000] [--small 10] [--minutes 3] [--interval 30]
 *     [--timeout-ms 5000] [--concurrency 200] [--dialect sqlite|postgres]
 * Organization "big" has `--monitors` HTTP monitors whose target accepts the connection and never answers (each
 * check holds a runner slot until its timeout); organization "small" has `--small` monitors of a target answering
 * at once. One real `tocsin serve` process (every role on); every 10 s this prints its RSS (from /proc), the
 * backlog, the oldest due age, the claim lateness p50/p99 and shedding (from /readyz). After the run: how many
 * checks of each organization were stored in the window, and the small organization's largest gap between two
 * checks of one monitor (on time = one interval).
 */
import { SERVICE_NODE_FLAGS } from '../support/service-flags.ts';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { loadConfig } from '../../src/config/index.ts';
import { createTocsin } from '../../src/main.ts';
import { SCOPES } from '../../src/modules/auth/index.ts';
import { createLogger } from '../../src/platform/logger.ts';

const { values: args } = parseArgs({
  options: {
    monitors: { type: 'string', default: '10000' },
    small: { type: 'string', default: '10' },
    minutes: { type: 'string', default: '3' },
    interval: { type: 'string', default: '30' },
    'timeout-ms': { type: 'string', default: '5000' },
    concurrency: { type: 'string', default: '200' },
    dialect: { type: 'string', default: 'sqlite' },
  },
});
const bigCount = Number(args.monitors);
const smallCount = Number(args.small);
const windowMs = Number(args.minutes) * 60_000;
const intervalS = Number(args.interval);
const timeoutMs = Number(args['timeout-ms']);
const dialect = args.dialect as 'sqlite' | 'postgres';

// A target that accepts and never answers; sockets are kept so the run can count them and close them at the end.
const held = new Set<Socket>();
const blackHole = createServer((socket) => {
  held.add(socket);
  // Read (and drop) the request so a client's close is seen; never answer.
  socket.resume();
  socket.on('error', () => {});
  socket.on('close', () => held.delete(socket));
});
await new Promise<void>((r) => blackHole.listen(0, '127.0.0.1', r));
const fast = createHttpServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' });
  res.end('ok');
});
await new Promise<void>((r) => fast.listen(0, '127.0.0.1', r));
const blackHolePort = (blackHole.address() as AddressInfo).port;
const fastPort = (fast.address() as AddressInfo).port;

const dataDir = mkdtempSync(join(tmpdir(), 'tocsin-bench-overload-'));
const configPath = join(dataDir, 'tocsin.json');
writeFileSync(
  configPath,
  JSON.stringify({
    plans: { enterprise: { interval_floor_seconds: 1, monitors: null } },
    scheduler: { concurrency: Number(args.concurrency), lease_seconds: 30 },
    metrics: { enabled: true },
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
const pgBase =
  process.env.DATABASE_URL ?? process.env.TOCSIN_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
if (dialect === 'postgres') {
  pgName = `tocsin_overload_${process.pid}`;
  const admin = new pg.Client({ connectionString: pgBase });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${pgName}`);
  await admin.end();
  const u = new URL(pgBase);
  u.pathname = `/${pgName}`;
  env.DATABASE_URL = u.toString();
} else {
  delete env.DATABASE_URL;
}

const config = loadConfig({ env, isTty: false });
const setup = await createTocsin(config, { logger: createLogger({ level: 'warn', pretty: false }), background: false });
async function organization(name: string, count: number, port: number): Promise<string[]> {
  const org = await setup.services.orgs.createOrganization({ name, plan: 'enterprise' });
  const user = await setup.services.orgs.ensureUser({ email: `${name}@example.com` });
  await setup.services.orgs.addMember(org.id, user.id, 'owner');
  const key = await setup.services.auth.issueKey({
    organizationId: org.id,
    name,
    scopes: [...SCOPES],
    environments: ['production'],
    userId: user.id,
    createdBy: user.id,
  });
  const actor = (await setup.services.auth.authenticate(key.key))!;
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const m = await setup.services.monitors.create(
      { actor, db: setup.database, clock: setup.clock },
      {
        target: `http://127.0.0.1:${port}/${name}/${i}`,
        interval_seconds: intervalS,
        name: `${name} ${i}`,
        config: { timeout_ms: timeoutMs },
      },
    );
    ids.push(m.id);
  }
  return ids;
}
const t0 = Date.now();
await organization('big', bigCount, blackHolePort);
const smallIds = await organization('small', smallCount, fastPort);
process.stderr.write(`created ${bigCount} + ${smallCount} monitors in ${Date.now() - t0} ms\n`);
await setup.close();

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}
const port = await freePort();
const bin = new URL('../../bin/tocsin.js', import.meta.url).pathname;
const child = spawn(process.execPath, ['--max-old-space-size=512', ...SERVICE_NODE_FLAGS, bin, 'serve'], {
  env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const base = `http://127.0.0.1:${port}`;
for (let end = Date.now() + 60_000; ;) {
  if (Date.now() > end) throw new Error('tocsin serve not ready in 60 s');
  try {
    if ((await fetch(`${base}/readyz`)).status === 200) break;
  } catch {
    // not listening yet
  }
  await new Promise((r) => setTimeout(r, 200));
}
const rssMiB = () =>
  Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const cpuMs = () => {
  const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
};

interface Sample {
  t_s: number;
  rss_mib: number;
  backlog: number;
  oldest_due_age_s: number;
  lateness_p50_ms: number | null;
  lateness_p99_ms: number | null;
  claimed_last_minute: number;
  shedding: boolean;
  sockets_held_by_target: number;
  /** Open file descriptors of the serve process (its sockets included). */
  open_fds: number;
}
const samples: Sample[] = [];
const windowStart = Date.now();
const cpu0 = cpuMs();
while (Date.now() - windowStart < windowMs) {
  const ready = (await (await fetch(`${base}/readyz`)).json()) as {
    checks: {
      backlog: number;
      oldest_due_age_ms: number;
      lateness_p50_ms: number | null;
      lateness_p99_ms: number | null;
      claimed_last_minute: number;
      shedding: boolean;
    };
  };
  const s: Sample = {
    t_s: Math.round((Date.now() - windowStart) / 1000),
    rss_mib: Math.round(rssMiB()),
    backlog: ready.checks.backlog,
    oldest_due_age_s: Math.round(ready.checks.oldest_due_age_ms / 100) / 10,
    lateness_p50_ms: ready.checks.lateness_p50_ms,
    lateness_p99_ms: ready.checks.lateness_p99_ms,
    claimed_last_minute: ready.checks.claimed_last_minute,
    shedding: ready.checks.shedding,
    sockets_held_by_target: held.size,
    open_fds: readdirSync(`/proc/${child.pid}/fd`).length,
  };
  samples.push(s);
  process.stderr.write(`${JSON.stringify(s)}\n`);
  await new Promise((r) => setTimeout(r, 10_000));
}
const windowEnd = Date.now();
const cpuWindowMs = cpuMs() - cpu0;
const metricsText = await (await fetch(`${base}/metrics`)).text();
const skipped = Number(/^tocsin_check_slots_skipped_total\{region="local"\} (\S+)$/m.exec(metricsText)?.[1] ?? 0);
child.kill('SIGTERM');
await new Promise((r) => child.once('exit', r));
for (const s of held) s.destroy();
blackHole.close();
fast.close();

const after = await createTocsin(config, {
  logger: createLogger({ level: 'warn', pretty: false }),
  background: false,
  migrate: false,
});
const db = after.database.tables<unknown>();
const rows = (
  await sql<{ monitor_id: string; started_at: number | string }>`
    select k.monitor_id, e.started_at from execution e join monitor_key k on k.id = e.monitor_key
     where e.started_at >= ${windowStart} and e.started_at < ${windowEnd}`.execute(db)
).rows;
const small = new Set(smallIds);
const smallRuns = new Map<string, number[]>();
let bigRuns = 0;
for (const r of rows) {
  if (!small.has(r.monitor_id)) {
    bigRuns += 1;
    continue;
  }
  const list = smallRuns.get(r.monitor_id) ?? [];
  list.push(Number(r.started_at));
  smallRuns.set(r.monitor_id, list);
}
let maxGapMs = 0;
let smallTotal = 0;
for (const list of smallRuns.values()) {
  list.sort((a, b) => a - b);
  smallTotal += list.length;
  for (let i = 1; i < list.length; i++) maxGapMs = Math.max(maxGapMs, list[i]! - list[i - 1]!);
}
await after.close();
if (pgName) {
  const admin = new pg.Client({ connectionString: pgBase });
  await admin.connect();
  await admin.query(`DROP DATABASE ${pgName} WITH (FORCE)`);
  await admin.end();
}

const rss = samples.map((s) => s.rss_mib);
const seconds = (windowEnd - windowStart) / 1000;
console.log(
  JSON.stringify(
    {
      dialect,
      monitors: { big: bigCount, small: smallCount, interval_s: intervalS, timeout_ms: timeoutMs },
      concurrency: Number(args.concurrency),
      window_s: Math.round(seconds),
      load_average: loadavg().map((l) => Math.round(l * 10) / 10),
      demand_checks_per_s: Math.round(((bigCount + smallCount) / intervalS) * 10) / 10,
      capacity_checks_per_s: Math.round((Number(args.concurrency) / (timeoutMs / 1000)) * 10) / 10,
      big_checks_stored_per_s: Math.round((bigRuns / seconds) * 10) / 10,
      small_checks_stored: smallTotal,
      small_checks_expected: Math.floor((seconds / intervalS) * smallCount),
      small_max_gap_between_checks_ms: maxGapMs,
      slots_skipped: skipped,
      cpu_percent_of_one_core: Math.round((cpuWindowMs / (windowEnd - windowStart)) * 1000) / 10,
      rss_mib: { first: rss[0], min: Math.min(...rss), max: Math.max(...rss), last: rss[rss.length - 1] },
      last_sample: samples[samples.length - 1],
    },
    null,
    2,
  ),
);
process.exit(0);
