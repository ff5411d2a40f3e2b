/**
 * Configuration as code at scale (issue 33): a document of 1,000 monitors (loopback http targets, each alerting one of
 * 20 generic webhooks, every fifth depending on another), 20 destinations and 10 status pages of 100 monitors each
 * (half listed, half in five groups), planned and applied against a real `tocsin serve` on SQLite with the default
 * configuration (no config file), fresh data directory per round and per client.
 *
 * Two clients, each in every round: the real CLI (`node bin/tocsin.js config plan|apply DIR` with TOCSIN_URL and
 * TOCSIN_API_KEY: starting node, reading and checking the YAML folder offline, the request, printing the plan) and
 * the bare HTTP call (`POST /api/v1/config/plan|apply` with the same document and secret fields). Steps: first plan,
 * first apply, no-change plan, no-change apply, plan after changing 10 monitors, apply of that change. Each step's
 * wall time and the serve process's CPU time (utime + stime from /proc) during it.
 *
 * Goals: first apply < 10 s, no-change plan < 2 s.
 *
 *   node bench/config/config.bench.ts [--rounds 3] [--monitors 1000] [--destinations 20] [--pages 10]
 *     [--per-page 100] [--profile DIR] (serve under node --cpu-prof, profiles written to DIR at its SIGTERM)
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../src/config/index.ts';
import { createTocsin } from '../../src/main.ts';
import { SCOPES } from '../../src/modules/auth/index.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { documentBody, HOOK_SECRET_VARIABLE, writeDocumentFolder, type DocumentShape } from './config.document.ts';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    monitors: { type: 'string', default: '1000' },
    destinations: { type: 'string', default: '20' },
    pages: { type: 'string', default: '10' },
    'per-page': { type: 'string', default: '100' },
    profile: { type: 'string' },
  },
});
const ROUNDS = Number(args.rounds);
const BIN = new URL('../../bin/tocsin.js', import.meta.url).pathname;
const SECRET = 'bench-s3cret';
const TICKS_PER_SECOND = 100;

const STEPS = [
  'first plan',
  'first apply',
  'no-change plan',
  'no-change apply',
  'plan, 10 monitors changed',
  'apply, 10 monitors changed',
] as const;
type Step = (typeof STEPS)[number];
const GOALS: Partial<Record<Step, number>> = { 'first apply': 10_000, 'no-change plan': 2_000 };

interface Figure {
  wallMs: number;
  serveCpuMs: number;
  /** The CLI process's CPU (user + system); NaN for the HTTP client. */
  cliCpuMs: number;
}

function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return address.port;
}

/** Answers 200 to every check and webhook: the loopback target of the document's monitors and destinations. */
async function startTarget(): Promise<{ base: string; close(): void }> {
  const server = createHttpServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { base: `http://127.0.0.1:${port}`, close: () => server.close() };
}

/** A fresh SQLite data directory, migrated, with an enterprise organization and an owner key with every scope. */
async function prepareDataDir(): Promise<{ env: Record<string, string>; apiKey: string; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'tocsin-bench-config-'));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    TOCSIN_DATA_DIR: dir,
    DATABASE_URL: '',
    NODE_ENV: 'production',
    LOG_LEVEL: 'error',
  };
  const tocsin = await createTocsin(loadConfig({ env, isTty: false }), {
    logger: createLogger({ level: 'error', pretty: false }),
    background: false,
  });
  try {
    const org = await tocsin.services.orgs.createOrganization({ name: 'Bench config', plan: 'enterprise' });
    const user = await tocsin.services.orgs.ensureUser({ email: 'bench-config@example.com' });
    await tocsin.services.orgs.addMember(org.id, user.id, 'owner');
    const key = await tocsin.services.auth.issueKey({
      organizationId: org.id,
      name: 'bench',
      scopes: [...SCOPES],
      environments: ['production'],
      userId: user.id,
      createdBy: user.id,
    });
    return { env, apiKey: key.key, dir };
  } finally {
    await tocsin.close();
  }
}

async function startServe(
  env: Record<string, string>,
  profileDir?: string,
): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const flags = profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [];
  const child = spawn(process.execPath, [...flags, BIN, 'serve'], {
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const end = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`tocsin serve exited with ${child.exitCode}`);
    if (Date.now() > end) throw new Error('tocsin serve not ready within 60 s');
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200) return { child, port };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function stopServe(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 30_000))]);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** GNU time: the CLI's own CPU (user + system), which a loaded machine stretches less than its wall time. */
const TIME = '/usr/bin/time';
const CPU_LINE = /^tocsin-cpu (\d+\.\d+) (\d+\.\d+)$/m;

function runCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; out: string; err: string; cpuMs: number }> {
  return new Promise((resolve) => {
    execFile(
      TIME,
      ['-f', 'tocsin-cpu %U %S', process.execPath, BIN, ...args],
      { env, timeout: 300_000, maxBuffer: 256 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const cpu = CPU_LINE.exec(stderr);
        resolve({
          code: error ? ((error as { code?: number }).code ?? 1) : 0,
          out: stdout,
          err: stderr.replace(CPU_LINE, '').trim(),
          cpuMs: cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : NaN,
        });
      },
    );
  });
}

interface Summary {
  create: number;
  update: number;
  delete: number;
  unchanged: number;
}

/** What each step must answer: the benchmark fails rather than time a refusal or a wrong plan. */
function expected(step: Step, shape: DocumentShape): Summary {
  const total = shape.monitors + shape.destinations + shape.pages;
  if (step === 'first plan' || step === 'first apply') return { create: total, update: 0, delete: 0, unchanged: 0 };
  if (step.includes('10 monitors'))
    return { create: 0, update: shape.changed!, delete: 0, unchanged: total - shape.changed! };
  return { create: 0, update: 0, delete: 0, unchanged: total };
}

