/**
 * Heartbeat pings against a real `tocsin serve` (SQLite, default config, as the README starts it): heartbeat monitors
 * made through the API, then
 * - a burst: `--burst-rate` pings/s (default 10,000) for `--burst-seconds` (10), open loop over `--connections`;
 * - a steady load: `--steady-rate` pings/s (1,000) for `--steady-seconds` (10), p50/p99/max of the acknowledgement.
 * Every 200 is a ping stored with its monitor's state (the route answers after the commit): after the server stops,
 * the rows of `heartbeat_signal` are counted and must equal the acknowledged pings.
 *
 * Each phase also prints the server's CPU (utime + stime of its process, /proc) per acknowledged ping: a figure that
 * holds on a loaded machine, where the rates do not.
 *
 *   node bench/heartbeats/heartbeats.bench.ts [--monitors 100] [--burst-rate 10000] [--steady-rate 1000]
 *     [--cpu-prof DIR] (a V8 CPU profile of the server, written when it stops)
 *     [--log-level info] (the default configuration's: a log line per request, to standard output = /dev/null here)
 *     [--bare] (then the same phases against a bare Fastify server that stores nothing: bare-ping.server.ts, the
 *     ceiling of HTTP with this client on this machine)
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import BetterSqlite3 from 'better-sqlite3';
import { Pool } from 'undici';
import { SERVICE_NODE_FLAGS } from '../support/service-flags.ts';

const { values: args } = parseArgs({
  options: {
    monitors: { type: 'string', default: '100' },
    'burst-rate': { type: 'string', default: '10000' },
    'burst-seconds': { type: 'string', default: '10' },
    'steady-rate': { type: 'string', default: '1000' },
    'steady-seconds': { type: 'string', default: '10' },
    connections: { type: 'string', default: '64' },
    'cpu-prof': { type: 'string' },
    bare: { type: 'boolean', default: false },
    // The default configuration logs every request at `info` (to standard output, here /dev/null); `warn` is what
    // earlier runs of this bench used.
    'log-level': { type: 'string', default: 'info' },
  },
});

const bin = new URL('../../bin/tocsin.js', import.meta.url).pathname;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

interface Phase {
  sent: number;
  acked: number;
  failed: number;
  seconds: number;
  latencies: number[];
}

/** Sends `rate` pings/s for `seconds` in 1 ms ticks, not waiting for answers (open loop). */
async function load(pool: Pool, paths: string[], rate: number, seconds: number): Promise<Phase> {
  const phase: Phase = { sent: 0, acked: 0, failed: 0, seconds: 0, latencies: [] };
  const inflight: Promise<void>[] = [];
  const start = performance.now();
  const end = start + seconds * 1000;
  let n = 0;
  while (performance.now() < end) {
    const due = Math.floor(((performance.now() - start) / 1000) * rate);
    for (; n < due; n++) {
      const path = paths[n % paths.length]!;
      const t0 = performance.now();
      phase.sent++;
      inflight.push(
        pool
          .request({ method: 'POST', path, body: `run ${n}`, headers: { 'content-type': 'text/plain' } })
          .then(async (res) => {
            await res.body.text();
            if (res.statusCode === 200) {
              phase.acked++;
              phase.latencies.push(performance.now() - t0);
            } else phase.failed++;
          })
          .catch(() => {
            phase.failed++;
          }),
      );
    }
    await new Promise((r) => setImmediate(r));
  }
  await Promise.all(inflight);
  phase.seconds = (performance.now() - start) / 1000;
  phase.latencies.sort((a, b) => a - b);
  return phase;
}

/** CPU time (user + system) of a process so far, in ms (Linux: fields 14 and 15 of /proc/<pid>/stat, in ticks of 10 ms). */
function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function report(name: string, p: Phase, cpuMs: number): void {
  const f = (ms: number) => `${ms.toFixed(1)} ms`;
  console.log(
    `${name}: sent ${p.sent}, acknowledged ${p.acked} (${(p.acked / p.seconds).toFixed(0)}/s over ${p.seconds.toFixed(1)} s), ` +
      `failed ${p.failed}; ack p50 ${f(percentile(p.latencies, 50))}, p99 ${f(percentile(p.latencies, 99))}, ` +
      `max ${f(p.latencies.at(-1) ?? NaN)}; server CPU ${(cpuMs / Math.max(1, p.acked)).toFixed(3)} ms per ping`,
  );
}

