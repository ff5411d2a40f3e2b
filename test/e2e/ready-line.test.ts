/**
 * The ready line of `tocsin serve` says where this process listens and, separately, the public URL users reach the
 * service at (behind a proxy, or a second process on another port, they differ).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';

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

it('prints the listen address and the public URL separately', { timeout: 60_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tocsin-ready-'));
  const config = join(dataDir, 'tocsin.json');
  writeFileSync(config, JSON.stringify({ public_url: 'https://status.example.test' }));
  const port = await freePort();
  const child = spawn(process.execPath, [BIN, 'serve'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      LOG_FORMAT: 'json',
      TOCSIN_DATA_DIR: dataDir,
      TOCSIN_CONFIG: config,
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  const exited = new Promise((done) => child.once('exit', done));
  try {
    const deadline = Date.now() + 50_000;
    while (!stdout.includes('Tocsin ready') && Date.now() < deadline && child.exitCode === null)
      await new Promise((r) => setTimeout(r, 50));
    const line = stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => String(l.msg).startsWith('Tocsin ready'));
    expect(line).toMatchObject({ address: `http://127.0.0.1:${port}`, publicUrl: 'https://status.example.test' });
    expect(String(line!.msg)).toContain(
      `listening on http://127.0.0.1:${port}; public URL https://status.example.test`,
    );
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
});
