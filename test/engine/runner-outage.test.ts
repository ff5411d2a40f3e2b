/**
 * A remote runner whose control plane is down logs one warning for the outage (no stack trace), backs off, and
 * logs one line when the control plane answers again, whether the outage starts while it runs or before it starts.
 * A closed, then opened, port; the in-process runner's backoff runs on fake timers (the test advances them), the
 * `tocsin runner` process and the start-up connection on real time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CheckRunner,
  ControlPlaneError,
  RemoteWorkSource,
  connectToControlPlane,
  createProbeRegistry,
} from '../../src/modules/checks/index.ts';
import { systemClock } from '../../src/platform/clock.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { LogCapture } from '../support/app.ts';
import { FakeTime } from '../support/fake-time.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('remote runner and an unreachable control plane', () => {
  let server: Server | null = null;
  let runner: CheckRunner | null = null;
  afterEach(async () => {
    await runner?.stop();
    if (server) await new Promise<void>((r) => server!.close(() => r()));
  });

  it('one warning per outage with backoff, one line when it reconnects', async () => {
    const port = await closedPort();
    const logs = new LogCapture();
    let claims = 0;
    const source = new RemoteWorkSource({ controlPlane: `http://127.0.0.1:${port}`, token: 'trn_x' });
    const counting = {
      claim: (max: number, waitMs: number) => {
        claims += 1;
        return source.claim(max, waitMs);
      },
      submit: (results: Parameters<typeof source.submit>[0]) => source.submit(results),
    };
    const time = new FakeTime();
    const r = new CheckRunner({
      source: counting,
      probes: createProbeRegistry(),
      clock: time.clock,
      timers: time,
      logger: createLogger({ level: 'info', pretty: false, destination: logs }),
      concurrency: 5,
      allowPrivateTargets: true,
      retryBaseMs: 20,
      retryMaxMs: 160,
    });
    runner = r;
    // Each fired timer lets one claim round run to its end (a refused connection, real I/O) before the next.
    const advance = (ms: number) => time.advance(ms, () => r.whenWaiting());
    r.start();
    await advance(1_000);
    // Backoff 20, 40, 80, 160, 160 …: about 9 attempts in a second, not 50 (and not one a millisecond).
    expect(claims).toBeGreaterThanOrEqual(4);
    expect(claims).toBeLessThanOrEqual(12);
    const lines = logs.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const warnings = lines.filter((l) => (l.level as number) >= 40);
    expect(warnings).toHaveLength(1);
    expect(String(warnings[0]!.msg)).toContain('unreachable');
    expect(String(warnings[0]!.reason)).toContain('fetch failed');
    expect(JSON.stringify(warnings[0])).not.toContain('stack');

    // The control plane comes back on that port.
    server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ checks: [] }));
      req.resume();
    });
    await new Promise<void>((r) => server!.listen(port, '127.0.0.1', r));
    await advance(600);
    const after = logs.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(after.filter((l) => String(l.msg).includes('reachable again'))).toHaveLength(1);
    expect(after.filter((l) => (l.level as number) >= 40)).toHaveLength(1);
  });
});

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A stand-in control plane on `port`: heartbeats answer this runner's identity, claims find no work. */
async function controlPlaneOn(port: number, handler?: Handler): Promise<Server> {
  const server = createServer(
    handler ??
      ((req, res) => {
        req.resume();
        res.writeHead(200, { 'content-type': 'application/json' });
        const body = req.url?.endsWith('/heartbeat')
          ? { runner_id: 'run_1', region_code: 'eu-west', server_time: new Date(0).toISOString() }
          : { checks: [] };
        res.end(JSON.stringify(body));
      }),
  );
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return server;
}

function refusing(status: number): Handler {
  return (req, res) => {
    req.resume();
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { code: 'unauthorized', message: 'Send a runner token.' } }));
  };
}

const closeServer = (s: Server) => new Promise<void>((r) => s.close(() => r()));

