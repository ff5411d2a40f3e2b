/**
 * `tocsin serve` at the edges of start-up: a port that cannot be opened ends the process with the error (nothing left
 * running in the background), and a SIGTERM that arrives while it is still starting is a clean shutdown.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/tocsin.js');
const dirs: string[] = [];

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function serve(port: number) {
  const dataDir = mkdtempSync(join(tmpdir(), 'tocsin-startstop-'));
  dirs.push(dataDir);
  const child = spawn(process.execPath, [BIN, 'serve'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      LOG_FORMAT: 'json',
      TOCSIN_DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (d: Buffer) => (out.stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out.stderr += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal })),
  );
  return { child, out, exited };
}

function within<T>(ms: number, promise: Promise<T>): Promise<T | 'timed out'> {
  return Promise.race([promise, new Promise<'timed out'>((r) => setTimeout(() => r('timed out'), ms))]);
}

it('exits with the error when the port is taken', { timeout: 60_000 }, async () => {
  const blocker: Server = createServer();
  await new Promise<void>((done) => blocker.listen(0, '127.0.0.1', done));
  const { port } = blocker.address() as { port: number };
  const server = serve(port);
  try {
    const exit = await within(45_000, server.exited);
    expect(exit, server.out.stdout.slice(-2000)).toEqual({ code: 1, signal: null });
    expect(server.out.stderr).toContain('EADDRINUSE');
    expect(server.out.stdout).not.toContain('Tocsin ready');
  } finally {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
    await new Promise((done) => blocker.close(done));
  }
});

it('shuts down cleanly on a SIGTERM during start-up', { timeout: 60_000 }, async () => {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const { port } = probe.address() as { port: number };
  await new Promise((done) => probe.close(done));
  const server = serve(port);
  try {
    // The first log line is written once the database is open, before the background roles and the port.
    const deadline = Date.now() + 40_000;
    while (!server.out.stdout.includes('{') && server.child.exitCode === null && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 5));
    server.child.kill('SIGTERM');
    const exit = await within(30_000, server.exited);
    expect(exit, server.out.stdout.slice(-2000) + server.out.stderr).toEqual({ code: 0, signal: null });
    expect(server.out.stdout).toContain('"msg":"stopped"');
  } finally {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
  }
});
