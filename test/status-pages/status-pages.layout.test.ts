import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, ManualClock, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are inspected loosely in tests
type Json = Record<string, any>;

/** DECISIONS §18 layout: ordered, collapsible groups with their worst state, and the page's own time zone. */
for (const dialect of testDialects()) {
  describe(`${dialect}: status page groups and time zone`, () => {
    let t: TestApp;
    let org: TestOrg;
    let clock: ManualClock;
    let n = 0;

    beforeAll(async () => {
      clock = new ManualClock('2026-05-10T10:00:00.000Z');
      t = await createTestApp({ dialect, clock });
      org = await t.createOrg();
    });
    afterAll(async () => t.close());

    async function call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) {
      const res = await t.tocsin.app.inject({
        method,
        url,
        headers: bearer(org.apiKey),
        ...(body !== undefined && { payload: body as Json }),
      });
      return { status: res.statusCode, body: res.body === '' ? undefined : (res.json() as Json) };
    }
    async function monitor(name: string): Promise<string> {
      clock.advance(1);
      const res = await call('POST', '/api/v1/monitors', { name, target: 'https://example.com' });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body!.id as string;
    }
    const slug = () => `layout-${dialect}-${++n}`;
    const fields = (body: Json | undefined) => (body?.error?.details as Array<{ field: string }>).map((d) => d.field);

    it('stores ordered groups, shows them as disclosures with the worst state, and keeps ungrouped monitors after', async () => {
      const [api, web, db, mail] = [
        await monitor('API'),
        await monitor('Web'),
        await monitor('DB'),
        await monitor('Mail'),
      ];
      const s = slug();
      const created = await call('POST', '/api/v1/status-pages', {
        slug: s,
        title: 'Grouped',
        groups: [
          { name: 'Frontend', monitor_ids: [web, api] },
          { name: ' Storage ', monitor_ids: [db], collapsed: true },
          { name: 'Empty', monitor_ids: [] },
        ],
        monitor_ids: [mail],
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body).toMatchObject({
        monitor_ids: [mail],
        groups: [
          { name: 'Frontend', monitor_ids: [web, api], collapsed: false },
          { name: 'Storage', monitor_ids: [db], collapsed: true },
          { name: 'Empty', monitor_ids: [], collapsed: false },
        ],
        access: 'public',
        password_set: false,
        custom_domain: null,
        timezone: 'UTC',
      });
      // The API monitor goes down: its group's header says so, the other groups do not.
      await t.tocsin.database
        .tables<{ monitor: { id: string; status: string } }>()
        .updateTable('monitor')
        .set({ status: 'down' })
        .where('id', '=', api)
        .execute();
      const json = (await t.tocsin.app.inject({ url: `/status/${s}.json` })).json() as Json;
      expect(json.groups).toEqual([
        { name: 'Frontend', collapsed: false, monitor_ids: [web, api], status: 'degraded' },
        { name: 'Storage', collapsed: true, monitor_ids: [db], status: 'pending' },
        { name: 'Empty', collapsed: false, monitor_ids: [], status: 'operational' },
      ]);
      expect((json.monitors as Json[]).map((m) => m.name)).toEqual(['Web', 'API', 'DB', 'Mail']);
      const html = (await t.tocsin.app.inject({ url: `/status/${s}` })).body;
      expect(html).toContain(
        '<details class="group" open><summary><span class="row"><span class="gname">Frontend <span class="count">(2 systems)</span></span><span class="st degraded">! Degraded</span></span></summary>',
      );
      expect(html).toContain(
        '<details class="group"><summary><span class="row"><span class="gname">Storage <span class="count">(1 system)</span></span><span class="st pending">… Awaiting first check</span>',
      );
      expect(html).toContain('No systems in this group.');
      // Web before API inside Frontend; Mail, ungrouped, after the groups.
      const order = ['>Web<', '>API<', '>DB<', '>Mail<'].map((name) => html.indexOf(name));
      expect(order.every((at, i) => at > 0 && (i === 0 || at > order[i - 1]!))).toBe(true);
      expect(html.indexOf('>Mail<')).toBeGreaterThan(html.lastIndexOf('</details>'));
      expect(html).toContain(
        '</details><p class="gname others">Other systems</p><ul class="plain"><li class="card monitor">',
      );

      // A deleted monitor leaves its group.
      expect((await call('DELETE', `/api/v1/monitors/${db}`)).status).toBe(204);
      const after = await call('GET', `/api/v1/status-pages/${created.body!.id}`);
      expect(after.body!.groups[1]).toEqual({ name: 'Storage', monitor_ids: [], collapsed: true });
    });

    it('refuses a monitor in two places or unknown, naming the field, and saves nothing', async () => {
      const [a, b] = [await monitor('A'), await monitor('B')];
      const s = slug();
      const twice = await call('POST', '/api/v1/status-pages', {
        slug: s,
        title: 'x',
        groups: [
          { name: 'One', monitor_ids: [a] },
          { name: 'Two', monitor_ids: [b, a] },
        ],
        monitor_ids: [b],
      });
      expect(twice.status).toBe(422);
      expect(fields(twice.body)).toEqual(['groups[1].monitor_ids[1]', 'monitor_ids[0]']);
      expect(JSON.stringify(twice.body)).toContain('already on the page (in group \\"One\\")');
      const unknown = await call('POST', '/api/v1/status-pages', {
        slug: s,
        title: 'x',
        groups: [{ name: 'One', monitor_ids: ['mon_00000000000000000000000000'] }],
      });
      expect(unknown.status).toBe(422);
      expect(fields(unknown.body)).toEqual(['groups[0].monitor_ids[0]']);
      const badShape = await call('POST', '/api/v1/status-pages', {
        slug: s,
        title: 'x',
        groups: [{ name: '  ', monitor_ids: [], extra: 1 }],
      });
      expect(badShape.status).toBe(422);
      expect(fields(badShape.body)).toEqual(expect.arrayContaining(['groups[0].name']));
      expect((await t.tocsin.app.inject({ url: `/status/${s}.json` })).statusCode).toBe(404);

      // A PATCH of the ungrouped list alone is checked against the groups it leaves in place.
      const page = await call('POST', '/api/v1/status-pages', {
        slug: s,
        title: 'x',
        groups: [{ name: 'One', monitor_ids: [a] }],
      });
      expect(page.status).toBe(201);
      const clash = await call('PATCH', `/api/v1/status-pages/${page.body!.id}`, { monitor_ids: [b, a] });
      expect(clash.status).toBe(422);
      expect(fields(clash.body)).toEqual(['monitor_ids[1]']);
      expect((await call('GET', `/api/v1/status-pages/${page.body!.id}`)).body!.monitor_ids).toEqual([]);
      // Moving a monitor from a group to the ungrouped list in one PATCH is fine.
      const moved = await call('PATCH', `/api/v1/status-pages/${page.body!.id}`, {
        groups: [{ name: 'One', monitor_ids: [] }],
        monitor_ids: [a],
      });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      expect(moved.body).toMatchObject({ monitor_ids: [a], groups: [{ name: 'One', monitor_ids: [] }] });
    });

    it("shows the page's times in its own zone and refuses unknown zones", async () => {
      const s = slug();
      for (const timezone of ['Mars/Olympus_Mons', '+02:00', '']) {
        const bad = await call('POST', '/api/v1/status-pages', { slug: s, title: 'x', timezone });
        expect(bad.status, timezone).toBe(422);
        expect(fields(bad.body)).toEqual(['timezone']);
      }
      const created = await call('POST', '/api/v1/status-pages', {
        slug: s,
        title: 'Zoned',
        timezone: 'europe/berlin',
      });
      expect(created.status).toBe(201);
      expect(created.body!.timezone).toBe('Europe/Berlin');
      // 10:00 UTC on 10 May is 12:00 summer time in Berlin.
      const html = (await t.tocsin.app.inject({ url: `/status/${s}` })).body;
      expect(html).toContain('Updated <time datetime="2026-05-10T10:00Z">2026-05-10 12:00 CEST</time>');
      expect(html).toContain('Times are Europe/Berlin');
      expect((await t.tocsin.app.inject({ url: `/status/${s}.json` })).json().timezone).toBe('Europe/Berlin');
      const tokyo = await call('PATCH', `/api/v1/status-pages/${created.body!.id}`, { timezone: 'Asia/Tokyo' });
      expect(tokyo.body!.timezone).toBe('Asia/Tokyo');
      expect((await t.tocsin.app.inject({ url: `/status/${s}` })).body).toContain(
        '<time datetime="2026-05-10T10:00Z">2026-05-10 19:00 GMT+9</time>',
      );
    });
  });
}
