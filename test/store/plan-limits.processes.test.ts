import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Tocsin } from '../../src/main.ts';
import { testDialects, type TestDatabase } from '../support/databases.ts';
import { openSharedDatabase } from '../support/shared-database.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const CHILD = new URL('./plan-limits.child.ts', import.meta.url).pathname;
const LIMIT = 4;

/** Two `tocsin` processes on one database create 6 monitors each, at once, against a plan that allows 4. */
describe.each(testDialects())('plan limits across two processes (%s)', (dialect) => {
  let db: TestDatabase | undefined;
  let tocsin: Tocsin | undefined;
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await tocsin?.close();
    await db?.drop();
  });

  it('stores exactly the limit', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tocsin-plan-limits-'));
    const configPath = join(dir, 'tocsin.json');
    writeFileSync(
      configPath,
      JSON.stringify({ plans: { enterprise: { interval_floor_seconds: 1, monitors: LIMIT } } }),
    );
    const shared = await openSharedDatabase(dialect, { name: 'limits', configFile: configPath });
    ({ db, tocsin } = shared);
    const { env } = shared;
    const outputs = [0, 1].map(() => {
      const child = spawn(process.execPath, [CHILD], {
        cwd: ROOT,
        env: { ...env, PLAN_LIMITS_API_KEY: shared.apiKey, PLAN_LIMITS_ATTEMPTS: '6' },
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      children.push(child);
      let out = '';
      const exited = new Promise<string | null>((resolve) =>
        child.once('exit', (code, signal) => resolve(code === 0 ? null : `child exit ${code ?? signal}`)),
      );
      const ready = new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', (chunk: Buffer) => {
          out += chunk.toString('utf8');
          if (out.includes('ready\n')) resolve();
        });
        // A child that dies while starting fails the case now instead of leaving it to wait for the time-out.
        void exited.then((failure) => reject(new Error(`${failure ?? 'child exit 0'} before it was ready`)));
      });
      const done = exited.then((failure) => {
        if (failure) throw new Error(failure);
        return JSON.parse(out.split('\n')[1]!) as string[];
      });
      // Awaited below; when the case times out before that, afterAll kills the child, and its exit must not become
      // an unhandled rejection that Vitest reports against the run.
      done.catch(() => undefined);
      return { child, ready, done };
    });
    await Promise.all(outputs.map((o) => o.ready));
    for (const o of outputs) o.child.stdin!.end('go\n');
    const outcomes = (await Promise.all(outputs.map((o) => o.done))).flat();
    expect(outcomes.filter((o) => o === 'stored')).toHaveLength(LIMIT);
    expect(outcomes.filter((o) => o !== 'stored')).toEqual(Array(12 - LIMIT).fill('plan_limit_exceeded'));
    const actor = (await tocsin.services.auth.authenticate(shared.apiKey))!;
    const listed = await tocsin.services.monitors.list(
      { actor, db: tocsin.database, clock: tocsin.clock },
      {},
      { limit: 50 },
    );
    expect(listed.data).toHaveLength(LIMIT);
  });
});
