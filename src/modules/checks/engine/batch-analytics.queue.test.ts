import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../../../../test/support/databases.ts';
import { createLogger } from '../../../platform/logger.ts';
import { ManualTimers } from '../../../platform/timers.ts';
import type { Monitor } from '../../monitors/index.ts';
import { BatchAnalyticsQueue, type BatchAnalytics, type CommittedBatch } from './batch-analytics.queue.ts';
import type { CheckResult } from './check.types.ts';

const logger = createLogger({ level: 'silent', pretty: false });

/** A committed batch of one result; `at` tells batches apart. */
function batch(at: number): CommittedBatch {
  const result = { monitorId: 'mon_a', regionCode: 'local', dueAt: at } as CheckResult;
  return { results: [result], monitors: new Map<string, Monitor>(), transitions: [] };
}

describe.each(testDialects())('BatchAnalyticsQueue (%s)', (dialect) => {
  let db: TestDatabase;
  let failures: string[];
  beforeEach(async () => {
    db = await createTestDatabase(dialect, { migrate: false });
    failures = [];
  });
  afterEach(async () => {
    await db.drop();
  });

  function queue(analytics: BatchAnalytics[], options: { budgetMs?: number; maxPending?: number } = {}) {
    return new BatchAnalyticsQueue({
      database: db.database,
      logger,
      timers: new ManualTimers(),
      analytics,
      budgetMs: options.budgetMs ?? 5_000,
      maxPending: options.maxPending ?? 10,
      metrics: { checkAnalyticsFailed: (name, reason) => failures.push(`${name}:${reason}`) },
    });
  }

  it('runs every step of every batch in commit order, each in a transaction; a failure skips only that step', async () => {
    const seen: string[] = [];
    const q = queue([
      {
        name: 'first',
        async afterBatch(tx, b) {
          expect(tx.inTransaction).toBe(true);
          const at = b.results[0]!.dueAt;
          if (at === 2) throw new Error('boom');
          seen.push(`first ${at}`);
        },
      },
      { name: 'second', afterBatch: async (_tx, b) => void seen.push(`second ${b.results[0]!.dueAt}`) },
    ]);
    for (const at of [1, 2, 3]) q.push(batch(at));
    await q.settled();
    expect(seen).toEqual(['first 1', 'second 1', 'second 2', 'first 3', 'second 3']);
    expect(failures).toEqual(['first:error']);
  });

  it('drops (and counts) batches beyond maxPending instead of growing', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const seen: number[] = [];
    const q = queue(
      [
        {
          name: 'slow',
          async afterBatch(_tx, b) {
            await gate;
            seen.push(b.results[0]!.dueAt);
          },
        },
      ],
      { maxPending: 2 },
    );
    for (const at of [1, 2, 3, 4]) q.push(batch(at)); // 1 runs, 2 and 3 wait, 4 is one too many
    release();
    await q.settled();
    expect(seen).toEqual([1, 2, 3]);
    expect(failures).toEqual(['slow:dropped']);
  });

  if (dialect === 'postgres') {
    it('PostgreSQL: a statement running past the budget is cancelled by the server (timeout), the connection freed', async () => {
      const q = queue(
        [{ name: 'sleepy', afterBatch: async (tx) => void (await sql`select pg_sleep(30)`.execute(tx.tables())) }],
        {
          budgetMs: 200,
        },
      );
      q.push(batch(1));
      // The injected timers never fire here: only the server's statement_timeout can end the sleep.
      await q.settled();
      expect(failures).toEqual(['sleepy:timeout']);
      expect(await db.database.ping()).toBe(true);
    });
  }
});
