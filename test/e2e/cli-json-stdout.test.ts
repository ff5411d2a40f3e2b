/**
 * Operator commands print their result as JSON on stdout (`tocsin admin bootstrap | jq -r .api_key`): their log
 * lines (here the warning that a master key was generated on a fresh data directory) go to stderr.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';

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

it('admin bootstrap on a fresh data directory: stdout is exactly one JSON object', { timeout: 60_000 }, async () => {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'tocsin-cli-')), 'data');
  const res = await run(['admin', 'bootstrap', '--org', 'Acme', '--email', 'owner@acme.test'], dataDir);
  expect(res.code, res.stderr).toBe(0);
  const printed = JSON.parse(res.stdout) as Record<string, unknown>;
  expect(Object.keys(printed).sort()).toEqual(['api_key', 'organization_id', 'user_id']);
  expect(res.stderr).toContain('No master_key configured');
});
