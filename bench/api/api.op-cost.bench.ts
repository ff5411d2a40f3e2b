/**
 * Issue 36 item 8, per operation: the CPU `tocsin serve` spends per request of each kind in the API mix of
 * `api.serve-mix.bench.ts` (read, filtered list, text-searched list, list with a tag, PATCH, create, and the mix
 * itself), and a bare Fastify `GET /`'s in the same round: CPU per request (the process's utime + stime from /proc
 * over the load, less its idle rate) says more than a rate on a shared machine.
 *
 * The 10,000 monitors are made through the API once (as api.serve-mix.bench.ts makes them, with 500 http monitors
 * checked every 10 s against a loopback target) into a template data directory; each serve starts on a copy of it.
 * Several trees are measured interleaved (round 1: A, B; round 2: B, A; …):
 *
 *   BENCH_TREES=/work/base,/work/mine BENCH_ROUNDS=2 BENCH_SECONDS=10 node bench/api/api.op-cost.bench.ts
 *   BENCH_OPS=read,mix         → only these operations
 *   BENCH_TEMPLATE=/tmp/dir    → keep (or reuse) the template there
 *   BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/p'   → flags for each serve
 *   BENCH_FLOOR=1              → also the floor (api.floor.ts: the least a server must do for these requests, on a
 *                                copy of the same database), as one more "tree" named `floor` in each round
 *   BENCH_FLOOR=memory         → and `floor-memory`: the floor answering reads and lists from an in-memory copy
 */
import { execFile, fork, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import { apiCaller, benchMonitorBody, makeBenchKeys } from './api.fixture.ts';
import { waitUntilReady } from '../support/serve-ready.ts';

const HERE = fileURLToPath(new URL('../../', import.meta.url));
const FLOOR_CHOICES: Record<string, string[]> = { '': [], '1': ['floor'], memory: ['floor', 'floor-memory'] };
const FLOORS = FLOOR_CHOICES[process.env.BENCH_FLOOR ?? ''];
if (!FLOORS) throw new Error(`BENCH_FLOOR must be 1 or memory, not ${process.env.BENCH_FLOOR}`);
const TREES = [...(process.env.BENCH_TREES ?? HERE).split(','), ...FLOORS];
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const MONITORS = 10_000;
const ACTIVE = 500;
const KEYS = 8;
const TICK_MS = 10; // /proc's clock ticks (USER_HZ = 100)

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The process's CPU so far (user + system), in ms. */
function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(15_000)]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

interface State {
  keys: string[];
  ids: string[];
  target: string;
}

function envOf(dataDir: string, port: number): NodeJS.ProcessEnv {
  return {
    ...process.env,
    TOCSIN_DATA_DIR: dataDir,
    TOCSIN_CONFIG: join(dataDir, 'tocsin.json'),
    PORT: String(port),
    HOST: '127.0.0.1',
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    LOG_FORMAT: 'json',
  };
}

/** A port free now (another process may still take it before serve listens: rare on loopback). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

async function startServe(root: string, dataDir: string): Promise<{ child: ChildProcess; origin: string }> {
  const port = await freePort();
  const args = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter((a) => a !== '');
  const child = spawn(process.execPath, [...args, join(root, 'bin/tocsin.js'), 'serve'], {
    env: envOf(dataDir, port),
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const origin = `http://127.0.0.1:${port}`;
  await waitUntilReady(child, origin);
  return { child, origin };
}

/** api.floor.ts's server on the copy's database, in a child process as Tocsin and the bare server are. */
async function startFloor(
  dataDir: string,
  keys: readonly string[],
  inMemory: boolean,
): Promise<{ child: ChildProcess; origin: string }> {
  const args = ['floor', join(dataDir, 'tocsin.db'), keys.join(','), ...(inMemory ? ['memory'] : [])];
  const child = fork(join(HERE, 'bench/api/api.servers.ts'), args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve) => child.once('message', (m: { port: number }) => resolve(m.port)));
  return { child, origin: `http://127.0.0.1:${port}` };
}

