/**
 * HTTP probe cost versus a bare node:http client, both on fresh connections (agent:false), 50 concurrent,
 * against a bare node:http server in a child process. Usage: node bench/probes/probes.bench.ts [seconds]
 * (default 10 per loop; BENCH_SECONDS also works). Goal: probe checks/s ≥ 0.7 × bare req/s.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { createProbeRegistry } from '../../src/modules/checks/probes/index.ts';
import type { ProbeTarget } from '../../src/modules/checks/probes/index.ts';

const SECONDS = Number(process.argv[2] ?? process.env.BENCH_SECONDS ?? 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);

interface LoopResult {
  name: string;
  ops: number;
  errors: number;
  seconds: number;
  cpuMs: number;
}

async function startTarget(): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(fileURLToPath(new URL('./target.server.ts', import.meta.url)), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m: { port: number }) => resolve(m.port));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`target exited with ${code}`)));
  });
  return { child, port };
}

async function loop(name: string, once: () => Promise<boolean>, seconds: number): Promise<LoopResult> {
  let ops = 0;
  let errors = 0;
  const deadline = performance.now() + seconds * 1000;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const worker = async (): Promise<void> => {
    while (performance.now() < deadline) {
      if (await once()) ops++;
      else errors++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return { name, ops, errors, seconds: elapsed, cpuMs: (cpu.user + cpu.system) / 1000 };
}

function bareOnce(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/', method: 'GET', agent: false }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode === 200));
      res.once('error', () => resolve(false));
    });
    req.once('error', () => resolve(false));
    req.end();
  });
}

function report(r: LoopResult): { rate: number; cpuPerOp: number } {
  const rate = r.ops / r.seconds;
  const cpuPerOp = r.cpuMs / Math.max(1, r.ops + r.errors);
  console.log(
    `${r.name.padEnd(28)} ${rate.toFixed(0).padStart(7)} /s   ${cpuPerOp.toFixed(3)} CPU ms/op   (${r.ops} ok, ${r.errors} errors, ${r.seconds.toFixed(1)} s)`,
  );
  return { rate, cpuPerOp };
}

function add(into: LoopResult | undefined, r: LoopResult): LoopResult {
  if (!into) return { ...r };
  return {
    name: into.name,
    ops: into.ops + r.ops,
    errors: into.errors + r.errors,
    seconds: into.seconds + r.seconds,
    cpuMs: into.cpuMs + r.cpuMs,
  };
}

async function main(): Promise<void> {
  const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 4));
  console.log(
    `probes bench: ${CONCURRENCY} concurrent, ${SECONDS} s per loop in ${rounds} interleaved rounds, fresh connection per request, Node ${process.version}`,
  );
  const registry = createProbeRegistry();
  const ctx = { now: () => Date.now(), allowPrivateTargets: true };

  // One target process per loop kind, so neither inherits the other's TIME_WAIT sockets; rounds alternate
  // (bare, probe, probe, bare, …) so background load drifts affect both the same way.
  const a = await startTarget();
  const b = await startTarget();
  const target: ProbeTarget = {
    id: 'mon_bench',
    type: 'http',
    target: `http://127.0.0.1:${b.port}/`,
    interval_seconds: 60,
    config: {
      method: 'GET',
      headers: {},
      body: null,
      timeout_ms: 10_000,
      follow_redirects: true,
      verify_tls: true,
      assertions: [],
    },
  };
  const bareOnceA = (): Promise<boolean> => bareOnce(a.port);
  const probeOnce = async (): Promise<boolean> => (await registry.run(target, ctx)).status === 'up';
  await loop('warm-up', bareOnceA, 0.5);
  await loop('warm-up', probeOnce, 0.5);
  let bareTotal: LoopResult | undefined;
  let probeTotal: LoopResult | undefined;
  const slice = SECONDS / rounds;
  for (let i = 0; i < rounds; i++) {
    const order = i % 2 === 0 ? ['bare', 'probe'] : ['probe', 'bare'];
    for (const kind of order) {
      if (kind === 'bare') bareTotal = add(bareTotal, await loop('bare node:http (agent:false)', bareOnceA, slice));
      else probeTotal = add(probeTotal, await loop('http probe', probeOnce, slice));
    }
  }
  a.child.kill();
  b.child.kill();
  const bare = report(bareTotal!);
  const probe = report(probeTotal!);
  const ratio = probe.rate / bare.rate;
  console.log(
    `ratio probe/bare throughput: ${ratio.toFixed(2)} (goal ≥ 0.70)   CPU per check vs per request: ${(probe.cpuPerOp / bare.cpuPerOp).toFixed(2)}×`,
  );
}

await main();
