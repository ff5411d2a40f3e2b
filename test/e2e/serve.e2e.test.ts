import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../support/databases.ts';
import { testServices } from '../support/services.ts';
import { startStallMeter } from '../support/stall-meter.ts';

/** The real command line, as an operator runs it. */
const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/tocsin.js');

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => done(port));
    });
  });
}

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function tocsin(args: string[], env: Record<string, string>): Run {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    env: { ...baseEnv(), ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A clean environment: no settings leak in from the test runner. */
function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    LOG_FORMAT: 'json',
  };
  return env;
}

class Server {
  readonly child: ChildProcess;
  stdout = '';
  stderr = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  constructor(env: Record<string, string>) {
    this.child = spawn(process.execPath, [BIN, 'serve'], {
      cwd: ROOT,
      env: { ...baseEnv(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout!.on('data', (d: Buffer) => (this.stdout += d.toString('utf8')));
    this.child.stderr!.on('data', (d: Buffer) => (this.stderr += d.toString('utf8')));
    // 'close', not 'exit': the last log lines may still be in the stdout pipe when the process has exited.
    this.exited = new Promise((done) => this.child.once('close', (code, signal) => done({ code, signal })));
  }
  logLines(): Array<Record<string, unknown>> {
    return this.stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  }
}

async function waitReady(base: string, server: Server, timeoutMs = 60_000): Promise<number> {
  const start = Date.now();
  for (;;) {
    if (server.child.exitCode !== null) throw new Error(`serve exited early: ${server.stderr}\n${server.stdout}`);
    try {
      const res = await fetch(`${base}/readyz`);
      if (res.status === 200) return Date.now() - start;
    } catch {
      // not listening yet
    }
    if (Date.now() - start > timeoutMs)
      throw new Error(`not ready after ${timeoutMs} ms: ${server.stderr}\n${server.stdout}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function createDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `tocsin_e2e_${Math.random().toString(16).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: testServices.postgresUrl! });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(testServices.postgresUrl!);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: testServices.postgresUrl! });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

// Every command is a fresh Node process that loads the whole service; on a busy machine that takes seconds.
describe('tocsin --help', { timeout: 60_000 }, () => {
  it.each([[[]], [['serve']], [['migrate']], [['admin']], [['admin', 'bootstrap']], [['admin', 'set-plan']]])(
    '%j',
    (args) => {
      const r = tocsin([...args, '--help'], {});
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^Usage: tocsin/);
      expect(r.stderr).toBe('');
    },
  );

  it('lists every command at the top level', () => {
    const r = tocsin(['--help'], {});
    for (const c of ['serve', 'migrate', 'admin']) expect(r.stdout).toContain(c);
  });

  it('prints the version', () => {
    const r = tocsin(['--version'], {});
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('refuses a bad configuration with a message naming the key (exit 2)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tocsin-e2e-cfg-'));
    try {
      const r = tocsin(['migrate'], { TOCSIN_DATA_DIR: dir, PORT: 'eighty' });
      expect(r.status).toBe(2);
      expect(r.stderr).toContain('configuration PORT: an integer from 0 to 65535');
      const file = join(dir, 'tocsin.json');
      writeFileSync(file, '{"plans": {"gold": {}}}');
      const f = tocsin(['migrate'], { TOCSIN_DATA_DIR: dir, TOCSIN_CONFIG: file });
      expect(f.status).toBe(2);
      expect(f.stderr).toContain('configuration plans.gold: one of free, pro, team, enterprise');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

for (const dialect of testDialects()) {
  describe(`${dialect}: tocsin serve end to end`, { timeout: 120_000 }, () => {
    let dataDir: string;
    let env: Record<string, string>;
    let server: Server;
    let base: string;
    let db: { url: string; drop(): Promise<void> } | null = null;

    beforeAll(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'tocsin-e2e-'));
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      env = { TOCSIN_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' };
      if (dialect === 'postgres') {
        db = await createDatabase();
        env.DATABASE_URL = db.url;
      }
    }, 60_000);

    afterAll(async () => {
      if (server && server.child.exitCode === null) {
        server.child.kill('SIGKILL');
        await server.exited;
      }
      await db?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('migrate creates the schema and is idempotent', () => {
      const first = tocsin(['migrate'], env);
      expect(first.status, first.stderr).toBe(0);
      expect(first.stdout).toMatch(/^Applied \d+ migration\(s\):/);
      expect(first.stdout).toContain('_orgs_init');
      const again = tocsin(['migrate'], env);
      expect(again.status, again.stderr).toBe(0);
      expect(again.stdout).toBe('Database is up to date.\n');
    });

    it('serve becomes ready and logs where it stores data', async () => {
      server = new Server(env);
      await waitReady(base, server);
      const ready = await (await fetch(`${base}/readyz`)).json();
      expect(ready).toEqual({
        status: 'ready',
        database: dialect,
        checks: expect.objectContaining({ backlog: 0, oldest_due_age_ms: 0, shedding: false }),
      });
      // The line is written just after the port opens; the pipe may deliver it a moment after /readyz answers.
      const isReadyLine = (l: Record<string, unknown>) => typeof l.msg === 'string' && l.msg.startsWith('Tocsin ready');
      for (let waited = 0; !server.logLines().some(isReadyLine) && waited < 5_000; waited += 20)
        await new Promise((r) => setTimeout(r, 20));
      const readyLine = server.logLines().find(isReadyLine);
      expect(readyLine).toBeDefined();
      expect(String(readyLine!.storage)).toContain(dialect === 'postgres' ? 'PostgreSQL' : 'SQLite');
      expect(readyLine!.address).toBe(base);
      expect(String(readyLine!.msg)).toContain(`listening on ${base}`);
    });

    let bootstrap: { organization_id: string; user_id: string; api_key: string };

    it('admin bootstrap prints the organization, user and key once as JSON', () => {
      const r = tocsin(['admin', 'bootstrap', '--org', 'Acme', '--email', 'a@example.com', '--plan', 'team'], env);
      expect(r.status, r.stderr).toBe(0);
      const lines = r.stdout.trim().split('\n');
      expect(lines).toHaveLength(1);
      bootstrap = JSON.parse(lines[0]!);
      expect(Object.keys(bootstrap)).toEqual(['organization_id', 'user_id', 'api_key']);
      expect(bootstrap.organization_id).toMatch(/^org_/);
      expect(bootstrap.user_id).toMatch(/^usr_/);
      expect(bootstrap.api_key).toMatch(/^tsk_[0-9A-Za-z]{38}$/);
    });

    it('creates a monitor from {"target"} over the real port with the printed key, and reads it back', async () => {
      const headers = { authorization: `Bearer ${bootstrap.api_key}`, 'content-type': 'application/json' };
      const created = await fetch(`${base}/api/v1/monitors`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ target: 'https://example.com' }),
      });
      expect(created.status).toBe(201);
      expect(created.headers.get('x-request-id')).toMatch(/^req_/);
      const m = (await created.json()) as Record<string, unknown>;
      expect(m).toMatchObject({
        name: 'example.com',
        type: 'http',
        target: 'https://example.com',
        interval_seconds: 15,
        region_codes: ['local'],
        environment: 'production',
      });
      const read = await fetch(`${base}/api/v1/monitors/${String(m.id)}`, { headers });
      expect(read.status).toBe(200);
      expect(await read.json()).toMatchObject({ id: m.id, name: 'example.com' });
      const list = (await (await fetch(`${base}/api/v1/monitors`, { headers })).json()) as {
        data: Array<{ id: string }>;
      };
      expect(list.data.map((x) => x.id)).toContain(m.id);
    });

    it('refuses a request without a key with the envelope', async () => {
      const res = await fetch(`${base}/api/v1/monitors`);
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
    });

    it('admin set-plan changes the plan, and the API follows', async () => {
      const down = tocsin(['admin', 'set-plan', '--org', bootstrap.organization_id, '--plan', 'free'], env);
      expect(down.status, down.stderr).toBe(0);
      expect(JSON.parse(down.stdout)).toEqual({ organization_id: bootstrap.organization_id, plan: 'free' });
      const headers = { authorization: `Bearer ${bootstrap.api_key}` };
      // The server caches a resolved key for about a second.
      let status = 0;
      for (let i = 0; i < 40 && status !== 403; i++) {
        status = (await fetch(`${base}/api/v1/monitors`, { headers })).status;
        if (status !== 403) await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toBe(403);
      const up = tocsin(['admin', 'set-plan', '--org', bootstrap.organization_id, '--plan', 'enterprise'], env);
      expect(JSON.parse(up.stdout)).toEqual({ organization_id: bootstrap.organization_id, plan: 'enterprise' });
    });

    it('admin commands refuse bad input', () => {
      const plan = tocsin(['admin', 'set-plan', '--org', bootstrap.organization_id, '--plan', 'gold'], env);
      expect(plan.status).toBe(2);
      expect(plan.stderr).toContain('--plan must be one of free, pro, team, enterprise');
      const missing = tocsin(['admin', 'set-plan', '--org', 'org_00000000000000000000000000', '--plan', 'team'], env);
      expect(missing.status).not.toBe(0);
      expect(missing.stderr).toContain('Organization not found');
      const noEmail = tocsin(['admin', 'bootstrap', '--org', 'X'], env);
      expect(noEmail.status).not.toBe(0);
      expect(noEmail.stderr).toContain('--email');
    });

    it('SIGTERM stops it: exit 0 within a few seconds, shutdown logged', async () => {
      const started = Date.now();
      const meter = startStallMeter();
      server.child.kill('SIGTERM');
      const exit = await Promise.race([server.exited, new Promise<null>((r) => setTimeout(() => r(null), 10_000))]);
      meter.stop();
      expect(exit, `did not exit within 10 s\n${server.stdout.slice(-2000)}`).not.toBeNull();
      expect(exit).toEqual({ code: 0, signal: null });
      // Plus the time this process could not run: the machine's load slows the server's shutdown as much.
      expect(Date.now() - started).toBeLessThan(5_000 + meter.stalledMs());
      const msgs = server.logLines().map((l) => String(l.msg));
      expect(msgs.some((m) => m.startsWith('shutting down'))).toBe(true);
      expect(msgs).toContain('stopped');
      expect(server.stderr).toBe('');
      await expect(fetch(`${base}/healthz`)).rejects.toThrow();
    });

    it('keeps the data across a restart', async () => {
      server = new Server(env);
      await waitReady(base, server);
      const res = await fetch(`${base}/api/v1/monitors`, { headers: { authorization: `Bearer ${bootstrap.api_key}` } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { data: unknown[] }).data).toHaveLength(1);
      server.child.kill('SIGTERM');
      expect((await server.exited).code).toBe(0);
    }, 60_000);
  });
}
