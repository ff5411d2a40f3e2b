/**
 * Issue 36 item 8: the API under a realistic mix against a real `tocsin serve` (every role on: HTTP, scheduler,
 * in-process runner, alerting), side by side with a bare Fastify hello-world in the same run, and the check lateness
 * while the API is saturated.
 *
 * - `tocsin serve` started as the README says (`tocsin admin bootstrap`, then `serve`, SQLite in a temp data dir),
 *   BENCH_MONITORS monitors made through the API (8 at a time): BENCH_ACTIVE of them http monitors checked every
 *   BENCH_INTERVAL s against a loopback target, the rest paused (spread over tags, types, environments);
 * - lateness: the process's own figure (`/readyz` `checks.lateness_p99_ms`, claimed-at minus due-at over the last
 *   minute) and the `tocsin_check_lateness_seconds` histogram (start minus slot) over each window, read from
 *   `/metrics`; first a quiet window (no API load), then one per round under load;
 * - per round: the bare server and Tocsin each loaded for BENCH_SECONDS by autocannon with BENCH_CONNECTIONS
 *   connections (order alternating), each connection cycling through 20 requests: 13 reads of a random monitor,
 *   4 lists with filters (status, type, environment, text search, half of them with a tag), 2 PATCHes, 1 create;
 *   BENCH_MIX=rows: 2 of the 4 lists are the web list's summary pages (sorted, searched).
 *
 *   node bench/api/api.serve-mix.bench.ts
 *   BENCH_CPU_PROF=/tmp/prof node bench/api/api.serve-mix.bench.ts   → `serve` runs with --cpu-prof into that dir
 *   BENCH_ROOT=/path/to/another/tree                                → serves that tree's Tocsin (a before/after)
 */
import { execFile, fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import { apiCaller, benchMonitorBody, makeBenchKeys } from './api.fixture.ts';
import { waitUntilReady } from '../support/serve-ready.ts';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const MONITORS = Number(process.env.BENCH_MONITORS ?? 10_000);
const ACTIVE = Number(process.env.BENCH_ACTIVE ?? 500);
const INTERVAL = Number(process.env.BENCH_INTERVAL ?? 10);
const QUIET_SECONDS = Number(process.env.BENCH_QUIET_SECONDS ?? 60);
const HERE = fileURLToPath(new URL('../../', import.meta.url));
const ROOT = process.env.BENCH_ROOT ?? HERE;
const KEYS = 8;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(15_000)]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

async function startBare(): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(join(HERE, 'bench/api/api.servers.ts'), ['bare'], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const { port } = await new Promise<{ port: number }>((resolve, reject) => {
    child.once('message', (m: { port: number }) => resolve(m));
    child.once('exit', (code) => reject(new Error(`bare exited with ${code}`)));
  });
  return { child, port };
}

