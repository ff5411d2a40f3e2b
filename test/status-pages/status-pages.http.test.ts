import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MonitorTransition } from '../../src/modules/incidents/index.ts';
import { bearer, createTestApp, ManualClock, TEST_PLANS, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are inspected loosely in tests
type Json = Record<string, any>;

for (const dialect of testDialects()) {
  describe(`${dialect}: status pages`, () => {
    let t: TestApp;
    let org: TestOrg;
    let clock: ManualClock;
    let n = 0;

    beforeAll(async () => {
      clock = new ManualClock('2026-05-10T10:00:00.000Z');
      t = await createTestApp({ dialect, clock, configFile: { plans: { ...TEST_PLANS, team: { status_pages: 2 } } } });
      org = await t.createOrg();
    });
    afterAll(async () => t.close());

    async function call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown, key = org.apiKey) {
      const res = await t.tocsin.app.inject({
        method,
        url,
        headers: bearer(key),
        ...(body !== undefined && { payload: body as Json }),
      });
      return { status: res.statusCode, body: res.body === '' ? undefined : (res.json() as Json) };
    }

    async function monitor(name: string, key = org.apiKey, environment = 'production'): Promise<Json> {
      clock.advance(1);
      const res = await call('POST', '/api/v1/monitors', { name, target: 'https://example.com', environment }, key);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body!;
    }

    const slug = () => `acme-${dialect}-${++n}`;

    it('creates, reads, lists, updates and deletes a page', async () => {
      const m = await monitor('API');
      const s = slug();
      const created = await call('POST', '/api/v1/status-pages', { slug: s, title: 'Acme', monitor_ids: [m.id] });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        id: expect.stringMatching(/^stp_/),
        slug: s,
        title: 'Acme',
        monitor_ids: [m.id],
        public: true,
        url: expect.stringContaining(`/status/${s}`),
      });
      const id = created.body!.id as string;
      expect((await call('GET', `/api/v1/status-pages/${id}`)).body).toEqual(created.body);
      const list = await call('GET', '/api/v1/status-pages?limit=1');
      expect(list.body!.data).toHaveLength(1);
      clock.advance(1000);
      const patched = await call('PATCH', `/api/v1/status-pages/${id}`, {
        title: 'Acme Inc',
        public: false,
        monitor_ids: [],
      });
      expect(patched.body).toMatchObject({ title: 'Acme Inc', public: false, monitor_ids: [], slug: s });
      expect(patched.body!.updated_at).not.toBe(created.body!.updated_at);
      expect((await call('DELETE', `/api/v1/status-pages/${id}`)).status).toBe(204);
      expect((await call('GET', `/api/v1/status-pages/${id}`)).status).toBe(404);
    });

    it('answers 401, 403, 404 across organizations and 422 naming the field', async () => {
      expect((await t.tocsin.app.inject({ method: 'GET', url: '/api/v1/status-pages' })).statusCode).toBe(401);
      const readOnly = await t.createOrg({ scopes: ['status_pages:read'] });
      const denied = await call('POST', '/api/v1/status-pages', { slug: slug(), title: 'x' }, readOnly.apiKey);
      expect(denied.body!.error).toMatchObject({
        code: 'insufficient_scope',
        message: expect.stringContaining('status_pages:write'),
      });
      const writeOnly = await t.createOrg({ scopes: ['status_pages:write'] });
      expect((await call('GET', '/api/v1/status-pages', undefined, writeOnly.apiKey)).status).toBe(403);

      const other = await t.createOrg();
      const theirs = await call('POST', '/api/v1/status-pages', { slug: slug(), title: 'Theirs' }, other.apiKey);
      for (const [method, body] of [
        ['GET', undefined],
        ['PATCH', { title: 'x' }],
        ['DELETE', undefined],
      ] as const) {
        expect((await call(method, `/api/v1/status-pages/${theirs.body!.id}`, body)).status).toBe(404);
      }
      const foreign = await monitor('Foreign', other.apiKey);
      const mine = await monitor('Mine');
      const bad = await call('POST', '/api/v1/status-pages', {
        slug: 'Bad Slug',
        title: '',
        monitor_ids: [mine.id, foreign.id, mine.id],
        extra: 1,
      });
      expect(bad.status).toBe(422);
      expect(bad.body!.error.details.map((d: Json) => d.field).sort()).toEqual(
        ['extra', 'monitor_ids[1]', 'monitor_ids[2]', 'slug', 'title'].sort(),
      );
      const taken = await call('POST', '/api/v1/status-pages', { slug: theirs.body!.slug, title: 'x' });
      expect(taken.status).toBe(422);
      expect(taken.body!.error.details).toEqual([{ field: 'slug', issue: expect.stringContaining('taken') }]);
      expect((await call('POST', '/api/v1/status-pages', { slug: 'ab', title: 'x' })).status).toBe(422);
      expect((await call('POST', '/api/v1/status-pages', { title: 'x' })).status).toBe(422);
    });

    it('enforces the plan count of status pages', async () => {
      const team = await t.createOrg({ plan: 'team' });
      for (let i = 0; i < 2; i++)
        expect((await call('POST', '/api/v1/status-pages', { slug: slug(), title: 't' }, team.apiKey)).status).toBe(
          201,
        );
      const over = await call('POST', '/api/v1/status-pages', { slug: slug(), title: 't' }, team.apiKey);
      expect(over.status).toBe(403);
      expect(over.body!.error).toMatchObject({
        code: 'plan_limit_exceeded',
        message: expect.stringContaining('status pages'),
      });
    });

    it('shows a down monitor as degraded, with 90 days of bars, open incidents, escaped text and caching', async () => {
      const api = await monitor('API <script>alert(1)</script>');
      const web = await monitor('Website');
      const s = slug();
      await call('POST', '/api/v1/status-pages', { slug: s, title: 'Acme & Co', monitor_ids: [api.id, web.id] });
      await t.tocsin.services.monitors.recordStatus(web.id, 'up', clock.now());
      await t.tocsin.services.monitors.recordStatus(api.id, 'down', clock.now());
      const tr: MonitorTransition = {
        organizationId: org.organizationId,
        monitorId: api.id,
        monitorName: api.name,
        from: 'up',
        to: 'down',
        at: clock.now(),
        cause: 'HTTP 503',
        executionId: null,
      };
      await t.tocsin.database.transaction((tx) => t.tocsin.services.incidents.handleMonitorTransition(tx, tr));

      const json = await t.tocsin.app.inject({ method: 'GET', url: `/status/${s}.json` });
      expect(json.statusCode).toBe(200);
      expect(json.headers['cache-control']).toBe('public, max-age=30');
      const body = json.json() as Json;
      expect(body).toMatchObject({ slug: s, title: 'Acme & Co', status: 'degraded' });
      expect(body.monitors.map((m: Json) => [m.name, m.status])).toEqual([
        [api.name, 'degraded'],
        ['Website', 'operational'],
      ]);
      expect(body.monitors[0].days).toHaveLength(90);
      expect(body.monitors[0].days[89].day).toBe('2026-05-10');
      expect(body.monitors[0].days[0]).toEqual({
        day: '2026-02-10',
        checks: 0,
        failures: 0,
        downtime_seconds: 0,
        uptime_percent: null,
        monitored_seconds: 0,
        paused_seconds: 0,
        maintenance_seconds: 0,
      });
      expect(body.monitors[0].uptime_percent).toBeNull();
      expect(body.incidents).toEqual([
        {
          id: expect.stringMatching(/^inc_/),
          number: expect.any(Number),
          title: `${api.name} is down`,
          status: 'opened',
          monitor_id: api.id,
          started_at: new Date(clock.now()).toISOString(),
          opened_at: new Date(clock.now()).toISOString(),
          resolved_at: null,
          duration_seconds: 0,
        },
      ]);
      expect(JSON.stringify(body)).not.toContain('HTTP 503');

      const html = await t.tocsin.app.inject({ method: 'GET', url: `/status/${s}` });
      expect(html.statusCode).toBe(200);
      expect(html.headers['content-type']).toContain('text/html');
      expect(html.headers['cache-control']).toBe('public, max-age=30');
      const text = html.body;
      expect(text).toContain('<meta name="viewport"');
      expect(text).toContain('<main>');
      expect(text).toContain('! Partial outage<small>1 of 2 systems degraded</small>');
      expect(text).toContain('<span class="st degraded">! Degraded</span>');
      expect(text).toContain('<span class="st operational">✓ Operational</span>');
      expect(text).toContain('API &lt;script&gt;alert(1)&lt;/script&gt;');
      expect(text).not.toContain('<script>');
      expect(text).toContain('Acme &amp; Co');
      expect(text).toContain('<li class="none"><span>2026-05-10: no data</span></li>');
      expect(text.match(/<li class="none"/g)).toHaveLength(180);
      expect(text).toContain('Current incidents');
      expect(text.length).toBeLessThan(60_000);
    });

    it('answers 404 for unknown and non-public pages, JSON envelope or a small HTML page', async () => {
      const s = slug();
      await call('POST', '/api/v1/status-pages', { slug: s, title: 'Hidden', public: false });
      for (const path of [`/status/${s}`, '/status/no-such-page']) {
        const res = await t.tocsin.app.inject({ method: 'GET', url: path });
        expect(res.statusCode).toBe(404);
        expect(res.headers['content-type']).toContain('text/html');
        expect(res.body).toContain('Status page not found');
      }
      for (const path of [`/status/${s}.json`, '/status/no-such-page.json']) {
        const res = await t.tocsin.app.inject({ method: 'GET', url: path });
        expect(res.statusCode).toBe(404);
        expect((res.json() as Json).error.code).toBe('not_found');
      }
    });

    it('drops a deleted monitor from its pages', async () => {
      const m = await monitor('Gone soon');
      const page = await call('POST', '/api/v1/status-pages', { slug: slug(), title: 'x', monitor_ids: [m.id] });
      expect((await call('DELETE', `/api/v1/monitors/${m.id}`)).status).toBe(204);
      expect((await call('GET', `/api/v1/status-pages/${page.body!.id}`)).body!.monitor_ids).toEqual([]);
    });
  });
}
