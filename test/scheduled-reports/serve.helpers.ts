/** Real `tocsin serve` child processes for the multi-process and kill -9 tests of scheduled reports. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

const ROOT = new URL('../../', import.meta.url).pathname;

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/**
 * How long a child may take to answer /healthz. A hang bound, not a speed one: a start is ~1.2 s of CPU, but at load
 * 8 on the 2-core machine one took 12 s and at load 28 (other work beside two kill -9 files) starts took over 120 s; a
 * child that exits is reported at once.
 */
const START_TIMEOUT_MS = 300_000;

/** Waits (real time: these tests watch other processes) until `check` holds; `what` may be computed at the timeout. */
export async function until(
  what: string | (() => string),
  check: () => boolean | Promise<boolean>,
  timeoutMs = 30_000,
): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs)
      throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface Served {
  child: ChildProcess;
  port: number;
  output(): string;
  /** An API call to this process. */
  call(key: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }>;
  kill9(): Promise<void>;
}

/**
 * Starts `tocsin serve` with `env` on a free port and waits until it answers /healthz. The port is free when picked,
 * but another process's outgoing connection can take it before the child listens (a start takes seconds under load):
 * a child that exits with EADDRINUSE is started again on another port.
 */
export async function serve(env: Record<string, string>, children: ChildProcess[]): Promise<Served> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await serveOnce(env, children);
    } catch (err) {
      if (attempt >= 3 || !(err instanceof Error && err.message.includes('EADDRINUSE'))) throw err;
    }
  }
}

async function serveOnce(env: Record<string, string>, children: ChildProcess[]): Promise<Served> {
  const port = await freePort();
  const child = spawn(process.execPath, ['bin/tocsin.js', 'serve'], {
    cwd: ROOT,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  await until(
    () => `serve to listen (${out.slice(-500)})`,
    async () => {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`serve exited ${child.exitCode ?? child.signalCode}: ${out.slice(-2000)}`);
      try {
        return (await fetch(`http://127.0.0.1:${port}/healthz`)).ok;
      } catch {
        return false;
      }
    },
    START_TIMEOUT_MS,
  );
  return {
    child,
    port,
    output: () => out,
    async call(key, method, path, body) {
      const res = await fetch(`http://127.0.0.1:${port}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
    },
    async kill9() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    },
  };
}
