import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../../../../test/support/databases.ts';
import type { Database } from '../../../platform/db/index.ts';
import { PingCommitQueue } from './ping-commit.queue.ts';

type Work = (tx: Database) => Promise<void>;
/** A queue whose items are the work itself, run in order in the batch's transaction. */
const queueOf = (database: Database) =>
  new PingCommitQueue<Work>(database, async (tx, works) => {
    for (const work of works) await work(tx);
  });

/** The database, counting the transactions begun through it (the queue's own, not nested ones). */
function counting(database: Database): { database: Database; transactions: () => number } {
  let n = 0;
  const wrapped: Database = Object.create(database) as Database;
  wrapped.transaction = (work) => {
    n++;
    return database.transaction(work);
  };
  return { database: wrapped, transactions: () => n };
}

const insert = (tx: Database, id: string) =>
  sql`insert into ping_probe (id) values (${id})`.execute(tx.tables()).then(() => undefined);

describe.each(testDialects())('PingCommitQueue on %s', (dialect) => {
  let db: TestDatabase;
  const rows = async () =>
    (await sql<{ id: string }>`select id from ping_probe order by id`.execute(db.database.tables())).rows.map(
      (r) => r.id,
    );

  beforeAll(async () => {
    db = await createTestDatabase(dialect, { migrate: false });
    await sql`create table ping_probe (id text primary key)`.execute(db.database.tables());
  });
  afterAll(async () => {
    await db.drop();
  });

  it('pings that arrive in one turn of the event loop share one transaction, each answered after its commit', async () => {
    await sql`delete from ping_probe`.execute(db.database.tables());
    const { database, transactions } = counting(db.database);
    const queue = queueOf(database);
    const stored: number[] = [];
    // As requests read in one turn of the event loop: each in a callback of its own (immediates here, all run in
    // one check phase; sockets in the server), with microtasks run between them. On SQLite a transaction started at
    // once ran to its commit in those microtasks, before the next callback: a transaction per ping (the bug).
    const acks = Array.from(
      { length: 40 },
      (_, i) =>
        new Promise<void>((resolve, reject) =>
          setImmediate(() => {
            queue
              .run((tx) => insert(tx, `p${String(i).padStart(2, '0')}`))
              .then(async () => void stored.push((await rows()).length))
              .then(resolve, reject);
          }),
        ),
    );
    await Promise.all(acks);
    expect(transactions()).toBe(1);
    expect(stored.every((n) => n === 40)).toBe(true);
  });

  it('what arrives while a transaction is in flight goes in the next one', async () => {
    await sql`delete from ping_probe`.execute(db.database.tables());
    const { database, transactions } = counting(db.database);
    const queue = queueOf(database);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = queue.run(async (tx) => {
      await insert(tx, 'a');
      await held;
    });
    await new Promise((resolve) => setImmediate(resolve));
    const later = Array.from({ length: 10 }, (_, i) => queue.run((tx) => insert(tx, `b${i}`)));
    release();
    await Promise.all([first, ...later]);
    expect(transactions()).toBe(2);
    expect(await rows()).toHaveLength(11);
  });

  it('a ping that fails fails alone: the others of its batch are stored and answered', async () => {
    await sql`delete from ping_probe`.execute(db.database.tables());
    const { database, transactions } = counting(db.database);
    const queue = queueOf(database);
    const results = await Promise.allSettled([
      queue.run((tx) => insert(tx, 'x1')),
      queue.run((tx) => insert(tx, 'x1')), // a duplicate key: fails
      queue.run((tx) => insert(tx, 'x2')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await rows()).toEqual(['x1', 'x2']);
    // the batch, then each of its three again alone
    expect(transactions()).toBe(4);
  });
});
