/**
 * Issue 36 item 8: `monitor_tag` (the index of the list's `tag=` filter) holds exactly the tags each monitor shows,
 * after every way a monitor's tags are written: create (the web app's clone is a create), an import's batch, PATCH
 * (tags changed, reordered, untouched), pause and resume, configuration apply (create, update, delete) and delete.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../api-access/helpers.ts';
import { createTestApp, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { OPENAPI_30_YAML } from '../imports/openapi.fixtures.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- API answers and rows read back

for (const dialect of testDialects()) {
  describe(`${dialect}: the tag index follows every writer of a monitor's tags`, () => {
    let t: TestApp;
    let o: TestOrg;
    const api = async (method: string, url: string, body?: unknown) => {
      const res = await call(t, o.apiKey, method, url, body === undefined ? {} : { body });
      expect(res.statusCode, res.body).toBeLessThan(300);
      return res.statusCode === 204 ? {} : (res.json() as Json);
    };

    beforeAll(async () => {
      t = await createTestApp({ dialect });
      o = await t.createOrg();
    });
    afterAll(async () => t.close());

    /** Every monitor's tags as the API shows them, and as `monitor_tag` holds them: the two must agree. */
    async function expectConsistent(): Promise<Array<[string, string]>> {
      const db = t.tocsin.database.tables<Json>();
      const monitors = await db.selectFrom('monitor').select(['id', 'tags']).execute();
      const shown = monitors
        .flatMap((m: Json) => [...new Set(JSON.parse(m.tags as string) as string[])].map((tag) => `${m.id} ${tag}`))
        .sort();
      const indexed = (await db.selectFrom('monitor_tag').select(['monitor_id', 'tag', 'organization_id']).execute())
        .map((r: Json) => {
          expect(r.organization_id).toBe(o.organizationId);
          return `${r.monitor_id} ${r.tag}`;
        })
        .sort();
      expect(indexed).toEqual(shown);
      return indexed.map((line) => line.split(' ') as [string, string]);
    }

    /** The ids `GET /monitors?tag=` lists (every page). */
    async function tagged(tag: string): Promise<string[]> {
      const page = await api('GET', `/api/v1/monitors?tag=${encodeURIComponent(tag)}&limit=200`);
      return (page.data as Json[]).map((m) => m.id as string).sort();
    }

    it('create, PATCH, pause and resume, delete', async () => {
      const a = await api('POST', '/api/v1/monitors', { target: 'https://a.example.com', tags: ['red', 'team:web'] });
      const b = await api('POST', '/api/v1/monitors', { target: 'https://b.example.com', tags: [] });
      const c = await api('POST', '/api/v1/monitors', { target: 'https://c.example.com', tags: ['red'], paused: true });
      expect(await expectConsistent()).toHaveLength(3);
      expect(await tagged('red')).toEqual([a.id, c.id].sort());

      await api('PATCH', `/api/v1/monitors/${a.id}`, { tags: ['blue', 'team:web'] });
      await api('PATCH', `/api/v1/monitors/${b.id}`, { tags: ['red'] });
      await expectConsistent();
      expect(await tagged('red')).toEqual([b.id, c.id].sort());
      expect(await tagged('blue')).toEqual([a.id]);

      // Reordered (the list shown changes, the set does not), and a change of another field keeps them.
      await api('PATCH', `/api/v1/monitors/${a.id}`, { tags: ['team:web', 'blue'] });
      expect((await api('GET', `/api/v1/monitors/${a.id}`)).tags).toEqual(['team:web', 'blue']);
      await api('PATCH', `/api/v1/monitors/${c.id}`, { name: 'Renamed while paused' });
      await api('POST', `/api/v1/monitors/${c.id}/resume`);
      await api('PATCH', `/api/v1/monitors/${c.id}`, { tags: [], paused: true });
      await api('POST', `/api/v1/monitors/${a.id}/pause`);
      await expectConsistent();
      expect(await tagged('red')).toEqual([b.id]);
      expect(await tagged('team:web')).toEqual([a.id]);

      await api('DELETE', `/api/v1/monitors/${b.id}`);
      await expectConsistent();
      expect(await tagged('red')).toEqual([]);
    });

    it('an import (one batch) and configuration apply (create, update, delete)', async () => {
      const imported = await api('POST', '/api/v1/monitors/openapi/import', {
        spec: OPENAPI_30_YAML,
        operation_ids: ['health', 'getInvoice'],
        defaults: { paused: true, tags: ['imported', 'billing'] },
      });
      expect(imported.data).toHaveLength(2);
      await expectConsistent();
      expect(await tagged('imported')).toEqual((imported.data as Json[]).map((m) => m.id as string).sort());

      const document = (tags: string[], withDb: boolean) => ({
        version: 1,
        monitors: [
          { key: 'edge', name: 'Edge', target: 'https://edge.example.com', tags },
          ...(withDb ? [{ key: 'db', type: 'tcp', name: 'DB', target: 'db.example.com:5432', tags: ['data'] }] : []),
        ],
      });
      await api('POST', '/api/v1/config/apply', { document: document(['edge', 'config'], true) });
      await expectConsistent();
      const edge = await tagged('edge');
      expect(edge).toHaveLength(1);
      expect(await tagged('data')).toHaveLength(1);
      await api('POST', '/api/v1/config/apply', { document: document(['config', 'public'], false), prune: true });
      await expectConsistent();
      expect(await tagged('edge')).toEqual([]);
      expect(await tagged('public')).toEqual(edge);
    });
  });
}
