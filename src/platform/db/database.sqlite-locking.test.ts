import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './database.ts';

/** Two connections to one SQLite file, as the server's main thread and a report thread have. */
function twoConnections() {
  const path = join(mkdtempSync(join(tmpdir(), 'tocsin-locking-')), 'tocsin.db');
  return [openDatabase({ url: null, sqlitePath: path }), openDatabase({ url: null, sqlitePath: path })] as const;
}

describe('SQLite transactions and the write lock', () => {
  it('a write transaction takes the write lock at BEGIN (IMMEDIATE), so another connection cannot write meanwhile', async () => {
    const [a, b] = twoConnections();
    try {
      await sql`create table t (x integer)`.execute(a.tables<unknown>());
      await a.transaction(async (tx) => {
        // Nothing written yet, but the lock is held: a deferred BEGIN would not have taken it.
        await sql`pragma busy_timeout = 0`.execute(b.tables<unknown>());
        await expect(sql`insert into t values (2)`.execute(b.tables<unknown>())).rejects.toThrow(/locked|busy/i);
        await sql`insert into t values (1)`.execute(tx.tables<unknown>());
      });
      const rows = await sql<{ x: number }>`select x from t`.execute(b.tables<unknown>());
      expect(rows.rows).toEqual([{ x: 1 }]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('a read-only transaction (a report’s snapshot) stays deferred: another connection writes meanwhile', async () => {
    const [reader, writer] = twoConnections();
    try {
      await sql`create table t (x integer)`.execute(writer.tables<unknown>());
      await sql`pragma busy_timeout = 0`.execute(writer.tables<unknown>());
      const seen = await reader
        .tables<unknown>()
        .transaction()
        .setAccessMode('read only')
        .execute(async (trx) => {
          const before = await sql<{ n: number }>`select count(*) as n from t`.execute(trx);
          // The check engine's write goes through at once, while the snapshot is open.
          await sql`insert into t values (1)`.execute(writer.tables<unknown>());
          const after = await sql<{ n: number }>`select count(*) as n from t`.execute(trx);
          return [before.rows[0]!.n, after.rows[0]!.n];
        });
      expect(seen).toEqual([0, 0]);
    } finally {
      await reader.close();
      await writer.close();
    }
  });
});