/** The loopback target of the active monitors: 200 "ok". */
async function startTarget(): Promise<{ url: string; close(): void }> {
  const server = createServer((req, res) => {
    req.resume();
    res.end('ok');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/health`, close: () => server.close() };
}

interface Tocsin {
  child: ChildProcess;
  origin: string;
  keys: string[];
  ids: string[];
  dataDir: string;
}

async function startTocsin(target: string): Promise<Tocsin> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tocsin-serve-mix-'));
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const config = join(dataDir, 'tocsin.json');
  writeFileSync(
    config,
    JSON.stringify({
      plans: { enterprise: { interval_floor_seconds: 1 } },
      network: { allow_private_targets: true },
      metrics: { enabled: true },
    }),
  );
  const env = {
    ...process.env,
    TOCSIN_DATA_DIR: dataDir,
    TOCSIN_CONFIG: config,
    PORT: String(port),
    HOST: '127.0.0.1',
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    LOG_FORMAT: 'json',
  };
  const bin = join(ROOT, 'bin/tocsin.js');
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [bin, 'admin', 'bootstrap', '--org', 'Bench', '--email', 'bench@example.com', '--plan', 'enterprise'],
    { env, cwd: ROOT },
  );
  const bootstrapKey = (JSON.parse(stdout.trim().split('\n').at(-1)!) as { api_key: string }).api_key;
  const prof = process.env.BENCH_CPU_PROF;
  const child = spawn(
    process.execPath,
    [...(prof ? ['--cpu-prof', `--cpu-prof-dir=${prof}`] : []), bin, 'serve'],
    // Logs as in production (info, a JSON line per request), to /dev/null rather than a terminal.
    { env, cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const origin = `http://127.0.0.1:${port}`;
  await waitUntilReady(child, origin);
  const call = apiCaller(origin);
  const keys = await makeBenchKeys(call, bootstrapKey, KEYS);
  const ids: string[] = new Array<string>(MONITORS);
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    keys.map(async (key) => {
      while (next < MONITORS) {
        const i = next++;
        const active =
          i % Math.max(1, Math.floor(MONITORS / ACTIVE)) === 0 && i / Math.floor(MONITORS / ACTIVE) < ACTIVE;
        const made = await call(
          key,
          'POST',
          '/api/v1/monitors',
          benchMonitorBody(i, active ? { target, intervalSeconds: INTERVAL } : null),
        );
        ids[i] = made.id as string;
      }
    }),
  );
  process.stderr.write(
    `${MONITORS} monitors made through the API in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`,
  );
  return { child, origin, keys, ids, dataDir };
}

/** Counts per bucket of the check-lateness histogram (start minus slot), summed over regions. */
async function latenessBuckets(origin: string): Promise<Map<number, number>> {
  const text = await (await fetch(`${origin}/metrics`)).text();
  const buckets = new Map<number, number>();
  for (const m of text.matchAll(/^tocsin_check_lateness_seconds_bucket\{[^}]*le="([^"]+)"[^}]*\} (\d+)/gm)) {
    const le = m[1] === '+Inf' ? Infinity : Number(m[1]);
    buckets.set(le, (buckets.get(le) ?? 0) + Number(m[2]));
  }
  return buckets;
}

/** The bucket bound the window's p99 falls under, and the checks started in it. */
function p99Between(before: Map<number, number>, after: Map<number, number>): { checks: number; p99_le_ms: number } {
  const les = [...after.keys()].sort((a, b) => a - b);
  const total = (after.get(Infinity) ?? 0) - (before.get(Infinity) ?? 0);
  const le = les.find((l) => (after.get(l) ?? 0) - (before.get(l) ?? 0) >= 0.99 * total) ?? Infinity;
  return { checks: total, p99_le_ms: le * 1000 };
}

async function readyLateness(origin: string): Promise<unknown> {
  const body = (await (await fetch(`${origin}/readyz`)).json()) as { checks?: Record<string, unknown> };
  return body.checks;
}

