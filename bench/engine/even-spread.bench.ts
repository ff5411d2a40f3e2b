/**
 * CPU per check of `tocsin serve` as the Uptime Kuma side-by-side harness runs it (issue 36 item 9;
 * /work/shared/bench/uptime-kuma-side-by-side/run-side.sh), for one or more source trees at the same time:
 *   node bench/engine/even-spread.bench.ts [--root /other/tree ...] [--pairs 3] [--monitors 1000] [--rate 50]
 *     [--warm 45] [--window 120] [--node-arg <flag> ...]
 * Each round starts one `tocsin serve` per tree at once (the numeric V8 flags of its bin/tocsin.js's first line, a
 * config file with `public_url` and an enterprise plan, SQLite in a fresh data directory), bootstraps an organization
 * with `tocsin admin bootstrap`, makes a setup key and creates the monitors through `POST /api/v1/monitors` paced at
 * `--rate` a second (so their slots spread evenly over the 20 s interval, as the harness's do), each tree with its own
 * loopback target (a node:http server in this process counting hits). After `--warm` s, CPU (utime + stime of the
 * process, /proc) and target hits are taken over the same `--window` s for every tree. The order in which the trees
 * are started alternates between rounds. Prints one JSON line per tree and round, then the medians.
 * `--node-arg` flags (e.g. --cpu-prof, --cpu-prof-dir=DIR, --trace-gc) are added to every tree's process;
 * `--log-dir DIR` keeps each process's standard output there (serve-<round>-<order>.log).
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { waitUntilReady } from '../support/serve-ready.ts';
import { slotsFromExecutions } from './slots.from-executions.ts';

const { values: args } = parseArgs({
  options: {
    root: { type: 'string', multiple: true, default: [] },
    pairs: { type: 'string', default: '3' },
    monitors: { type: 'string', default: '1000' },
    rate: { type: 'string', default: '50' },
    warm: { type: 'string', default: '45' },
    window: { type: 'string', default: '120' },
    'node-arg': { type: 'string', multiple: true, default: [] },
    'log-dir': { type: 'string' },
    'port-base': { type: 'string', default: '3300' },
  },
});
const roots = [fileURLToPath(new URL('../../', import.meta.url)), ...args.root];
const monitors = Number(args.monitors);
const rate = Number(args.rate);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10; // USER_HZ = 100
}

/** The `--name=number` flags of a tree's bin/tocsin.js first line, as run-side.sh passes them. */
function serviceFlags(root: string): string[] {
  const first = readFileSync(join(root, 'bin/tocsin.js'), 'utf8').split('\n', 1)[0]!;
  return first.match(/--[a-z-]*=[0-9]*/g) ?? [];
}

interface Target {
  server: Server;
  port: number;
  hits: number;
}

async function target(): Promise<Target> {
  const t: Target = { server: createServer(), port: 0, hits: 0 };
  t.server.on('request', (_req, res) => {
    t.hits++;
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' });
    res.end('ok');
  });
  t.server.keepAliveTimeout = 5000;
  await new Promise<void>((r) => t.server.listen(0, '127.0.0.1', r));
  t.port = (t.server.address() as AddressInfo).port;
  return t;
}

interface Running {
  root: string;
  dir: string;
  child: ChildProcess;
  origin: string;
  env: NodeJS.ProcessEnv;
  target: Target;
}

async function start(root: string, port: number, log: string): Promise<Running> {
  const dir = mkdtempSync(join(tmpdir(), 'even-spread-'));
  const config = join(dir, 'tocsin.json');
  writeFileSync(
    config,
    JSON.stringify({
      public_url: `http://127.0.0.1:${port}`,
      plans: {
        enterprise: {
          monitors: null,
          interval_floor_seconds: 20,
          regions: null,
          status_pages: null,
          reports: true,
          api: true,
        },
      },
      default_plan: 'enterprise',
    }),
  );
  const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', TOCSIN_DATA_DIR: dir, TOCSIN_CONFIG: config };
  const child = spawn(process.execPath, [...serviceFlags(root), ...args['node-arg'], 'bin/tocsin.js', 'serve'], {
    cwd: root,
    env,
    stdio: args['log-dir'] ? ['ignore', openSync(join(args['log-dir'], log), 'w'), 'inherit'] : 'ignore',
  });
  const origin = `http://127.0.0.1:${port}`;
  await waitUntilReady(child, origin);
  return { root, dir, child, origin, env, target: await target() };
}

