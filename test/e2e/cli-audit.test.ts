/**
 * Operator commands are in the audit log with actor type `system`, named by the command: bootstrap, set-plan,
 * keys create/rotate/revoke and password reset links, run as real `tocsin` processes on one SQLite data directory.
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

function run(args: string[], dataDir: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        LOG_FORMAT: 'json',
        TOCSIN_DATA_DIR: dataDir,
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    // 'close': after the pipes are drained ('exit' can come before the last output).
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

async function json(args: string[], dataDir: string): Promise<Record<string, string>> {
  const res = await run(args, dataDir);
  expect(res.code, res.stderr).toBe(0);
  return JSON.parse(res.stdout) as Record<string, string>;
}

it('records each operator command as a system actor', { timeout: 120_000 }, async () => {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'tocsin-cli-audit-')), 'data');
  const boot = await json(['admin', 'bootstrap', '--org', 'Acme', '--email', 'owner@acme.test'], dataDir);
  const org = boot.organization_id!;
  await json(['admin', 'set-plan', '--org', org, '--plan', 'enterprise'], dataDir);
  const key = await json(['keys', 'create', '--org', org, '--name', 'ci', '--scopes', 'monitors:read'], dataDir);
  await json(['keys', 'rotate', '--org', org, '--grace', '0', key.id!], dataDir);
  await json(['keys', 'revoke', '--org', org, key.id!], dataDir);
  await json(['admin', 'password-reset-link', '--email', 'owner@acme.test'], dataDir);

  const config = loadConfig({ env: { TOCSIN_DATA_DIR: dataDir, NODE_ENV: 'test' }, isTty: false });
  const tocsin = await createTocsin(config, {
    logger: createLogger({ level: 'error', pretty: false }),
    background: false,
  });
  try {
    const { data } = await tocsin.services.audit.list(org, {}, { limit: 50 });
    const seen = data.map((e) => [e.action, e.actor.type, e.actor.name]).reverse();
    expect(seen).toEqual([
      ['organization.bootstrap', 'system', 'tocsin admin bootstrap'],
      ['organization.set_plan', 'system', 'tocsin admin set-plan'],
      ['api_key.create', 'system', 'tocsin keys create'],
      ['api_key.rotate', 'system', 'tocsin keys rotate'],
      ['api_key.revoke', 'system', 'tocsin keys revoke'],
      ['user.password_reset_link', 'system', 'tocsin admin password-reset-link'],
    ]);
    expect(data.find((e) => e.action === 'organization.set_plan')!.changes.plan![1]).toBe('enterprise');
  } finally {
    await tocsin.close();
  }
});