interface RequestParams {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

function mixOf(t: Tocsin): Array<{ method: string; setupRequest: (r: RequestParams) => RequestParams }> {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!;
  const headers = () => ({ authorization: `Bearer ${pick(t.keys)}`, 'content-type': 'application/json' });
  let n = 0;
  const get = (path: () => string) => ({
    method: 'GET',
    setupRequest: (r: RequestParams) => ({ ...r, path: path(), headers: headers() }),
  });
  const read = get(() => `/api/v1/monitors/${pick(t.ids)}`);
  const lists = [
    'status=pending&limit=50',
    'type=http&limit=20',
    'environment=staging&limit=50',
    'q=api-1&limit=20',
    `q=${encodeURIComponent('service 12')}&limit=50`,
  ];
  const list = get(
    () => `/api/v1/monitors?${pick(lists)}${Math.random() < 0.5 ? `&tag=team-${Math.floor(Math.random() * 20)}` : ''}`,
  );
  const rows = get(
    () =>
      `/api/v1/monitors/summaries?limit=100&sort=${pick(['status', 'name', 'last_checked'])}&q=${encodeURIComponent(`service ${Math.floor(Math.random() * 1000)}`)}`,
  );
  const update = {
    method: 'PATCH',
    setupRequest: (r: RequestParams) => ({
      ...r,
      path: `/api/v1/monitors/${pick(t.ids.slice(ACTIVE * 2))}`,
      headers: headers(),
      body: JSON.stringify({ name: `renamed ${++n}`, tags: [`team-${n % 20}`] }),
    }),
  };
  const create = {
    method: 'POST',
    setupRequest: (r: RequestParams) => ({
      ...r,
      path: '/api/v1/monitors',
      headers: headers(),
      body: JSON.stringify({ target: `https://new-${++n}.example.com`, tags: ['new'], paused: true }),
    }),
  };
  // BENCH_MIX=rows: two of the lists are the web list's pages (summaries, sorted, searched); by default only
  // requests an older tree also serves, so that before and after run the same mix.
  const lists4 = process.env.BENCH_MIX === 'rows' ? [list, list, rows, rows] : [list, list, list, list];
  return [...Array<typeof read>(13).fill(read), ...lists4, update, update, create];
}

async function load(url: string, requests?: ReturnType<typeof mixOf>) {
  const options = { url, connections: CONNECTIONS, ...(requests && { requests }) };
  await autocannon({ ...options, duration: 2 });
  const r = await autocannon({ ...options, duration: SECONDS });
  return {
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
  };
}

console.log(
  `machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, node ${process.version}, ${new Date().toISOString()}`,
);
console.log(
  `load average at start: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
console.log(
  `tree: ${ROOT}; ${MONITORS} monitors (${ACTIVE} checked every ${INTERVAL} s); ${CONNECTIONS} connections, ${SECONDS} s per load, ${ROUNDS} rounds\n`,
);
const target = await startTarget();
const bare = await startBare();
let tocsin: Tocsin | null = null;
try {
  tocsin = await startTocsin(target.url);
  // Quiet: the checks alone (after the creations' burst has passed).
  await sleep(5000);
  const q0 = await latenessBuckets(tocsin.origin);
  await sleep(QUIET_SECONDS * 1000);
  const quiet = {
    histogram: p99Between(q0, await latenessBuckets(tocsin.origin)),
    readyz: await readyLateness(tocsin.origin),
  };
  console.log(`quiet (${QUIET_SECONDS} s, no API load): ${JSON.stringify(quiet)}`);
  console.log(
    '\n| round | server | req/s | p50 ms | p99 ms | non-2xx | errors | ratio to bare | check lateness under load |',
  );
  console.log('|---:|---|---:|---:|---:|---:|---:|---:|---|');
  const ratios: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const order = round % 2 ? ['bare', 'tocsin'] : ['tocsin', 'bare'];
    const figures: Record<string, Awaited<ReturnType<typeof load>> & { lateness?: unknown }> = {};
    for (const which of order) {
      if (which === 'bare') figures.bare = await load(`http://127.0.0.1:${bare.port}/`);
      else {
        const before = await latenessBuckets(tocsin.origin);
        const f = await load(`${tocsin.origin}/`, mixOf(tocsin));
        figures.tocsin = {
          ...f,
          lateness: {
            histogram: p99Between(before, await latenessBuckets(tocsin.origin)),
            readyz: await readyLateness(tocsin.origin),
          },
        };
      }
    }
    const ratio = figures.tocsin!.rps / figures.bare!.rps;
    ratios.push(ratio);
    const row = (name: string, f: (typeof figures)[string], r: string, l: string) =>
      console.log(`| ${round} | ${name} | ${f.rps} | ${f.p50} | ${f.p99} | ${f.non2xx} | ${f.errors} | ${r} | ${l} |`);
    row('bare Fastify GET /', figures.bare!, '', '');
    row('tocsin serve, mix', figures.tocsin!, ratio.toFixed(2), JSON.stringify(figures.tocsin!.lateness));
  }
  console.log(
    `\nmedian ratio to bare: ${[...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)]!.toFixed(2)}`,
  );
  console.log(
    `load average at end: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
} finally {
  if (tocsin) {
    await stop(tocsin.child);
    rmSync(tocsin.dataDir, { recursive: true, force: true });
  }
  await stop(bare.child);
  target.close();
}