describe('a runner started while its control plane is down', () => {
  let server: Server | null = null;
  afterEach(async () => {
    if (server) await closeServer(server);
    server = null;
  });

  it('waits with backoff (one warning), and connects with one line when the control plane comes up', async () => {
    const port = await closedPort();
    const logs = new LogCapture();
    const source = new RemoteWorkSource({ controlPlane: `http://127.0.0.1:${port}`, token: 'trn_x' });
    let attempts = 0;
    const connecting = connectToControlPlane({
      source: {
        heartbeat: () => {
          attempts += 1;
          return source.heartbeat();
        },
      },
      logger: createLogger({ level: 'info', pretty: false, destination: logs }),
      clock: systemClock,
      retryBaseMs: 20,
      retryMaxMs: 160,
    });
    await sleep(1_000);
    expect(attempts).toBeGreaterThanOrEqual(4);
    expect(attempts).toBeLessThanOrEqual(12);
    const warnings = logs.lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => +l.level! >= 40);
    expect(warnings).toHaveLength(1);
    expect(String(warnings[0]!.msg)).toContain('control plane unreachable');

    server = await controlPlaneOn(port);
    await expect(connecting).resolves.toMatchObject({ runner_id: 'run_1', region_code: 'eu-west' });
    const lines = logs.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.filter((l) => String(l.msg) === 'control plane reachable again')).toHaveLength(1);
    expect(lines.filter((l) => +l.level! >= 40)).toHaveLength(1);
  });

  it('a refused token (401) is not retried', async () => {
    server = await controlPlaneOn(0, refusing(401));
    const port = (server.address() as AddressInfo).port;
    const logs = new LogCapture();
    const source = new RemoteWorkSource({ controlPlane: `http://127.0.0.1:${port}`, token: 'trn_bad' });
    const refused = await connectToControlPlane({
      source,
      logger: createLogger({ level: 'info', pretty: false, destination: logs }),
      clock: systemClock,
      retryBaseMs: 20,
    }).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ControlPlaneError);
    expect((refused as ControlPlaneError).status).toBe(401);
    expect(logs.lines).toHaveLength(0);
  });

  it('a 503 (a control plane starting or behind a proxy) is waited for like a closed port', async () => {
    let answers = 0;
    server = await controlPlaneOn(0, (req, res) => {
      answers += 1;
      if (answers < 3) return refusing(503)(req, res);
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ runner_id: 'run_1', region_code: 'eu-west', server_time: new Date(0).toISOString() }));
    });
    const port = (server.address() as AddressInfo).port;
    const logs = new LogCapture();
    const hello = await connectToControlPlane({
      source: new RemoteWorkSource({ controlPlane: `http://127.0.0.1:${port}`, token: 'trn_x' }),
      logger: createLogger({ level: 'info', pretty: false, destination: logs }),
      clock: systemClock,
      retryBaseMs: 20,
    });
    expect(hello.runner_id).toBe('run_1');
    expect(answers).toBe(3);
    expect(logs.lines.map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual([
      'control plane unreachable; retrying with backoff (one line when it is back)',
      'control plane reachable again',
    ]);
  });
});

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/tocsin.js');

/** `tocsin runner` as an operator starts it, its output collected. */
function startRunnerCli(port: number, token: string): { child: ChildProcess; output: () => string } {
  const child = spawn(
    process.execPath,
    [BIN, 'runner', '--region', 'eu-west', '--control-plane', `http://127.0.0.1:${port}`, '--token', token],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        LOG_FORMAT: 'json',
        TOCSIN_DATA_DIR: mkdtempSync(join(tmpdir(), 'tocsin-runner-')),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  return { child, output: () => output };
}

async function waitFor(what: () => boolean, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!what()) {
    if (Date.now() > until) throw new Error('timed out');
    await sleep(50);
  }
}

const exitOf = (child: ChildProcess) =>
  new Promise<number | null>((r) => {
    if (child.exitCode !== null) r(child.exitCode);
    else child.once('exit', (code) => r(code));
  });

describe('tocsin runner and its control plane at start-up', () => {
  let server: Server | null = null;
  let child: ChildProcess | null = null;
  afterEach(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    child = null;
    if (server) await closeServer(server);
    server = null;
  });

  it('keeps retrying while the control plane is down, then connects (one warning, one line when back)', async () => {
    const port = await closedPort();
    const run = startRunnerCli(port, 'trn_startup_token_0123456789');
    child = run.child;
    await waitFor(() => run.output().includes('control plane unreachable'), 15_000);
    await sleep(300);
    expect(child.exitCode).toBeNull(); // still there, waiting

    server = await controlPlaneOn(port);
    await waitFor(() => run.output().includes('runner connected'), 15_000);
    const lines = run
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { level: number; msg: string; controlPlane?: string });
    expect(lines.filter((l) => l.level >= 40)).toHaveLength(1);
    expect(lines.filter((l) => l.msg === 'control plane reachable again')).toHaveLength(1);
    expect(lines.find((l) => l.level >= 40)?.controlPlane).toBe(`http://127.0.0.1:${port}`);
    expect(run.output()).not.toMatch(/\n\s+at /); // no stack trace

    child.kill('SIGTERM');
    expect(await exitOf(child)).toBe(0);
  }, 40_000);

  it('a bad token (401) exits 2 at once with a message that names the token', async () => {
    server = await controlPlaneOn(0, refusing(401));
    const run = startRunnerCli((server.address() as AddressInfo).port, 'trn_bad_token_0123456789abc');
    child = run.child;
    expect(await exitOf(child)).toBe(2);
    expect(run.output()).toContain('the control plane refused this runner token (401)');
    expect(run.output()).toContain('--token');
    expect(run.output()).not.toContain('trn_bad_token_0123456789abc');
    expect(run.output()).not.toContain('unreachable');
  }, 30_000);
});
