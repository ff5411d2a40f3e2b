import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/databases.ts';
import { skipWithout } from '../../../test/support/services.ts';

describe.skipIf(skipWithout('postgres'))('PostgreSQL sessions end soon after their client is lost', () => {
  let db: TestDatabase | undefined;
  afterAll(async () => db?.drop());

  it('sets server-side TCP keepalives on every pooled connection, so a dead replica frees its row locks', async () => {
    db = await createTestDatabase('postgres');
    // Several connections at once: each new one is set up, not only the first.
    const rows = await Promise.all(
      [1, 2, 3].map(() =>
        db!.database.transaction(async (tx) => {
          const t = tx.tables<Record<string, never>>();
          const idle = await sql<{ v: string }>`select current_setting('tcp_keepalives_idle') as v`.execute(t);
          const interval = await sql<{ v: string }>`select current_setting('tcp_keepalives_interval') as v`.execute(t);
          const count = await sql<{ v: string }>`select current_setting('tcp_keepalives_count') as v`.execute(t);
          return [idle.rows[0]!.v, interval.rows[0]!.v, count.rows[0]!.v];
        }),
      ),
    );
    for (const r of rows) expect(r).toEqual(['10', '5', '3']);
  });
});