/** The same two phases against the bare Fastify server (bare-ping.server.ts). */
async function runBare(): Promise<void> {
  const child = spawn(process.execPath, [new URL('./bare-ping.server.ts', import.meta.url).pathname], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout.once('data', (chunk: Buffer) => resolve((JSON.parse(chunk.toString()) as { port: number }).port));
      child.once('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
    });
    const paths = Array.from({ length: Number(args.monitors) }, (_, i) => `/api/v1/heartbeats/tok${i}`);
    const pool = new Pool(`http://127.0.0.1:${port}`, { connections: Number(args.connections), pipelining: 1 });
    let cpu = cpuMsOf(child.pid!);
    const burst = await load(pool, paths, Number(args['burst-rate']), Number(args['burst-seconds']));
    report(`bare Fastify, burst ${args['burst-rate']}/s`, burst, cpuMsOf(child.pid!) - cpu);
    await new Promise((r) => setTimeout(r, 2000));
    cpu = cpuMsOf(child.pid!);
    const steady = await load(pool, paths, Number(args['steady-rate']), Number(args['steady-seconds']));
    report(`bare Fastify, steady ${args['steady-rate']}/s`, steady, cpuMsOf(child.pid!) - cpu);
    await pool.close();
  } finally {
    child.kill('SIGTERM');
  }
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tocsin-hb-bench-'));
  const port = await freePort();
  const env = {
    ...process.env,
    TOCSIN_DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: args['log-level'],
  };
  console.log(
    `load average before: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const prof = args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${args['cpu-prof']}`] : [];
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, ...prof, bin, 'serve'], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      if (i > 600) throw new Error('not ready');
      try {
        if ((await fetch(`${base}/readyz`)).status === 200) break;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const boot = execFileSync(
      process.execPath,
      [bin, 'admin', 'bootstrap', '--org', 'Bench', '--email', 'bench@example.com', '--plan', 'enterprise'],
      { env, encoding: 'utf8' },
    );
    const apiKey = (JSON.parse(boot.trim().split('\n').at(-1)!) as { api_key: string }).api_key;
    const paths: string[] = [];
    for (let i = 0; i < Number(args.monitors); i++) {
      const res = await fetch(`${base}/api/v1/monitors`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'heartbeat', name: `job ${i}`, config: { schedule: { every_seconds: 3600 } } }),
      });
      if (res.status !== 201) throw new Error(`create: ${res.status} ${await res.text()}`);
      paths.push(new URL(((await res.json()) as { target: string }).target).pathname);
    }
    const pool = new Pool(base, { connections: Number(args.connections), pipelining: 1 });
    let cpu = cpuMsOf(child.pid!);
    const burst = await load(pool, paths, Number(args['burst-rate']), Number(args['burst-seconds']));
    report(`burst ${args['burst-rate']}/s`, burst, cpuMsOf(child.pid!) - cpu);
    await new Promise((r) => setTimeout(r, 2000));
    cpu = cpuMsOf(child.pid!);
    const steady = await load(pool, paths, Number(args['steady-rate']), Number(args['steady-seconds']));
    report(`steady ${args['steady-rate']}/s`, steady, cpuMsOf(child.pid!) - cpu);
    await pool.close();
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    const db = new BetterSqlite3(join(dataDir, 'tocsin.db'), { readonly: true });
    const rows = (db.prepare('select count(*) as n from heartbeat_signal').get() as { n: number }).n;
    db.close();
    const acked = burst.acked + steady.acked;
    console.log(
      `rows in heartbeat_signal: ${rows}; acknowledged: ${acked} (${rows >= acked ? 'every ack stored' : 'LOST'})`,
    );
    console.log(
      `load average after: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
if (args.bare) await runBare();
