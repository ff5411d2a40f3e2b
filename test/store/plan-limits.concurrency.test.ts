import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor, ServiceContext } from '../../src/modules/auth/index.ts';
import type { Database } from '../../src/platform/db/index.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';

const LIMIT = 4;
const ATTEMPTS = 12;

/**
 * Plan limits under concurrency: 12 creates at once against a limit of 4 store exactly 4 and refuse 8 with
 * plan_limit_exceeded. On PostgreSQL half go through a second database handle, as a second process would.
 * On SQLite one process has one connection (a second one in the same process would wait for the first's
 * lock while blocking the thread that must release it), so all go through it, interleaved by the event loop.
 */
describe.each(testDialects())('plan limits under concurrent creates (%s)', (dialect) => {
  let t: TestApp;
  let other: Database;
  let actor: Actor;
  beforeAll(async () => {
    t = await createTestApp({
      dialect,
      configFile: { plans: { enterprise: { interval_floor_seconds: 1, monitors: LIMIT, status_pages: LIMIT } } },
    });
    other = t.db.reopen();
    const org = await t.createOrg();
    actor = (await t.tocsin.services.auth.authenticate(org.apiKey))!;
  });
  afterAll(async () => t.close());

  /** Half the attempts through each handle, all started at once. */
  function contexts(): ServiceContext[] {
    return Array.from({ length: ATTEMPTS }, (_, i) => ({
      actor,
      db: i % 2 === 0 || dialect === 'sqlite' ? t.tocsin.database : other,
      clock: t.clock,
    }));
  }

  function outcome(results: PromiseSettledResult<unknown>[]): { stored: number; refused: string[] } {
    return {
      stored: results.filter((r) => r.status === 'fulfilled').length,
      refused: results
        .filter((r): r is PromiseRejectedResult => r.status === 'rejected')
        .map((r) => (r.reason as { code?: string }).code ?? String(r.reason)),
    };
  }

  it('monitors: exactly the limit is stored', async () => {
    const results = await Promise.allSettled(
      contexts().map((ctx, i) =>
        t.tocsin.services.monitors.create(ctx, { target: `https://m${i}.example.com`, interval_seconds: 60 }),
      ),
    );
    const { stored, refused } = outcome(results);
    expect(refused).toEqual(Array(ATTEMPTS - LIMIT).fill('plan_limit_exceeded'));
    expect(stored).toBe(LIMIT);
    const listed = await t.tocsin.services.monitors.list(
      { actor, db: t.tocsin.database, clock: t.clock },
      {},
      { limit: 50 },
    );
    expect(listed.data).toHaveLength(LIMIT);
  });

  it('status pages: exactly the limit is stored', async () => {
    const results = await Promise.allSettled(
      contexts().map((ctx, i) => t.tocsin.services.statusPages.create(ctx, { slug: `page-${i}`, title: `Page ${i}` })),
    );
    const { stored, refused } = outcome(results);
    expect(refused).toEqual(Array(ATTEMPTS - LIMIT).fill('plan_limit_exceeded'));
    expect(stored).toBe(LIMIT);
    const listed = await t.tocsin.services.statusPages.list(
      { actor, db: t.tocsin.database, clock: t.clock },
      { limit: 50 },
    );
    expect(listed.data).toHaveLength(LIMIT);
  });
});
