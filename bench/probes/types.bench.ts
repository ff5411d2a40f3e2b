/**
 * CPU per check of the smtp and websocket probes beside http's, at 1,000 monitors of each type (distinct config
 * objects, as the engine holds them), 50 checks at a time, against peers in a child process (types.targets.ts), so
 * the figures are the probing process's alone. Rounds interleave the kinds (load drift hits them alike).
 *   node bench/probes/types.bench.ts [rounds]   (default 3; each round checks every monitor of every kind once)
 */
import { fork } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createProbeRegistry, type ProbeTarget } from '../../src/modules/checks/probes/index.ts';

const ROUNDS = Number(process.argv[2] ?? process.env.BENCH_ROUNDS ?? 3);
const MONITORS = Number(process.env.BENCH_MONITORS ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);

interface Peers {
  ports: { http: number; https: number; smtp: number; smtpTls: number; ws: number };
  ca: string;
}

const child = fork(fileURLToPath(new URL('./types.targets.ts', import.meta.url)), [], {
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const peers = await new Promise<Peers>((resolve, reject) => {
  child.once('message', (m) => resolve(m as Peers));
  child.once('exit', (code) => reject(new Error(`targets exited with ${code}`)));
});

const common = { timeout_ms: 10_000, failure_threshold: 2, success_threshold: 1, assertions: [] };
const kinds: Record<string, (i: number) => ProbeTarget> = {
  http: (i) => ({
    id: `mon_http_${i}`,
    type: 'http',
    target: `http://127.0.0.1:${peers.ports.http}/`,
    interval_seconds: 60,
    config: { ...common, method: 'GET', headers: {}, body: null, follow_redirects: true, verify_tls: true },
  }),
  'https (TLS baseline)': (i) => ({
    id: `mon_https_${i}`,
    type: 'http',
    target: `https://127.0.0.1:${peers.ports.https}/`,
    interval_seconds: 60,
    config: {
      ...common,
      method: 'GET',
      headers: {},
      body: null,
      follow_redirects: true,
      verify_tls: true,
      ca_certificate: peers.ca,
    },
  }),
  'smtp (none)': (i) => ({
    id: `mon_smtp_${i}`,
    type: 'smtp',
    target: `127.0.0.1:${peers.ports.smtp}`,
    interval_seconds: 60,
    config: { ...common, tls_mode: 'none', alert_days_before_expiry: 14 },
  }),
  'smtp (starttls)': (i) => ({
    id: `mon_smtps_${i}`,
    type: 'smtp',
    target: `127.0.0.1:${peers.ports.smtpTls}`,
    interval_seconds: 60,
    config: { ...common, tls_mode: 'starttls', alert_days_before_expiry: 14, ca_certificate: peers.ca },
  }),
  websocket: (i) => ({
    id: `mon_ws_${i}`,
    type: 'websocket',
    target: `ws://127.0.0.1:${peers.ports.ws}/echo`,
    interval_seconds: 60,
    config: { ...common, headers: {}, send: 'ping', expect: 'ping', verify_tls: true },
  }),
  'websocket (upgrade only)': (i) => ({
    id: `mon_wsu_${i}`,
    type: 'websocket',
    target: `ws://127.0.0.1:${peers.ports.ws}/silent`,
    interval_seconds: 60,
    config: { ...common, headers: {}, send: null, expect: null, verify_tls: true },
  }),
};

const registry = createProbeRegistry();
const ctx = { now: () => Date.now(), allowPrivateTargets: true };
const monitors = Object.fromEntries(
  Object.entries(kinds).map(([kind, make]) => [kind, Array.from({ length: MONITORS }, (_, i) => make(i))]),
);

/** Checks every monitor of a kind once, CONCURRENCY at a time: CPU ms and wall ms of the whole pass. */
async function pass(list: ProbeTarget[]): Promise<{ cpuMs: number; wallMs: number; down: number; sample: string }> {
  let next = 0;
  let down = 0;
  let sample = '';
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < list.length) {
        const obs = await registry.run(list[next++]!, ctx);
        if (obs.status !== 'up') {
          down++;
          sample ||= `${obs.error?.code}: ${obs.error?.message}`;
        }
      }
    }),
  );
  const cpu = process.cpuUsage(cpu0);
  return { cpuMs: (cpu.user + cpu.system) / 1000, wallMs: performance.now() - t0, down, sample };
}

console.log(
  `probe types bench: ${MONITORS} monitors per kind, ${CONCURRENCY} concurrent, ${ROUNDS} rounds, Node ${process.version}, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
for (const list of Object.values(monitors)) await pass(list.slice(0, 100)); // warm-up
const totals = new Map<string, { cpuMs: number; wallMs: number; checks: number; down: number; sample: string }>();
const names = Object.keys(monitors);
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? names : [...names].reverse();
  for (const kind of order) {
    const r = await pass(monitors[kind]!);
    const t = totals.get(kind) ?? { cpuMs: 0, wallMs: 0, checks: 0, down: 0, sample: '' };
    totals.set(kind, {
      cpuMs: t.cpuMs + r.cpuMs,
      wallMs: t.wallMs + r.wallMs,
      checks: t.checks + MONITORS,
      down: t.down + r.down,
      sample: t.sample || r.sample,
    });
  }
}
const httpCpu = totals.get('http')!.cpuMs / totals.get('http')!.checks;
for (const [kind, t] of totals) {
  const perCheck = t.cpuMs / t.checks;
  console.log(
    `${kind.padEnd(26)} ${perCheck.toFixed(3)} CPU ms/check (${(perCheck / httpCpu).toFixed(2)}× http)  ` +
      `${((t.checks / t.wallMs) * 1000).toFixed(0)} checks/s  ${t.down} down${t.sample ? ` (${t.sample})` : ''}`,
  );
}
child.disconnect();
child.kill();
