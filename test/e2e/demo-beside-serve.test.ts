/**
 * `npx tocsin demo` while `npm start` runs (the README's order): the real `tocsin serve` on a temporary data directory,
 * written to through its API all along, and the demo on the same SQLite file. The demo succeeds, prints its progress on
 * stderr and its one JSON result on stdout; the server keeps answering and then serves the demo's data.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/tocsin.js');
const dataDir = mkdtempSync(join(tmpdir(), 'tocsin-demo-serve-'));
const env = {
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '/tmp',
  LOG_FORMAT: 'json',
  TOCSIN_DATA_DIR: dataDir,
};
let server: ChildProcess | undefined;

afterAll(async () => {
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((done) => server!.once('exit', done));
  }
  rmSync(dataDir, { recursive: true, force: true });
});

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

function runDemo(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, 'demo', ...args], { cwd: ROOT, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => done({ code, stdout, stderr }));
  });
}

it('runs against a running server, which keeps answering and then shows the demo', { timeout: 240_000 }, async () => {
  // A key of another organization, for the writes made through the server while the demo runs.
  const bootstrap = spawnSync(
    process.execPath,
    [BIN, 'admin', 'bootstrap', '--org', 'Ops', '--email', 'ops@example.com', '--plan', 'enterprise'],
    {
      cwd: ROOT,
      env,
      encoding: 'utf8',
    },
  );
  expect(bootstrap.status, bootstrap.stderr).toBe(0);
  const opsKey = (JSON.parse(bootstrap.stdout) as { api_key: string }).api_key;

  const port = await freePort();
  server = spawn(process.execPath, [BIN, 'serve'], {
    cwd: ROOT,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let serverOut = '';
  server.stdout!.on('data', (d: Buffer) => (serverOut += d.toString()));
  server.stderr!.on('data', (d: Buffer) => (serverOut += d.toString()));
  const deadline = Date.now() + 60_000;
  while (!serverOut.includes('Tocsin ready') && Date.now() < deadline && server.exitCode === null)
    await new Promise((r) => setTimeout(r, 50));
  expect(serverOut).toContain('Tocsin ready');
  const base = `http://127.0.0.1:${port}`;
  const call = (key: string, method: string, path: string, body?: unknown) =>
    fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });

  // The server writes all along (a monitor of its own paused and resumed a few times a second) and is probed.
  const own = await call(opsKey, 'POST', '/api/v1/monitors', { name: 'Job', type: 'heartbeat', interval_seconds: 300 });
  expect(own.status, await own.clone().text()).toBe(201);
  const ownId = ((await own.json()) as { id: string }).id;
  let demoDone = false;
  const statuses: number[] = [];
  const traffic = (async () => {
    for (let n = 0; !demoDone; n++) {
      const made = await call(opsKey, 'POST', `/api/v1/monitors/${ownId}/${n % 2 === 0 ? 'pause' : 'resume'}`);
      statuses.push(made.status);
      statuses.push((await fetch(`${base}/readyz`)).status);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const demo = await runDemo(['--monitors', '8', '--days', '30', '--email', 'demo@example.com']);
  demoDone = true;
  await traffic;

  expect(demo.code, demo.stderr).toBe(0);
  const result = JSON.parse(demo.stdout) as { api_key: string; monitor_ids: string[]; checks: number; seconds: number };
  expect(result.monitor_ids).toHaveLength(8);
  expect(result.checks).toBeGreaterThan(60_000);
  // Progress on stderr, a line at a time: what is written, then how far it is, then done.
  const lines = demo.stderr.trim().split('\n');
  expect(lines[0]).toMatch(/^demo: writing 8 monitors × 30 days/);
  expect(lines.at(-1)).toMatch(/^demo: history written in \d+ s/);
  expect(demo.stderr).not.toContain('database is locked');

  // The server answered every request meanwhile (no 500 "database is locked").
  // At least two rounds (a write and a probe each) while the demo wrote (it may take only a few seconds).
  expect(statuses.length).toBeGreaterThanOrEqual(4);
  expect(statuses.filter((s) => s !== 200)).toEqual([]);
  expect(serverOut).not.toContain('database is locked');

  // And it serves the demo: its monitors, its incidents and a report over them.
  const monitors = await call(result.api_key, 'GET', '/api/v1/monitors?limit=100');
  expect(monitors.status).toBe(200);
  expect(((await monitors.json()) as { data: Array<{ id: string }> }).data.map((m) => m.id).sort()).toEqual(
    [...result.monitor_ids].sort(),
  );
  const incidents = await call(result.api_key, 'GET', '/api/v1/incidents?limit=5');
  expect(((await incidents.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
  const report = await call(result.api_key, 'GET', '/api/v1/reports/availability?period=last_7_days');
  expect(report.status).toBe(200);
  const availability = (await report.json()) as { monitors: unknown[] };
  expect(availability.monitors).toHaveLength(8);
});
