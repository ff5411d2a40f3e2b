import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ExecutionsRetention,
  ExecutionsService,
  ExecutionsStore,
  decodeExecutionId,
  encodeExecutionId,
} from '../../src/modules/checks/executions/index.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { createTestDatabase, testDialects, type TestDatabase } from '../support/databases.ts';
import { MON, MON2, actorOf, execution, fakeMonitors } from './executions.fixtures.ts';

const T0 = Date.parse('2026-03-01T10:00:00.000Z');

describe('execution ids', () => {
  it('round-trips key and time, sorts by time, rejects others', () => {
    for (const key of [1, 2, 1000, 2 ** 40 + 7, Number.MAX_SAFE_INTEGER]) {
      const id = encodeExecutionId(key, T0 + (key % 1000));
      expect(id).toMatch(/^exe_[0-9a-hjkmnp-tv-z]{26}$/);
      expect(decodeExecutionId(id)).toEqual({ key, startedAt: T0 + (key % 1000) });
    }
    expect(encodeExecutionId(5, T0) < encodeExecutionId(4, T0 + 1)).toBe(true);
    expect(decodeExecutionId('mon_01kaaaaaaaaaaaaaaaaaaaaaaa')).toBeNull();
    expect(decodeExecutionId('exe_short')).toBeNull();
  });
});

