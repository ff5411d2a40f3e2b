import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const BIN = new URL('../../bin/tocsin.js', import.meta.url).pathname;

/** Runs the real `tocsin` command; validate needs no server, no database and no configuration. */
function tocsin(args: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, out: stdout, err: stderr }),
    );
  });
}

describe('tocsin config validate', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tocsin-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'setup'));
  writeFileSync(
    join(dir, 'setup', 'destinations.yaml'),
    'version: 1\ndestinations:\n  - key: ops\n    type: generic_webhook\n    config:\n      url: https://hooks.example.com/${env:HOOK_TOKEN}\n',
  );
  writeFileSync(
    join(dir, 'setup', 'monitors.yaml'),
    'version: 1\nmonitors:\n  - key: api\n    target: https://api.example.com\n    config: { alert_destinations: [ops] }\n',
  );
  writeFileSync(join(dir, 'broken.yaml'), 'version: 1\nmonitors:\n  - key: api\n    target: 42\n    paused: maybe\n');

  it('prints what a valid folder holds and exits 0', async () => {
    const run = await tocsin(['config', 'validate', join(dir, 'setup')], { HOOK_TOKEN: 't0ken' });
    expect(run.err).toBe('');
    expect(run.out).toBe('valid: 1 destinations, 1 monitors (2 files)\n');
    expect(run.code).toBe(0);
  });

  it('prints every problem as file:line:column and exits 1', async () => {
    const broken = join(dir, 'broken.yaml');
    const run = await tocsin(['config', 'validate', broken]);
    expect(run.out).toBe(
      `${broken}:4:13: monitors "api": target must be a string\n${broken}:5:13: monitors "api": paused must be true or false\n`,
    );
    expect(run.err).toBe('tocsin: 2 problems; nothing is valid\n');
    expect(run.code).toBe(1);
    const unset = await tocsin(['config', 'validate', join(dir, 'setup')]);
    expect(unset.out).toContain(
      'destinations.yaml:6:12: destinations "ops": config.url names the environment variable HOOK_TOKEN, which is not set',
    );
    expect(unset.code).toBe(1);
  });

  it('exits 2 for a path it cannot read', async () => {
    const run = await tocsin(['config', 'validate', join(dir, 'missing.yaml')]);
    expect(run.err).toBe(`tocsin: ${join(dir, 'missing.yaml')}: no such file or folder\n`);
    expect(run.code).toBe(2);
  });
});