/** The template: an organization with 8 keys and 10,000 monitors made through the API (as api.serve-mix.bench.ts). */
async function makeTemplate(dir: string, target: string): Promise<State> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'tocsin.json'),
    JSON.stringify({
      plans: { enterprise: { interval_floor_seconds: 1 } },
      network: { allow_private_targets: true },
      metrics: { enabled: true },
    }),
  );
  const root = TREES.find((t) => !t.startsWith('floor'))!;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      join(root, 'bin/tocsin.js'),
      'admin',
      'bootstrap',
      '--org',
      'Bench',
      '--email',
      'bench@example.com',
      '--plan',
      'enterprise',
    ],
    { env: envOf(dir, 0), cwd: root },
  );
  const bootstrapKey = (JSON.parse(stdout.trim().split('\n').at(-1)!) as { api_key: string }).api_key;
  const { child, origin } = await startServe(root, dir);
  try {
    const call = apiCaller(origin);
    const keys = await makeBenchKeys(call, bootstrapKey, KEYS);
    const ids: string[] = new Array<string>(MONITORS);
    let next = 0;
    await Promise.all(
      keys.map(async (key) => {
        while (next < MONITORS) {
          const i = next++;
          const active = i % (MONITORS / ACTIVE) === 0;
          const made = await call(
            key,
            'POST',
            '/api/v1/monitors',
            benchMonitorBody(i, active ? { target, intervalSeconds: 10 } : null),
          );
          ids[i] = made.id as string;
        }
      }),
    );
    const state = { keys, ids, target };
    writeFileSync(join(dir, 'bench-state.json'), JSON.stringify(state));
    return state;
  } finally {
    await stop(child);
  }
}

interface RequestParams {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}
type Request = { method: string; setupRequest: (r: RequestParams) => RequestParams };

/** The requests of each operation; `mix` is api.serve-mix.bench.ts's (13 reads, 4 lists, 2 PATCHes, 1 create). */
function operations(state: State): Record<string, Request[]> {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!;
  const headers = () => ({ authorization: `Bearer ${pick(state.keys)}`, 'content-type': 'application/json' });
  let n = 0;
  const get = (path: () => string): Request => ({
    method: 'GET',
    setupRequest: (r) => ({ ...r, path: path(), headers: headers() }),
  });
  const filters = ['status=pending&limit=50', 'type=http&limit=20', 'environment=staging&limit=50'];
  const searches = ['q=api-1&limit=20', `q=${encodeURIComponent('service 12')}&limit=50`];
  const tag = () => `&tag=team-${Math.floor(Math.random() * 20)}`;
  const read = get(() => `/api/v1/monitors/${pick(state.ids)}`);
  const list = get(() => `/api/v1/monitors?${pick([...filters, ...searches])}${Math.random() < 0.5 ? tag() : ''}`);
  const update: Request = {
    method: 'PATCH',
    setupRequest: (r) => ({
      ...r,
      path: `/api/v1/monitors/${pick(state.ids.slice(ACTIVE * 2))}`,
      headers: headers(),
      body: JSON.stringify({ name: `renamed ${++n}`, tags: [`team-${n % 20}`] }),
    }),
  };
  const create: Request = {
    method: 'POST',
    setupRequest: (r) => ({
      ...r,
      path: '/api/v1/monitors',
      headers: headers(),
      body: JSON.stringify({ target: `https://new-${++n}.example.com`, tags: ['new'], paused: true }),
    }),
  };
  return {
    read: [read],
    'list filter': [get(() => `/api/v1/monitors?${pick(filters)}`)],
    'list q': [get(() => `/api/v1/monitors?${pick(searches)}`)],
    'list + tag': [get(() => `/api/v1/monitors?${pick([...filters, ...searches])}${tag()}`)],
    patch: [update],
    create: [create],
    mix: [...Array<Request>(13).fill(read), list, list, list, list, update, update, create],
  };
}

interface Figure {
  rps: number;
  cpuMsPerRequest: number;
  p99: number;
  non2xx: number;
}