for (const dialect of testDialects()) {
  describe(`executions store (${dialect})`, () => {
    let db: TestDatabase;
    beforeAll(async () => {
      db = await createTestDatabase(dialect);
    });
    afterAll(async () => {
      await db.drop();
    });

    it('stores a batch, assigns ids and reads records back exactly', async () => {
      const store = new ExecutionsStore();
      const service = new ExecutionsService({ database: db.database, monitors: fakeMonitors() });
      const batch = [
        execution({ startedAt: T0 }),
        execution({ startedAt: T0 + 30_000, status: 'down', durationMs: 10_000 }),
        execution({
          startedAt: T0 + 60_000,
          regionCode: 'us-east',
          timings: { dns_ms: null, connect_ms: null, tls_ms: null, ttfb_ms: null, download_ms: null, total_ms: 99 },
          durationMs: 120,
          httpStatus: null,
          assertions: [],
        }),
        execution({
          startedAt: T0 + 90_000,
          assertions: [
            { type: 'status', equals: 200, passed: true, actual: 200 },
            { type: 'header', name: 'content-type', contains: 'json', passed: true, actual: 'application/json' },
          ],
        }),
      ];
      await db.database.transaction((tx) => store.recordBatch(tx, batch));
      for (const e of batch) expect(decodeExecutionId(e.id)?.startedAt).toBe(e.startedAt);
      for (const e of batch) {
        const back = await service.get(actorOf(), e.id);
        expect(back).toEqual({ ...e, intervalSeconds: undefined, details: null, timings: e.timings } as typeof back);
      }
      await expect(service.get(actorOf('org_01kzzzzzzzzzzzzzzzzzzzzzzz'), batch[0]!.id)).rejects.toMatchObject({
        code: 'not_found',
      });
      // A forged id with the right key but another time is unknown.
      const { key } = decodeExecutionId(batch[0]!.id)!;
      await expect(service.get(actorOf(), encodeExecutionId(key, T0 + 1))).rejects.toMatchObject({ code: 'not_found' });
    });

    it('lists newest first with filters and cursors', async () => {
      const database = (await createTestDatabase(dialect)) as TestDatabase;
      try {
        const store = new ExecutionsStore();
        const service = new ExecutionsService({ database: database.database, monitors: fakeMonitors() });
        const batch = Array.from({ length: 25 }, (_, i) =>
          execution({
            startedAt: T0 + i * 10_000,
            regionCode: i % 2 === 0 ? 'eu-west' : 'us-east',
            status: i % 5 === 0 ? 'down' : 'up',
            monitorId: MON,
          }),
        );
        await store.recordBatch(database.database, [...batch, execution({ monitorId: MON2, startedAt: T0 })]);
        const seen: string[] = [];
        let cursor: string | undefined;
        do {
          const page = await service.list(actorOf(), MON, { limit: 7, ...(cursor !== undefined && { cursor }) });
          seen.push(...page.data.map((e) => e.id));
          cursor = page.next_cursor ?? undefined;
        } while (cursor);
        expect(seen).toEqual([...batch].reverse().map((e) => e.id));
        const eu = await service.list(actorOf(), MON, { limit: 200, regionCode: 'us-east' });
        expect(eu.data).toHaveLength(12);
        expect(eu.data.every((e) => e.regionCode === 'us-east')).toBe(true);
        const down = await service.list(actorOf(), MON, { limit: 200, status: 'down' });
        expect(down.data.map((e) => e.startedAt)).toEqual([20, 15, 10, 5, 0].map((i) => T0 + i * 10_000));
        const ranged = await service.list(actorOf(), MON, { limit: 200, from: T0 + 50_000, to: T0 + 100_000 });
        expect(ranged.data.map((e) => e.startedAt)).toEqual([9, 8, 7, 6, 5].map((i) => T0 + i * 10_000));
        expect((await service.list(actorOf(), MON, { limit: 5, regionCode: 'nowhere' })).data).toEqual([]);
        await expect(service.list(actorOf(), MON, { limit: 5, cursor: 'garbage' })).rejects.toMatchObject({
          code: 'validation_failed',
        });
        await expect(service.list(actorOf('org_01kzzzzzzzzzzzzzzzzzzzzzzz'), MON, { limit: 5 })).rejects.toMatchObject({
          code: 'not_found',
        });
      } finally {
        await database.drop();
      }
    });

    it('rolls a transaction back with the caller', async () => {
      const database = await createTestDatabase(dialect);
      try {
        const store = new ExecutionsStore();
        const service = new ExecutionsService({ database: database.database, monitors: fakeMonitors() });
        await expect(
          database.database.transaction(async (tx) => {
            await store.recordBatch(tx, [execution()]);
            throw new Error('engine failed');
          }),
        ).rejects.toThrow('engine failed');
        expect((await service.list(actorOf(), MON, { limit: 10 })).data).toEqual([]);
        // Keys created by the rolled-back transaction were not cached: the next batch still works.
        await store.recordBatch(database.database, [execution()]);
        expect((await service.list(actorOf(), MON, { limit: 10 })).data).toHaveLength(1);
      } finally {
        await database.drop();
      }
    });

    it('purges expired executions in chunks', async () => {
      const database = await createTestDatabase(dialect);
      try {
        const clock = new ManualClock(T0);
        const store = new ExecutionsStore();
        const service = new ExecutionsService({ database: database.database, monitors: fakeMonitors() });
        const old = Array.from({ length: 230 }, (_, i) => execution({ startedAt: T0 - 40 * 86_400_000 + i * 1000 }));
        const recent = Array.from({ length: 20 }, (_, i) => execution({ startedAt: T0 - 86_400_000 + i * 1000 }));
        for (let i = 0; i < old.length; i += 100) await store.recordBatch(database.database, old.slice(i, i + 100));
        await store.recordBatch(database.database, recent);
        const sleeps: number[] = [];
        const retention = new ExecutionsRetention({
          database: database.database,
          clock,
          retentionDays: 30,
          chunkSize: 50,
          pauseMs: 7,
          sleep: async (ms) => void sleeps.push(ms),
        });
        expect(await retention.purgeOnce()).toBe(230);
        expect(sleeps.length).toBe(5); // 230 rows in chunks of 50
        expect(sleeps.every((ms) => ms === 7)).toBe(true);
        const left = await service.list(actorOf(), MON, { limit: 200 });
        expect(left.data).toHaveLength(20);
        expect(await retention.purgeOnce()).toBe(0);
        clock.advance(30 * 86_400_000);
        expect(await retention.purgeOnce()).toBe(20);
      } finally {
        await database.drop();
      }
    });
  });
}
