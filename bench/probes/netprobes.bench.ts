/**
 * CPU per check of the icmp, udp and domain probes beside the http probe: 1,000 checks per type (1,000 monitors
 * checked once), 50 at a time, against loopback peers in a child process (an HTTP server that also answers RDAP, a
 * UDP echo). CPU is this process's plus that of the child processes it waited for (the icmp probe's `ping`, read from
 * /proc/self/stat cutime/cstime, 10 ms ticks); the peers' CPU is not counted.
 *   node bench/probes/netprobes.bench.ts [--checks 1000] [--concurrency 50] [--rounds 2]
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createProbeRegistry } from '../../src/modules/checks/probes/index.ts';
import type { ProbeTarget } from '../../src/modules/checks/probes/index.ts';

const { values: args } = parseArgs({
  options: {
    checks: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '2' },
  },
});
const CHECKS = Number(args.checks);
const CONCURRENCY = Number(args.concurrency);
const ROUNDS = Number(args.rounds);

/** CPU ms of waited-for children (ping), from /proc (Linux); 0 elsewhere. */
function childCpuMs(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 16 and 17 of stat(5) (cutime, cstime) are at 13 and 14 after the command name.
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return 0;
  }
}

async function startPeers(): Promise<{ child: ChildProcess; http: number; udp: number }> {
  const child = fork(fileURLToPath(new URL('./netprobes.peers.ts', import.meta.url)), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ports = await new Promise<{ http: number; udp: number }>((resolve, reject) => {
    child.once('message', (m: { http: number; udp: number }) => resolve(m));
    child.once('exit', (code) => reject(new Error(`peers exited with ${code}`)));
  });
  return { child, ...ports };
}

interface Figures {
  type: string;
  checks: number;
  down: number;
  seconds: number;
  cpuMsPerCheck: number;
  childCpuMsPerCheck: number;
}

async function measure(type: string, targets: ProbeTarget[]): Promise<Figures> {
  const registry = createProbeRegistry();
  const ctx = { now: () => Date.now(), allowPrivateTargets: true };
  let next = 0;
  let down = 0;
  const cpu0 = process.cpuUsage();
  const child0 = childCpuMs();
  const t0 = performance.now();
  const worker = async (): Promise<void> => {
    while (next < targets.length) {
      const target = targets[next++]!;
      const obs = await registry.run(target, ctx);
      if (obs.status !== 'up') down++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const cpu = process.cpuUsage(cpu0);
  const childMs = childCpuMs() - child0;
  const own = (cpu.user + cpu.system) / 1000;
  return {
    type,
    checks: targets.length,
    down,
    seconds: Math.round(performance.now() - t0) / 1000,
    cpuMsPerCheck: Math.round(((own + childMs) / targets.length) * 1000) / 1000,
    childCpuMsPerCheck: Math.round((childMs / targets.length) * 1000) / 1000,
  };
}

function targetsOf(type: string, peers: { http: number; udp: number }): ProbeTarget[] {
  const common = { timeout_ms: 10_000, assertions: [] };
  return Array.from({ length: CHECKS }, (_, i): ProbeTarget => {
    const id = `mon_bench_${type}_${i}`;
    switch (type) {
      case 'http':
        return {
          id,
          type: 'http',
          target: `http://127.0.0.1:${peers.http}/m/${i}`,
          interval_seconds: 60,
          config: { ...common, method: 'GET', headers: {}, body: null, follow_redirects: true, verify_tls: true },
        };
      case 'icmp':
        return { id, type: 'icmp', target: '127.0.0.1', interval_seconds: 60, config: { ...common, count: 3 } };
      case 'udp':
        return {
          id,
          type: 'udp',
          target: `127.0.0.1:${peers.udp}`,
          interval_seconds: 60,
          config: { ...common, send: `ping ${i}`, send_encoding: 'text', expect: 'pong' },
        };
      default:
        return {
          id,
          type: 'domain',
          target: `d${i}.test`,
          interval_seconds: 3600,
          config: {
            timeout_ms: 10_000,
            alert_days_before_expiry: 30,
            rdap_base_url: `http://127.0.0.1:${peers.http}/rdap`,
          },
        };
    }
  });
}

const peers = await startPeers();
console.log(
  `netprobes bench: ${CHECKS} checks per type, ${CONCURRENCY} concurrent, ${ROUNDS} rounds; Node ${process.version}, ` +
    `${cpus().length}× ${cpus()[0]?.model ?? '?'}, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
);
const types = ['http', 'icmp', 'udp', 'domain'];
for (const type of types) await measure(type, targetsOf(type, peers).slice(0, 50)); // warm-up
const all: Figures[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? types : [...types].reverse();
  for (const type of order) {
    const f = await measure(type, targetsOf(type, peers));
    all.push(f);
    console.log(JSON.stringify({ round, ...f }));
  }
}
for (const type of types) {
  const runs = all.filter((f) => f.type === type).map((f) => f.cpuMsPerCheck);
  runs.sort((a, b) => a - b);
  console.log(`${type.padEnd(7)} CPU ms per check: ${runs.join(', ')} (median ${runs[Math.floor(runs.length / 2)]})`);
}
peers.child.kill();
