import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../../../test/support/databases.ts';
import { LanedLock } from './connection.lanes.ts';
import type { Database } from './database.ts';

/** Lets every pending promise chain run to where it waits (a lock, a pool): nothing left but timers and I/O. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('LanedLock', () => {
  it('hands the lock to the oldest urgent waiter before every normal one, each lane first come first served', async () => {
    const lock = new LanedLock();
    const order: string[] = [];
    await lock.acquire('normal');
    const waiters = [
      ...['n1', 'n2', 'n3'].map((name) => lock.acquire('normal').then(() => order.push(name))),
      ...['u1', 'u2'].map((name) => lock.acquire('urgent').then(() => order.push(name))),
    ];
    expect(lock.waiting).toEqual({ urgent: 2, normal: 3 });
    for (let i = 0; i < 5; i++) {
      lock.release();
      await settle();
    }
    await Promise.all(waiters);
    expect(order).toEqual(['u1', 'u2', 'n1', 'n2', 'n3']);
    // Each release woke exactly one waiter: the last one still holds the lock.
    let taken = false;
    void lock.acquire('urgent').then(() => (taken = true));
    await settle();
    expect(taken).toBe(false);
    lock.release();
    await settle();
    expect(taken).toBe(true);
  });
});

describe.each(testDialects())('the urgent lane on %s', (dialect) => {
  let db: TestDatabase | undefined;
  afterEach(async () => {
    await db?.drop();
    db = undefined;
  });

  const read = (database: Database) =>
    sql<{ v: number }>`select 1 as v`.execute(database.tables<Record<string, never>>());

  it('runs an urgent transaction before ordinary statements queued earlier, never inside an open transaction', async () => {
    db = await createTestDatabase(dialect);
    const database = db.database;
    await sql`create table lane_probe (n integer not null)`.execute(database.tables<Record<string, never>>());
    const order: string[] = [];
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    // Every ordinary connection is held by a transaction waiting on the gate (SQLite has one; the test pool five).
    const holders = Array.from({ length: dialect === 'sqlite' ? 1 : 5 }, (_, i) =>
      database.transaction(async (tx) => {
        await sql`insert into lane_probe (n) values (${i})`.execute(tx.tables<Record<string, never>>());
        await gate;
        order.push('holder committed');
      }),
    );
    await settle();
    // 20 ordinary reads (the API's) queue for the connection, then the engine's transaction.
    const api = Array.from({ length: 20 }, () => read(database).then(() => order.push('api')));
    await settle();
    const urgent = database.urgent().transaction(async (tx) => {
      const t = tx.tables<Record<string, never>>();
      const seen = await sql<{ c: number }>`select count(*) as c from lane_probe`.execute(t);
      await sql`insert into lane_probe (n) values (100)`.execute(t);
      order.push('urgent');
      return Number(seen.rows[0]!.c);
    });
    if (dialect === 'postgres') {
      // Its own pool: done while every ordinary connection is still held, seeing none of their uncommitted rows.
      expect(await urgent).toBe(0);
      open();
    } else {
      await settle();
      open();
      // The one connection: after the open transaction commits, and before the 20 reads queued earlier.
      expect(await urgent).toBe(1);
    }
    await Promise.all([...holders, ...api]);
    const firstApi = order.indexOf('api');
    expect(order.indexOf('urgent')).toBeLessThan(firstApi);
    expect(order.filter((o) => o === 'api')).toHaveLength(20);
    if (dialect === 'sqlite') expect(order.slice(0, 2)).toEqual(['holder committed', 'urgent']);
  });

  it('an urgent transaction that fails rolls back and frees the connection for the queued work', async () => {
    db = await createTestDatabase(dialect);
    const database = db.database;
    await sql`create table lane_probe (n integer not null)`.execute(database.tables<Record<string, never>>());
    const failed = database.urgent().transaction(async (tx) => {
      await sql`insert into lane_probe (n) values (1)`.execute(tx.tables<Record<string, never>>());
      throw new Error('boom');
    });
    const queued = Array.from({ length: 5 }, () => read(database));
    await expect(failed).rejects.toThrow('boom');
    expect((await Promise.all(queued)).map((r) => r.rows[0]!.v)).toEqual([1, 1, 1, 1, 1]);
    const rows = await sql<{ c: number }>`select count(*) as c from lane_probe`.execute(
      database.tables<Record<string, never>>(),
    );
    expect(Number(rows.rows[0]!.c)).toBe(0);
  });

  it('inside a transaction, urgent() is the transaction itself', async () => {
    db = await createTestDatabase(dialect);
    await db.database.transaction(async (tx) => {
      expect(tx.urgent()).toBe(tx);
    });
  });
});
