/**
 * API throughput: Tocsin serving an authenticated `GET /api/v1/monitors/{id}` versus a bare Fastify
 * hello-world, same connections and duration, each server in its own process; plus the cold start of
 * `tocsin serve` until /readyz answers (median of 3, fresh data dir each time, so migrations included).
 *
 *   node bench/api/api.bench.ts
 *   BENCH_CONNECTIONS=50 BENCH_SECONDS=10 BENCH_ROUNDS=3 BENCH_COLD_RUNS=3 node bench/api/api.bench.ts
 *
 * Goal: Tocsin req/s ≥ 0.5 × bare req/s (median over rounds, each round loading both servers in turn).
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const GOAL = 0.5;
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface Figures {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  total: number;
  non2xx: number;
  errors: number;
}

async function startServer(mode: 'bare' | 'tocsin'): Promise<{ child: ChildProcess; port: number; keys?: string[] }> {
  const child = fork(fileURLToPath(new URL('./api.servers.ts', import.meta.url)), [mode], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const msg = await new Promise<{ port: number; keys?: string[] }>((resolve, reject) => {
    child.once('message', (m: { port: number; keys?: string[] }) => resolve(m));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${mode} server exited with ${code}`)));
  });
  return { child, ...msg };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

/** Each connection sends the given requests in turn (Tocsin: the same read with each of the keys). */
async function load(
  name: string,
  url: string,
  requests?: Array<{ method: 'GET'; path: string; headers: Record<string, string> }>,
): Promise<Figures> {
  // A short warm-up so JIT and caches settle before the measured run.
  await autocannon({ url, connections: CONNECTIONS, duration: 2, ...(requests && { requests }) });
  const r = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, ...(requests && { requests }) });
  return {
    name,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    total: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** Spawns `tocsin serve` with a fresh data dir and returns the ms until /readyz answers 200. */
async function coldStart(): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tocsin-cold-'));
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [join(ROOT, 'bin/tocsin.js'), 'serve'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      TOCSIN_DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_FORMAT: 'json',
    },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`tocsin serve exited with ${child.exitCode}`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}/readyz`);
        if (res.status === 200) return performance.now() - started;
      } catch {
        // not listening yet
      }
      if (performance.now() - started > 120_000) throw new Error('tocsin serve not ready after 120 s');
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    await stop(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 0 });

console.log(
  `machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, node ${process.version}, ${new Date().toISOString()}`,
);
console.log(
  `load: ${CONNECTIONS} connections, ${SECONDS} s per load (after a 2 s warm-up), ${ROUNDS} rounds of bare + Tocsin\n`,
);

// Both servers run side by side (an idle one costs nothing) and are loaded in turn, alternating which goes
// first, for ROUNDS rounds: the machine's speed drifts by tens of percent from one minute to the next, so a
// ratio is only meaningful between loads taken moments apart. The figure is the median of the rounds' ratios.
const bare = await startServer('bare');
const tocsin = await startServer('tocsin');
const rounds: Array<{ bare: Figures; tocsin: Figures; ratio: number }> = [];
try {
  const headers = { authorization: `Bearer ${tocsin.keys![0]!}` };
  const created = await fetch(`http://127.0.0.1:${tocsin.port}/api/v1/monitors`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ target: 'https://example.com' }),
  });
  if (created.status !== 201)
    throw new Error(`could not create the monitor: ${created.status} ${await created.text()}`);
  const { id } = (await created.json()) as { id: string };
  const path = `/api/v1/monitors/${id}`;
  const loadBare = () => load('bare Fastify GET /', `http://127.0.0.1:${bare.port}/`);
  const loadTocsin = () =>
    load(
      'Tocsin GET /api/v1/monitors/{id}',
      `http://127.0.0.1:${tocsin.port}${path}`,
      tocsin.keys!.map((key) => ({ method: 'GET' as const, path, headers: { authorization: `Bearer ${key}` } })),
    );
  for (let round = 0; round < ROUNDS; round++) {
    let b: Figures;
    let t: Figures;
    if (round % 2 === 0) {
      b = await loadBare();
      t = await loadTocsin();
    } else {
      t = await loadTocsin();
      b = await loadBare();
    }
    rounds.push({ bare: b, tocsin: t, ratio: t.rps / b.rps });
  }
} finally {
  await Promise.all([stop(bare.child), stop(tocsin.child)]);
}

console.log('| round | server | req/s | p50 ms | p99 ms | requests | non-2xx | errors | ratio |');
console.log('|---:|---|---:|---:|---:|---:|---:|---:|---:|');
rounds.forEach((r, i) => {
  for (const f of [r.bare, r.tocsin]) {
    console.log(
      `| ${i + 1} | ${f.name} | ${fmt(f.rps)} | ${f.p50} | ${f.p99} | ${fmt(f.total)} | ${f.non2xx} | ${f.errors} | ${f === r.tocsin ? r.ratio.toFixed(2) : ''} |`,
    );
  }
});
const ratio = median(rounds.map((r) => r.ratio));
console.log(
  `\nratio Tocsin / bare, median of ${ROUNDS} rounds: ${ratio.toFixed(2)} (goal ≥ ${GOAL}) ${ratio >= GOAL ? 'MET' : 'NOT MET'}; rounds: ${rounds.map((r) => r.ratio.toFixed(2)).join(', ')}`,
);
const non2xx = rounds.reduce((n, r) => n + r.tocsin.non2xx, 0);
if (non2xx > 0) console.log(`warning: ${non2xx} Tocsin responses were not 2xx`);

const colds: number[] = [];
for (let i = 0; i < COLD_RUNS; i++) colds.push(await coldStart());
console.log(
  `\ncold start of tocsin serve to /readyz (fresh data dir): ${colds.map((c) => `${fmt(c)} ms`).join(', ')}; median ${fmt(median(colds))} ms`,
);