async function round(client: 'cli' | 'http', shape: DocumentShape): Promise<Map<Step, Figure>> {
  const { env, apiKey, dir } = await prepareDataDir();
  const { child, port } = await startServe(env, args.profile);
  const url = `http://127.0.0.1:${port}`;
  const folder = join(dir, 'document');
  const figures = new Map<Step, Figure>();
  try {
    for (const step of STEPS) {
      const changed = step.includes('10 monitors') ? 10 : 0;
      const current = { ...shape, changed };
      const action = step.includes('plan') ? 'plan' : 'apply';
      if (client === 'cli') writeDocumentFolder(folder, current);
      const body = client === 'http' ? JSON.stringify(documentBody(current, SECRET)) : '';
      const ticks0 = cpuTicks(child.pid!);
      const t0 = performance.now();
      let summary: Summary;
      let cliCpuMs = NaN;
      if (client === 'cli') {
        const cli = await runCli(['config', action, folder], {
          PATH: env.PATH!,
          HOME: env.HOME!,
          TOCSIN_URL: url,
          TOCSIN_API_KEY: apiKey,
          [HOOK_SECRET_VARIABLE]: SECRET,
        });
        const last = /(?:Plan|Applied): (\d+) to create, (\d+) to update, (\d+) to delete, (\d+) unchanged\.\n$/.exec(
          cli.out,
        );
        if (!last)
          throw new Error(`${step}: tocsin config ${action} exited ${cli.code}: ${cli.err}${cli.out.slice(-500)}`);
        summary = { create: +last[1]!, update: +last[2]!, delete: +last[3]!, unchanged: +last[4]! };
        cliCpuMs = cli.cpuMs;
        const pending = summary.create + summary.update + summary.delete > 0;
        if (cli.code !== (action === 'plan' && pending ? 2 : 0)) throw new Error(`${step}: exit ${cli.code}`);
      } else {
        const res = await fetch(`${url}/api/v1/config/${action}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
          body,
        });
        const text = await res.text();
        if (res.status !== 200) throw new Error(`${step}: ${res.status} ${text.slice(0, 1000)}`);
        summary = (JSON.parse(text) as { summary: Summary }).summary;
      }
      const wallMs = performance.now() - t0;
      const serveCpuMs = ((cpuTicks(child.pid!) - ticks0) * 1000) / TICKS_PER_SECOND;
      const want = expected(step, current);
      if (JSON.stringify(summary) !== JSON.stringify(want))
        throw new Error(`${step}: summary ${JSON.stringify(summary)}, expected ${JSON.stringify(want)}`);
      figures.set(step, { wallMs, serveCpuMs, cliCpuMs });
      process.stderr.write(
        `  ${client} ${step}: ${wallMs.toFixed(0)} ms (serve CPU ${serveCpuMs.toFixed(0)} ms, CLI CPU ${cliCpuMs} ms)\n`,
      );
    }
  } finally {
    await stopServe(child);
    rmSync(dir, { recursive: true, force: true });
  }
  return figures;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const target = await startTarget();
  const shape: DocumentShape = {
    monitors: Number(args.monitors),
    destinations: Number(args.destinations),
    pages: Number(args.pages),
    perPage: Number(args['per-page']),
    targetBase: target.base,
  };
  const started = new Date().toISOString();
  const load0 = loadavg();
  const results: Record<'cli' | 'http', Array<Map<Step, Figure>>> = { cli: [], http: [] };
  try {
    for (let r = 0; r < ROUNDS; r++) {
      // Alternate which client goes first, so neither always meets the machine in the same state.
      for (const client of r % 2 === 0 ? (['cli', 'http'] as const) : (['http', 'cli'] as const)) {
        process.stderr.write(`round ${r + 1}/${ROUNDS}, ${client}\n`);
        results[client].push(await round(client, shape));
      }
    }
  } finally {
    target.close();
  }
  const load1 = loadavg();
  console.log(
    `config as code: ${shape.monitors} monitors, ${shape.destinations} destinations, ${shape.pages} status pages × ` +
      `${shape.perPage} monitors; SQLite, default configuration; ${ROUNDS} rounds (fresh data dir per round and client)`,
  );
  console.log(
    `${started} → ${new Date().toISOString()}; ${cpus().length} × ${cpus()[0]?.model ?? '?'}; Node ${process.version}; ` +
      `load average ${load0.map((l) => l.toFixed(2)).join(' ')} → ${load1.map((l) => l.toFixed(2)).join(' ')}`,
  );
  console.log('');
  console.log(
    '| step | CLI wall ms (median; all) | CLI process CPU ms (median; all) | HTTP wall ms (median; all) | ' +
      'serve CPU ms, HTTP (median) | goal |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | --- |');
  for (const step of STEPS) {
    const walls = (client: 'cli' | 'http') => results[client].map((f) => f.get(step)!.wallMs);
    const cell = (xs: number[]) => `${median(xs).toFixed(0)} (${xs.map((x) => x.toFixed(0)).join(', ')})`;
    const cpu = median(results.http.map((f) => f.get(step)!.serveCpuMs));
    const goal = GOALS[step];
    const verdict =
      goal === undefined
        ? ''
        : `< ${goal / 1000} s: ${Math.max(median(walls('cli')), median(walls('http'))) < goal ? 'met' : 'NOT MET'}`;
    const cliCpu = results.cli.map((f) => f.get(step)!.cliCpuMs);
    console.log(
      `| ${step} | ${cell(walls('cli'))} | ${cell(cliCpu)} | ${cell(walls('http'))} | ${cpu.toFixed(0)} | ${verdict} |`,
    );
  }
}

await main();
