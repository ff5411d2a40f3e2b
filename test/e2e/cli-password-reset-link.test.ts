/**
 * `tocsin admin password-reset-link --email …` prints a one-time link that sets the user's password, so the owner made
 * by `admin bootstrap` (who has no password) can sign in to the web app without SMTP.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { createTocsin } from '../../src/main.ts';
import { createLogger } from '../../src/platform/logger.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/tocsin.js');
const ENV = (dataDir: string) => ({
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '/tmp',
  LOG_FORMAT: 'json',
  TOCSIN_DATA_DIR: dataDir,
  TOCSIN_MASTER_KEY: Buffer.alloc(32, 7).toString('base64'),
});

function run(args: string[], dataDir: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: ENV(dataDir) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => done({ code, stdout, stderr }));
  });
}

it(
  'prints a reset link for the bootstrap owner, which then sets a password that signs in',
  { timeout: 90_000 },
  async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'tocsin-cli-reset-')), 'data');
    const boot = await run(['admin', 'bootstrap', '--org', 'Acme', '--email', 'owner@acme.test'], dataDir);
    expect(boot.code, boot.stderr).toBe(0);
    const res = await run(['admin', 'password-reset-link', '--email', 'Owner@Acme.test'], dataDir);
    expect(res.code, res.stderr).toBe(0);
    const printed = JSON.parse(res.stdout) as { user_id: string; link: string; expires_at: string };
    expect(printed.user_id).toBe((JSON.parse(boot.stdout) as { user_id: string }).user_id);
    expect(printed.link).toMatch(/^http:\/\/[^/]+\/reset-password\?token=[\w-]+$/);
    const missing = await run(['admin', 'password-reset-link', '--email', 'nobody@acme.test'], dataDir);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no user has the address nobody@acme.test');

    const tocsin = await createTocsin(loadConfig({ env: ENV(dataDir), isTty: false }), {
      logger: createLogger({ level: 'error', pretty: false }),
      background: false,
    });
    try {
      const json = { 'content-type': 'application/json' };
      const token = new URL(printed.link).searchParams.get('token');
      const set = await tocsin.app.inject({
        method: 'POST',
        url: '/api/v1/auth/password-reset/confirm',
        headers: json,
        payload: JSON.stringify({ token, password: 'owner password 1' }),
      });
      expect(set.statusCode).toBe(204);
      const signedIn = await tocsin.app.inject({
        method: 'POST',
        url: '/api/v1/auth/sessions',
        headers: json,
        payload: JSON.stringify({ email: 'owner@acme.test', password: 'owner password 1' }),
      });
      expect(signedIn.statusCode).toBe(201);
      expect(signedIn.json()).toMatchObject({ role: 'owner', organization: { name: 'Acme' } });
    } finally {
      await tocsin.close();
    }
  },
);