async function createMonitors(r: Running): Promise<void> {
  const out = execFileSync(
    process.execPath,
    ['bin/tocsin.js', 'admin', 'bootstrap', '--org', 'Bench', '--email', 'b@example.test', '--plan', 'enterprise'],
    { cwd: r.root, env: r.env, encoding: 'utf8' },
  );
  const bootKey = (JSON.parse(out.trim().split('\n').pop()!) as { api_key: string }).api_key;
  const made = await fetch(`${r.origin}/api/v1/api-keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bootKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'bench-setup',
      scopes: ['monitors:create', 'monitors:write', 'monitors:read'],
      rate_limits: { read_per_minute: 100000, write_per_minute: 100000, delete_per_minute: 100000 },
    }),
  });
  const key = ((await made.json()) as { key: string }).key;
  const t0 = Date.now();
  for (let i = 1; i <= monitors; i++) {
    const res = await fetch(`${r.origin}/api/v1/monitors`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        target: `http://127.0.0.1:${r.target.port}/m/${i}`,
        name: `bench-${i}`,
        interval_seconds: 20,
        config: { timeout_ms: 16000, failure_threshold: 1 },
      }),
    });
    if (res.status !== 201) throw new Error(`monitor ${i}: ${res.status} ${await res.text()}`);
    await res.arrayBuffer().catch(() => undefined);
    const wait = t0 + (i * 1000) / rate - Date.now();
    if (wait > 0) await sleep(wait);
  }
}

interface Figures {
  root: string;
  pair: number;
  order: number;
  load1: number;
  checks_per_s: number;
  cpu_pct: number;
  cpu_ms_per_check: number;
  /** From the stored executions after the stop: start − slot over the window's slots, and slots stored twice. */
  lateness_p50_ms: number;
  lateness_p99_ms: number;
  duplicates: number;
}

const results: Figures[] = [];
for (let pair = 0; pair < Number(args.pairs); pair++) {
  const order = pair % 2 === 0 ? roots : [...roots].reverse();
  const running: Running[] = [];
  for (const [i, root] of order.entries())
    running.push(await start(root, Number(args['port-base']) + 10 * pair + i, `serve-${pair}-${i}.log`));
  await Promise.all(running.map(createMonitors));
  await sleep(Number(args.warm) * 1000);
  const load0 = loadavg()[0]!;
  const before = running.map((r) => ({ cpu: cpuMs(r.child.pid!), hits: r.target.hits, at: Date.now() }));
  await sleep(Number(args.window) * 1000);
  const load1 = (load0 + loadavg()[0]!) / 2;
  const measured = running.map((r, i) => {
    const b = before[i]!;
    const cpu = cpuMs(r.child.pid!) - b.cpu;
    const checks = r.target.hits - b.hits;
    const seconds = (Date.now() - b.at) / 1000;
    return { cpu, checks, seconds, start: b.at, end: Date.now() };
  });
  for (const r of running) r.child.kill('SIGTERM');
  await Promise.all(
    running.map((r) =>
      r.child.exitCode !== null ? Promise.resolve() : new Promise<void>((res) => r.child.once('exit', () => res())),
    ),
  );
  for (const [i, r] of running.entries()) {
    const { cpu, checks, seconds, start, end } = measured[i]!;
    const db = new Kysely<unknown>({
      dialect: new SqliteDialect({ database: new BetterSqlite3(join(r.dir, 'tocsin.db')) }),
    });
    const slots = await slotsFromExecutions(db, 20_000, start, end - 20_000);
    await db.destroy();
    const at = (q: number) =>
      slots.lateness[Math.min(slots.lateness.length - 1, Math.floor(q * slots.lateness.length))]!;
    const f: Figures = {
      root: r.root,
      pair,
      order: i,
      load1: Number(load1.toFixed(2)),
      checks_per_s: Number((checks / seconds).toFixed(2)),
      cpu_pct: Number(((cpu / seconds) * 0.1).toFixed(2)),
      cpu_ms_per_check: Number((cpu / checks).toFixed(3)),
      lateness_p50_ms: at(0.5),
      lateness_p99_ms: at(0.99),
      duplicates: slots.duplicateSlots,
    };
    results.push(f);
    console.log(JSON.stringify(f));
  }
  for (const r of running) {
    r.target.server.close();
    rmSync(r.dir, { recursive: true, force: true });
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const root of roots) {
  const mine = results.filter((r) => r.root === root).map((r) => r.cpu_ms_per_check);
  console.log(JSON.stringify({ root, runs: mine, median_ms_per_check: median(mine) }));
}
