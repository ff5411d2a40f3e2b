import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { bearer, createTestApp, ManualClock } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';

/** Lets pending work run until it waits on something (a connection, a lock): several loop turns, to be sure. */
const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};

/**
 * Checks are never starved by API traffic (issue 36 item 8, docs/architecture.md "Checks before the API"): the
 * engine's claims use the urgent lane of the database, so a claim asked for after 30 API statements already wait for
 * the connection is answered before them (SQLite: one connection), or while every API connection is busy
 * (PostgreSQL: the lane's own pool).
 */
describe.each(testDialects())('the check engine before queued API work on %s', (dialect) => {
  it('a claim queued behind 30 API statements is served first', async () => {
    const clock = new ManualClock(Date.parse('2026-03-01T10:00:00.000Z'));
    const t = await createTestApp({ dialect, clock });
    try {
      const org = await t.createOrg();
      const created = await t.tocsin.app.inject({
        method: 'POST',
        url: '/api/v1/monitors',
        headers: bearer(org.apiKey),
        payload: { target: 'https://example.com/health', interval_seconds: 30 },
      });
      expect(created.statusCode).toBe(201);
      const id = created.json<{ id: string }>().id;
      clock.advance(5_000);
      const order: string[] = [];
      let open!: () => void;
      const gate = new Promise<void>((resolve) => (open = resolve));
      // Every ordinary connection busy: SQLite's one, PostgreSQL's pool of 10 (the default).
      const holders = Array.from({ length: dialect === 'sqlite' ? 1 : 10 }, () =>
        t.tocsin.database.transaction(async () => {
          await gate;
        }),
      );
      await settle();
      // 30 statements of API requests (a monitor read each) queue for the connection first.
      const reads = Array.from({ length: 30 }, () =>
        sql<{ id: string }>`select id from monitor where id = ${id}`
          .execute(t.tocsin.database.tables<Record<string, never>>())
          .then((r) => order.push(`api ${r.rows.length}`)),
      );
      // Until all 30 wait for a connection (after authentication, at their first statement).
      while (t.tocsin.database.waitingForConnection() < 30) await settle();
      expect(order).toEqual([]);
      const claim = t.tocsin.services.checks.engine.claim('lane-test', ['local'], 10).then((claimed) => {
        order.push('claim');
        return claimed;
      });
      if (dialect === 'postgres') {
        expect((await claim).map((c) => c.monitorId)).toEqual([id]);
        expect(order).toEqual(['claim']);
        open();
      } else {
        await settle();
        open();
        expect((await claim).map((c) => c.monitorId)).toEqual([id]);
      }
      await Promise.all([...holders, ...reads]);
      expect(order).toEqual(['claim', ...Array<string>(30).fill('api 1')]);
    } finally {
      await t.close();
    }
  });
});
