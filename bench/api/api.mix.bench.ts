/**
 * An API mix as users produce it, against a bare Fastify hello-world: random reads across 10,000 monitors,
 * lists with filters, creates and updates (not one monitor read again and again). Tocsin runs on SQLite with
 * BENCH_MONITORS monitors made through the service; each server in a child process of its own.
 *
 *   node bench/api/api.mix.bench.ts
 *   BENCH_MONITORS=10000 BENCH_CONNECTIONS=50 BENCH_SECONDS=10 BENCH_ROUNDS=3 node bench/api/api.mix.bench.ts
 *   BENCH_OTHER_ROOT=/path/to/another/tree  → also loads that tree's Tocsin (e.g. a variant of a hot path) in
 *                                             each round, for an interleaved comparison
 *
 * Per connection, every 20 requests: 14 reads of a random monitor, 3 filtered lists, 2 updates, 1 create.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const MONITORS = Number(process.env.BENCH_MONITORS ?? 10_000);
const HERE = fileURLToPath(new URL('../../', import.meta.url));
const OTHER_ROOT = process.env.BENCH_OTHER_ROOT;

interface Server {
  name: string;
  child: ChildProcess;
  port: number;
  keys?: string[];
  monitorIds?: string[];
}

interface Figures {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  total: number;
  non2xx: number;
  errors: number;
}

async function startServer(name: string, root: string, mode: 'bare' | 'tocsin'): Promise<Server> {
  const child = fork(join(root, 'bench/api/api.servers.ts'), [mode], {
    cwd: root,
    env: { ...process.env, BENCH_MONITORS: String(MONITORS) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const msg = await new Promise<Omit<Server, 'name' | 'child'>>((resolve, reject) => {
    child.once('message', (m: Omit<Server, 'name' | 'child'>) => resolve(m));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
  });
  return { name, child, ...msg };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

/** One entry of autocannon's `requests`: `setupRequest` fills in the request just before it is sent. */
interface RequestParams {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}
interface Request {
  method: string;
  setupRequest: (r: RequestParams) => RequestParams;
}

/** The mix, each request picking its monitor, filter and key at random when it is sent. */
function mixOf(server: Server): Request[] {
  const ids = server.monitorIds!;
  const keys = server.keys!;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!;
  const headers = () => ({ authorization: `Bearer ${pick(keys)}`, 'content-type': 'application/json' });
  let n = 0;
  const read: Request = {
    method: 'GET',
    setupRequest: (r) => ({ ...r, path: `/api/v1/monitors/${pick(ids)}`, headers: headers() }),
  };
  const filters = [
    'status=pending&limit=50',
    'type=http&limit=20',
    `tag=team-${Math.floor(Math.random() * 20)}&limit=50`,
    'environment=staging&limit=50',
    'q=api-1&limit=20',
  ];
  const list: Request = {
    method: 'GET',
    setupRequest: (r) => ({ ...r, path: `/api/v1/monitors?${pick(filters)}`, headers: headers() }),
  };
  const update: Request = {
    method: 'PATCH',
    setupRequest: (r) => ({
      ...r,
      path: `/api/v1/monitors/${pick(ids)}`,
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
      body: JSON.stringify({ target: `https://new-${++n}.example.com`, tags: ['new'] }),
    }),
  };
  return [...Array(14).fill(read), list, list, list, update, update, create] as Request[];
}

async function load(server: Server): Promise<Figures> {
  const url = `http://127.0.0.1:${server.port}/`;
  const requests = server.monitorIds ? mixOf(server) : undefined;
  const options = { url, connections: CONNECTIONS, ...(requests && { requests }) };
  // A short warm-up so JIT and caches settle before the measured run.
  await autocannon({ ...options, duration: 2 });
  const r = await autocannon({ ...options, duration: SECONDS });
  return {
    name: server.name,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    total: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
  };
}

const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 0 });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

console.log(
  `machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, node ${process.version}, ${new Date().toISOString()}`,
);
console.log(
  `load: ${CONNECTIONS} connections, ${SECONDS} s per load (after 2 s warm-up), ${ROUNDS} rounds, ${MONITORS} monitors\n`,
);

const servers: Server[] = [];
try {
  servers.push(await startServer('bare Fastify GET /', HERE, 'bare'));
  servers.push(await startServer('Tocsin mix (this tree)', HERE, 'tocsin'));
  if (OTHER_ROOT) servers.push(await startServer(`Tocsin mix (${OTHER_ROOT})`, OTHER_ROOT, 'tocsin'));
  const rounds: Figures[][] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Rotate the order: the machine's speed drifts, so loads compared are taken moments apart in turn.
    const order = servers.map((_, i) => servers[(i + round) % servers.length]!);
    const figures: Figures[] = [];
    for (const s of order) figures.push(await load(s));
    rounds.push(servers.map((s) => figures.find((f) => f.name === s.name)!));
  }
  console.log('| round | server | req/s | p50 ms | p99 ms | requests | non-2xx | errors | ratio to bare |');
  console.log('|---:|---|---:|---:|---:|---:|---:|---:|---:|');
  rounds.forEach((figures, i) => {
    for (const f of figures) {
      const ratio = f === figures[0] ? '' : (f.rps / figures[0]!.rps).toFixed(2);
      console.log(
        `| ${i + 1} | ${f.name} | ${fmt(f.rps)} | ${f.p50} | ${f.p99} | ${fmt(f.total)} | ${f.non2xx} | ${f.errors} | ${ratio} |`,
      );
    }
  });
  for (let s = 1; s < servers.length; s++) {
    const ratios = rounds.map((figures) => figures[s]!.rps / figures[0]!.rps);
    console.log(`\n${servers[s]!.name} / bare, median of ${ROUNDS} rounds: ${median(ratios).toFixed(2)}`);
  }
} finally {
  await Promise.all(servers.map((s) => stop(s.child)));
}
