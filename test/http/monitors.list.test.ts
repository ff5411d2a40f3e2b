import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../support/databases.ts';
import { bearer, createTestApp, ManualClock, type TestApp, type TestOrg } from '../support/app.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON read back from responses
type Json = Record<string, any>;

/** GET /monitors `sort` and GET /monitors/summaries (issue 36 item 7), on every configured dialect. */
for (const dialect of testDialects()) {
  describe(`${dialect}: monitors list sort, search and summaries`, () => {
    let t: TestApp;
    let org: TestOrg;
    const made: Json[] = [];

    async function call(url: string) {
      const res = await t.tocsin.app.inject({ method: 'GET', url, headers: bearer(org.apiKey) });
      return { status: res.statusCode, body: res.json() as Json, bytes: res.rawPayload.length };
    }

    /** Every page of `url` (which has a `?`), following next_cursor. */
    async function all(url: string): Promise<Json[]> {
      const rows: Json[] = [];
      let cursor: string | null = null;
      do {
        const res = await call(`${url}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        rows.push(...res.body.data);
        cursor = res.body.next_cursor;
      } while (cursor);
      return rows;
    }

    beforeAll(async () => {
      t = await createTestApp({ dialect });
      org = await t.createOrg();
      const names = ['Checkout', 'api gateway', 'Billing', 'zebra', 'API docs', 'auth', 'Crm', 'búsqueda'];
      for (let i = 0; i < names.length; i++) {
        (t.clock as ManualClock).advance(1);
        const res = await t.tocsin.app.inject({
          method: 'POST',
          url: '/api/v1/monitors',
          headers: bearer(org.apiKey),
          payload: {
            name: names[i],
            target: `https://${i}.example.com/path_${i}`,
            tags: [i % 2 ? 'odd' : 'even'],
            config: { headers: { 'x-padding': 'p'.repeat(400) } },
          },
        });
        expect(res.statusCode, res.body).toBe(201);
        made.push(res.json() as Json);
      }
      // One paused, so that sort=status has more than one rank.
      await t.tocsin.app.inject({
        method: 'POST',
        url: `/api/v1/monitors/${made[2]!.id}/pause`,
        headers: bearer(org.apiKey),
      });
    });
    afterAll(async () => t.close());

    it('sort=name pages in name order (case-insensitive) with cursors of 3', async () => {
      const rows = await all('/api/v1/monitors?sort=name&limit=3');
      expect(rows.map((m) => m.name)).toEqual(
        [...made.map((m) => m.name as string)].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1)),
      );
    });

    it('sort=status puts the paused monitor last; a filter and search narrow it', async () => {
      const rows = await all('/api/v1/monitors/summaries?sort=status&limit=2');
      expect(rows[rows.length - 1]!.id).toBe(made[2]!.id);
      expect(rows).toHaveLength(made.length);
      const found = await all('/api/v1/monitors/summaries?q=API&sort=name&limit=1');
      expect(found.map((m) => m.name)).toEqual(['API docs', 'api gateway']);
      const even = await all('/api/v1/monitors/summaries?tag=even&q=example.com/path_&sort=name');
      expect(even.map((m) => m.name)).toEqual(['API docs', 'Billing', 'Checkout', 'Crm']);
      expect((await all('/api/v1/monitors?q=SQUED&sort=type')).map((m) => m.name)).toEqual(['búsqueda']);
    });

    it('summaries carry the row fields only, and the total with the first page', async () => {
      const first = await call('/api/v1/monitors/summaries?limit=2&sort=name');
      expect(first.body.total).toBe(made.length);
      expect(Object.keys(first.body.data[0]).sort()).toEqual(
        ['environment', 'id', 'last_checked_at', 'name', 'paused', 'status', 'tags', 'target', 'type'].sort(),
      );
      const full = await call('/api/v1/monitors?limit=2&sort=name');
      // The padding header is in the full records' config only.
      expect(first.bytes * 3).toBeLessThan(full.bytes);
      const second = await call(`/api/v1/monitors/summaries?limit=2&sort=name&cursor=${first.body.next_cursor}`);
      expect(second.body.total).toBeUndefined();
      expect(second.body.data[0].name).toBe('auth');
      expect((await call('/api/v1/monitors/summaries?q=zeb')).body.total).toBe(1);
    });

    it('refuses an unknown sort and a cursor of another sort (422 naming the field)', async () => {
      const bad = await call('/api/v1/monitors?sort=colour');
      expect(bad.status).toBe(422);
      expect(JSON.stringify(bad.body)).toContain('sort');
      const page = await call('/api/v1/monitors?sort=name&limit=1');
      const mixed = await call(`/api/v1/monitors?sort=status&cursor=${page.body.next_cursor}`);
      expect(mixed.status).toBe(422);
      expect(mixed.body.error.details[0].field).toBe('cursor');
    });
  });
}
