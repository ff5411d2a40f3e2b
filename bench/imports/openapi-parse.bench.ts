/**
 * Benchmark: does an OpenAPI parse hold up the server (issue 29 item 5)? A real `tocsin serve` (SQLite, a fresh
 * temporary data dir, one enterprise organization and key seeded beforehand) is sent, over HTTP:
 *   - the issue's document: 40,000 paths with one GET each, ≈ 3.4 MB of JSON (over the default operation limit);
 *   - a large allowed one: 9,000 operations over shared and cyclic schemas, ≈ 2.8 MB (test/imports fixtures);
 * as `{"spec": "<JSON text>"}` (and the first also as `{"spec": {…}}`, decoded by the HTTP layer) to POST /api/v1/monitors/openapi/parse, while a client asks GET /healthz every
 * 10 ms (one at a time). Prints the POST's status and time, /healthz latency p50/p99/max during it (and idle),
 * and the CPU time the server's main thread and whole process spent meanwhile (/proc: the main thread's own work,
 * /healthz answers included, whatever else competes for the cores).
 * Usage: node bench/imports/openapi-parse.bench.ts [--runs 3] [--bin path/to/bin/tocsin.js]
 *   (--bin: another tree's command, e.g. a checkout of the tree before the change, for a before/after)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../src/config/index.ts';
import { createTocsin } from '../../src/main.ts';
import { SCOPES } from '../../src/modules/auth/index.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { largeDescription } from '../../test/imports/openapi.fixtures.ts';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    bin: { type: 'string', default: new URL('../../bin/tocsin.js', import.meta.url).pathname },
  },
});
const RUNS = Number(args.runs);

/** `paths` paths with one GET each (≈ 85 bytes a path: 40,000 are the issue's 3.4 MB). */
function manyPaths(paths: number): string {
  const entries: Record<string, unknown> = {};
  for (let i = 0; i < paths; i++) {
    entries[`/r${i}`] = { get: { operationId: `op${i}`, responses: { '200': { description: 'ok' } } } };
  }
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'Many', version: '1' },
    servers: [{ url: 'https://many.example.com' }],
    paths: entries,
  });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** The organization and key, written to the data dir before the server starts (the server runs the same schema). */
async function seed(env: Record<string, string>): Promise<string> {
  const config = loadConfig({ env, isTty: false });
  const logger = createLogger({ level: 'warn', pretty: false, destination: process.stderr });
  const t = await createTocsin(config, { logger, background: false });
  const org = await t.services.orgs.createOrganization({ name: 'Bench', plan: 'enterprise' });
  const user = await t.services.orgs.ensureUser({ email: 'bench@example.com' });
  await t.services.orgs.addMember(org.id, user.id, 'owner');
  const key = await t.services.auth.issueKey({
    organizationId: org.id,
    name: 'bench',
    scopes: [...SCOPES],
    environments: ['production'],
    userId: user.id,
    createdBy: user.id,
  });
  await t.close();
  return key.key;
}

async function waitReady(origin: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`tocsin serve exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${origin}/readyz`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('tocsin serve not ready within 60 s');
}

/**
 * CPU time (ms) of the server's main thread (its task whose id is the pid) and of the whole process, from /proc:
 * what the main thread itself spent, whatever else competes for the cores. USER_HZ is 100 on Linux.
 */
function cpuMs(pid: number): { main: number; process: number } {
  const ticks = (path: string) => {
    const stat = readFileSync(path, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  };
  return { main: ticks(`/proc/${pid}/task/${pid}/stat`), process: ticks(`/proc/${pid}/stat`) };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

/** /healthz every 10 ms, one at a time, until `until` settles; the latencies in ms. */
async function healthWhile(origin: string, until: Promise<unknown>): Promise<number[]> {
  let done = false;
  void until.finally(() => (done = true));
  const latencies: number[] = [];
  while (!done) {
    const started = performance.now();
    const res = await fetch(`${origin}/healthz`);
    await res.arrayBuffer();
    latencies.push(performance.now() - started);
    await new Promise((r) => setTimeout(r, 10));
  }
  return latencies;
}

function line(label: string, latencies: number[], extra = ''): string {
  const sorted = [...latencies].sort((a, b) => a - b);
  const f = (n: number) => n.toFixed(1).padStart(7);
  return (
    `${label.padEnd(34)} /healthz n=${String(sorted.length).padStart(4)} p50 ${f(percentile(sorted, 50))} ms` +
    `  p99 ${f(percentile(sorted, 99))} ms  max ${f(sorted.at(-1) ?? NaN)} ms${extra}`
  );
}

const dataDir = mkdtempSync(join(tmpdir(), 'tocsin-bench-openapi-'));
const port = await freePort();
const env = { TOCSIN_DATA_DIR: dataDir, NODE_ENV: 'production', LOG_LEVEL: 'warn', LOG_FORMAT: 'json' };
const key = await seed(env);
const child = spawn(process.execPath, [args.bin, 'serve'], {
  env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const origin = `http://127.0.0.1:${port}`;
try {
  await waitReady(origin, child);
  const issueDocument = manyPaths(40_000);
  const documents: Array<[string, unknown]> = [
    ['40,000 paths (issue 29)', issueDocument],
    ['40,000 paths, as an object', JSON.parse(issueDocument)],
    ['9,000 operations, schemas', JSON.stringify(largeDescription(9000))],
  ];
  for (const [label, spec] of documents) {
    const text = typeof spec === 'string' ? spec : JSON.stringify(spec);
    console.log(`${label}: ${(text.length / 1e6).toFixed(2)} MB`);
  }
  const idle = new Promise((r) => setTimeout(r, 2000));
  console.log(line('idle (2 s)', await healthWhile(origin, idle)));
  for (let run = 1; run <= RUNS; run++) {
    for (const [label, spec] of documents) {
      const body = JSON.stringify({ spec });
      const cpuBefore = cpuMs(child.pid!);
      const started = performance.now();
      const post = fetch(`${origin}/api/v1/monitors/openapi/parse`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body,
      }).then(async (res) => ({ status: res.status, bytes: (await res.arrayBuffer()).byteLength }));
      const latencies = await healthWhile(origin, post);
      const { status, bytes } = await post;
      const took = (performance.now() - started) / 1000;
      const cpuAfter = cpuMs(child.pid!);
      const cpu = `main thread CPU ${cpuAfter.main - cpuBefore.main} ms, process ${cpuAfter.process - cpuBefore.process} ms`;
      console.log(
        line(`run ${run}: ${label}`, latencies, `  → ${status} in ${took.toFixed(2)} s (${bytes} bytes); ${cpu}`),
      );
    }
  }
} finally {
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}
