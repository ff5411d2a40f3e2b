/**
 * `tocsin serve` with a DATABASE_URL that cannot work: the message says what failed (unreachable, no such database,
 * authentication) and names host, port and database without the password, and the process exits 2 like on any
 * other configuration error. Against the local PostgreSQL (trust authentication accepts any password, so the
 * authentication case uses a role that does not exist).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { skipWithout, testServices } from '../support/services.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/tocsin.js');
const PASSWORD = 'hunter2-do-not-print';

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

/** Runs `tocsin serve` with this DATABASE_URL until it exits (it must not start). */
function serve(databaseUrl: string): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--host', '127.0.0.1'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        LOG_FORMAT: 'json',
        TOCSIN_DATA_DIR: mkdtempSync(join(tmpdir(), 'tocsin-startup-')),
        DATABASE_URL: databaseUrl,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const kill = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('exit', (code) => {
      clearTimeout(kill);
      done({ code, output });
    });
  });
}

describe.skipIf(skipWithout('postgres'))('database start-up errors of tocsin serve', () => {
  const base = new URL(testServices.postgresUrl ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  const url = (change: (u: URL) => void) => {
    const u = new URL(base.toString());
    u.password = PASSWORD;
    change(u);
    return u.toString();
  };

  it('unreachable: names host, port and database, exits 2, no password', async () => {
    const port = await freePort();
    const run = await serve(url((u) => (u.port = String(port))));
    expect(run.code).toBe(2);
    expect(run.output).toContain('database unreachable');
    expect(run.output).toContain(`${base.hostname}:${port}`);
    expect(run.output).toContain('connection refused');
    expect(run.output).not.toContain(PASSWORD);
    expect(run.output).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('unknown database: says it does not exist, names it, exits 2', async () => {
    const run = await serve(url((u) => (u.pathname = '/tocsin_no_such_database')));
    expect(run.code).toBe(2);
    expect(run.output).toContain('database does not exist');
    expect(run.output).toContain('"tocsin_no_such_database"');
    expect(run.output).toContain(`${base.hostname}:${base.port || '5432'}`);
    expect(run.output).not.toContain(PASSWORD);
  });

  it('unknown role: authentication failed, names the user, exits 2', async () => {
    const run = await serve(url((u) => (u.username = 'tocsin_no_such_role')));
    expect(run.code).toBe(2);
    expect(run.output).toContain('database authentication failed');
    expect(run.output).toContain('user "tocsin_no_such_role"');
    expect(run.output).not.toContain(PASSWORD);
  });
});