/** Loads `url` (2 s of warm-up, then SECONDS) and measures `pid`'s CPU per request over the measured part. */
async function measure(pid: number, idleMsPerS: number, url: string, requests?: Request[]): Promise<Figure> {
  const options = { url, connections: CONNECTIONS, ...(requests && { requests }) };
  await autocannon({ ...options, duration: 2 });
  const cpu0 = cpuMsOf(pid);
  const t0 = performance.now();
  const r = await autocannon({ ...options, duration: SECONDS });
  const cpu = cpuMsOf(pid) - cpu0 - (idleMsPerS * (performance.now() - t0)) / 1000;
  return {
    rps: Math.round(r.requests.average),
    cpuMsPerRequest: cpu / r.requests.total,
    p99: r.latency.p99,
    non2xx: r.non2xx + r.errors + r.timeouts,
  };
}

const target = createServer((req, res) => {
  req.resume();
  res.end('ok');
});
await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
const targetUrl = `http://127.0.0.1:${(target.address() as { port: number }).port}/health`;
const bare = fork(join(HERE, 'bench/api/api.servers.ts'), ['bare'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const barePort = await new Promise<number>((resolve) => bare.once('message', (m: { port: number }) => resolve(m.port)));
// Whatever ends this process (a failure included) ends the bare server too.
process.once('exit', () => bare.kill());
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(1));

const templateDir = process.env.BENCH_TEMPLATE ?? mkdtempSync(join(tmpdir(), 'tocsin-op-cost-template-'));
let state: State;
if (existsSync(join(templateDir, 'bench-state.json'))) {
  state = JSON.parse(readFileSync(join(templateDir, 'bench-state.json'), 'utf8')) as State;
  // The active monitors check the template's target: point it at this run's (same port if free is not guaranteed).
  if (state.target !== targetUrl) {
    target.close();
    const port = Number(new URL(state.target).port);
    await new Promise<void>((resolve, reject) => {
      target.once('error', reject);
      target.listen(port, '127.0.0.1', resolve);
    });
  }
} else {
  process.stderr.write(`making the template in ${templateDir} (10,000 monitors through the API)…\n`);
  state = await makeTemplate(templateDir, targetUrl);
}
const wanted = process.env.BENCH_OPS?.split(',');
const ops = Object.entries(operations(state)).filter(([name]) => !wanted || wanted.includes(name));

console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, node ${process.version}`);
console.log(`${CONNECTIONS} connections, ${SECONDS} s per load, ${ROUNDS} rounds, trees: ${TREES.join(' ')}\n`);
console.log(
  '| UTC | load | round | tree | operation | req/s | CPU ms / request | × bare CPU | ratio to bare req/s | p99 ms | errors |',
);
console.log('|---|---:|---:|---|---|---:|---:|---:|---:|---:|---:|');
try {
  for (let round = 1; round <= ROUNDS; round++) {
    const order = round % 2 === 1 ? TREES : [...TREES].reverse();
    for (const tree of order) {
      const dataDir = mkdtempSync(join(tmpdir(), 'tocsin-op-cost-'));
      cpSync(templateDir, dataDir, { recursive: true });
      const serve = tree.startsWith('floor')
        ? await startFloor(dataDir, state.keys, tree === 'floor-memory')
        : await startServe(tree, dataDir);
      try {
        const pid = serve.child.pid!;
        await sleep(5000); // the overdue checks of the copied schedule run first
        const idle0 = cpuMsOf(pid);
        await sleep(5000);
        const idleMsPerS = (cpuMsOf(pid) - idle0) / 5;
        const bareFigure = await measure(bare.pid!, 0, `http://127.0.0.1:${barePort}/`);
        const row = (name: string, f: Figure) =>
          console.log(
            `| ${new Date().toISOString().slice(11, 16)} | ${loadavg()[0]!.toFixed(1)} | ${round} | ${tree} | ${name} | ${f.rps} | ${f.cpuMsPerRequest.toFixed(3)} | ${(f.cpuMsPerRequest / bareFigure.cpuMsPerRequest).toFixed(1)} | ${(f.rps / bareFigure.rps).toFixed(2)} | ${f.p99} | ${f.non2xx} |`,
          );
        row('bare Fastify GET /', bareFigure);
        for (const [name, requests] of ops) row(name, await measure(pid, idleMsPerS, `${serve.origin}/`, requests));
      } finally {
        await stop(serve.child);
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
  }
} finally {
  await stop(bare);
  target.close();
  if (!process.env.BENCH_TEMPLATE) rmSync(templateDir, { recursive: true, force: true });
}
