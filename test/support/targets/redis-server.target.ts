/** A redis-server of a test's own (Debian's redis-server binary): with a password, or TLS, on a free port. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Pem } from './certificates.ts';
import { closedPort } from './tcp.target.ts';

export interface RedisServerTarget {
  port: number;
  target: string;
  close(): Promise<void>;
}

export interface RedisServerOptions {
  requirepass?: string;
  /** Serve TLS only (no plain port), with this certificate. */
  tls?: Pem;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host: '127.0.0.1', port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServerTarget> {
  const port = await closedPort();
  const dir = mkdtempSync(join(tmpdir(), 'tocsin-redis-'));
  const args = ['--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no'];
  if (options.requirepass !== undefined) args.push('--requirepass', options.requirepass);
  if (options.tls) {
    writeFileSync(join(dir, 'cert.pem'), options.tls.cert);
    writeFileSync(join(dir, 'key.pem'), options.tls.key);
    args.push('--port', '0', '--tls-port', String(port), '--tls-cert-file', join(dir, 'cert.pem'));
    args.push('--tls-key-file', join(dir, 'key.pem'), '--tls-auth-clients', 'no');
  } else args.push('--port', String(port));
  const child: ChildProcess = spawn('redis-server', args, { stdio: 'ignore' });
  let exited = false;
  child.once('exit', () => (exited = true));
  for (let i = 0; i < 200 && !(await accepts(port)); i++) {
    if (exited) throw new Error(`redis-server exited before listening on ${port}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return {
    port,
    target: `127.0.0.1:${port}`,
    close: async () => {
      if (!exited) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await gone;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
