/**
 * CPU per check of the postgres, mysql and redis probes beside the http probe: 1,000 monitors per type (distinct
 * targets objects, checked round-robin), 50 checks at a time, each check a fresh connection with its login and query,
 * against the local servers (PostgreSQL, MySQL/MariaDB and Redis of the machine; the http target in a child process).
 * The CPU is this process's (the checks'), not the servers'. Usage:
 *   node bench/probes/databases.bench.ts [seconds per type, default 10]
 * Env: BENCH_POSTGRES (host:port, default 127.0.0.1:5432, user postgres), BENCH_MYSQL (127.0.0.1:3306, user root, no
 * password), BENCH_REDIS (127.0.0.1:6379); BENCH_ROUNDS (default 2, the types interleaved per round).
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createProbeRegistry } from '../../src/modules/checks/probes/index.ts';
import type { ProbeTarget, ProbeType } from '../../src/modules/checks/probes/index.ts';

const SECONDS = Number(process.argv[2] ?? process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 2));
const CONCURRENCY = 50;
const MONITORS = 1000;

const child = fork(fileURLToPath(new URL('./target.server.ts', import.meta.url)), [], {
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const httpPort = await new Promise<number>((resolve) =>
  child.once('message', (m: { port: number }) => resolve(m.port)),
);

const common = { timeout_ms: 10_000, failure_threshold: 2, success_threshold: 1 };
const configs: Record<string, { type: ProbeType; target: string; config: Record<string, unknown> }> = {
  http: {
    type: 'http',
    target: `http://127.0.0.1:${httpPort}/`,
    config: {
      ...common,
      method: 'GET',
      headers: {},
      body: null,
      follow_redirects: true,
      verify_tls: true,
      assertions: [],
    },
  },
  postgres: {
    type: 'postgres',
    target: process.env.BENCH_POSTGRES ?? '127.0.0.1:5432',
    config: { ...common, tls_mode: 'disable', username: 'postgres', query: 'SELECT 1', expected_value: '1' },
  },
  mysql: {
    type: 'mysql',
    target: process.env.BENCH_MYSQL ?? '127.0.0.1:3306',
    config: { ...common, tls_mode: 'disable', username: 'root', query: 'SELECT 1', expected_value: '1' },
  },
  redis: {
    type: 'redis',
    target: process.env.BENCH_REDIS ?? '127.0.0.1:6379',
    config: { ...common, tls_mode: 'disable', query: 'PING', expected_value: 'PONG' },
  },
};

const registry = createProbeRegistry();
const ctx = { now: () => Date.now(), allowPrivateTargets: true };

interface Totals {
  ok: number;
  failed: number;
  seconds: number;
  cpuMs: number;
  firstError: string | null;
}

async function loop(monitors: ProbeTarget[], seconds: number, into: Totals): Promise<void> {
  let next = 0;
  const deadline = performance.now() + seconds * 1000;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const worker = async (): Promise<void> => {
    while (performance.now() < deadline) {
      const obs = await registry.run(monitors[next++ % monitors.length]!, ctx);
      if (obs.status === 'up') into.ok++;
      else {
        into.failed++;
        into.firstError ??= `${obs.error?.code}: ${obs.error?.message}`;
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const cpu = process.cpuUsage(cpu0);
  into.seconds += (performance.now() - t0) / 1000;
  into.cpuMs += (cpu.user + cpu.system) / 1000;
}

const types = Object.keys(configs);
const monitorsOf = new Map(
  types.map((name) => [
    name,
    Array.from({ length: MONITORS }, (_, i) => ({
      id: `mon_${name}_${i}`,
      interval_seconds: 60,
      ...configs[name]!,
    })),
  ]),
);
const totals = new Map(types.map((t) => [t, { ok: 0, failed: 0, seconds: 0, cpuMs: 0, firstError: null } as Totals]));
console.log(
  `database probes bench: ${MONITORS} monitors per type, ${CONCURRENCY} concurrent, fresh connection per check, ` +
    `${SECONDS} s per type in ${ROUNDS} rounds, Node ${process.version}`,
);
for (const name of types)
  await loop(monitorsOf.get(name)!, 0.5, { ok: 0, failed: 0, seconds: 0, cpuMs: 0, firstError: null });
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? types : [...types].reverse();
  for (const name of order) await loop(monitorsOf.get(name)!, SECONDS / ROUNDS, totals.get(name)!);
}
child.kill();
const httpCpu = totals.get('http')!.cpuMs / Math.max(1, totals.get('http')!.ok + totals.get('http')!.failed);
for (const [name, t] of totals) {
  const checks = t.ok + t.failed;
  const cpuPerCheck = t.cpuMs / Math.max(1, checks);
  console.log(
    `${name.padEnd(9)} ${(checks / t.seconds).toFixed(0).padStart(6)} checks/s  ${cpuPerCheck.toFixed(3)} CPU ms/check ` +
      `(${(cpuPerCheck / httpCpu).toFixed(2)}× http)  ${t.ok} up, ${t.failed} down${t.firstError ? ` (${t.firstError})` : ''}`,
  );
}
