import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../support/databases.ts';
import { bearer, createTestApp, ManualClock, type TestApp, type TestOrg } from '../support/app.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON read back from responses
type Json = Record<string, any>;

/** The monitors resource, happy paths, on every configured dialect. */
for (const dialect of testDialects()) {
  describe(`${dialect}: monitors API`, () => {
    let t: TestApp;
    let org: TestOrg;

    beforeAll(async () => {
      t = await createTestApp({ dialect, configFile: { regions: ['local', 'eu-west', 'us-east'] } });
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
      return { status: res.statusCode, body: res.body === '' ? undefined : (res.json() as Json), headers: res.headers };
    }

    async function create(body: Json, key = org.apiKey): Promise<Json> {
      // Ids sort by creation millisecond; move the clock so "oldest first" is well defined.
      (t.clock as ManualClock).advance(1);
      const res = await call('POST', '/api/v1/monitors', body, key);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body!;
    }

    describe('create', () => {
      it('fills the defaults from {"target": url}: host name, http, plan floor, org default region, production', async () => {
        const team = await t.createOrg({ plan: 'team', defaultRegion: 'us-east' });
        const res = await call('POST', '/api/v1/monitors', { target: 'https://example.com' }, team.apiKey);
        expect(res.status).toBe(201);
        expect(res.headers['content-type']).toContain('application/json');
        const m = res.body!;
        expect(m).toEqual({
          id: expect.stringMatching(/^mon_[0-9a-z]{26}$/),
          name: 'example.com',
          type: 'http',
          target: 'https://example.com',
          interval_seconds: 15,
          region_codes: ['us-east'],
          tags: [],
          environment: 'production',
          config: {
            method: 'GET',
            headers: {},
            body: null,
            timeout_ms: 10000,
            follow_redirects: true,
            verify_tls: true,
            assertions: [],
            failure_threshold: 2,
            success_threshold: 1,
            confirm_regions: null,
            alert_destination_ids: [],
            alert_latency_ms: null,
            reminder_interval_minutes: null,
          },
          paused: false,
          status: 'pending',
          status_changed_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
          last_checked_at: null,
          created_at: new Date(t.clock.now()).toISOString(),
          updated_at: new Date(t.clock.now()).toISOString(),
        });
      });

      it('takes every field of the spec example', async () => {
        const m = await create({
          name: 'Checkout',
          type: 'http',
          target: 'https://shop.example.com/health',
          interval_seconds: 30,
          region_codes: ['eu-west', 'us-east'],
          tags: ['prod', 'shop'],
          config: {
            method: 'HEAD',
            assertions: [{ type: 'status', equals: 200 }],
            failure_threshold: 3,
            success_threshold: 2,
          },
        });
        expect(m).toMatchObject({
          name: 'Checkout',
          interval_seconds: 30,
          region_codes: ['eu-west', 'us-east'],
          tags: ['prod', 'shop'],
          config: {
            method: 'HEAD',
            assertions: [{ type: 'status', equals: 200 }],
            failure_threshold: 3,
            success_threshold: 2,
          },
        });
      });

      it('creates every type', async () => {
        expect((await create({ type: 'tls', target: 'example.com:443' })).config.alert_days_before_expiry).toBe(14);
        expect((await create({ type: 'tcp', target: 'db.internal:5432' })).name).toBe('db.internal:5432');
        expect(
          (await create({ type: 'dns', target: 'example.com', config: { record_type: 'MX' } })).config.record_type,
        ).toBe('MX');
        expect((await create({ type: 'grpc', target: 'grpc.internal:50051' })).config).toMatchObject({
          tls: false,
          service: '',
        });
        const hb = await create({ type: 'heartbeat', name: 'nightly backup', interval_seconds: 86400 });
        expect(hb.heartbeat_url).toMatch(/\/api\/v1\/heartbeats\/[A-Za-z0-9_-]+$/);
        expect(hb.target).toBe(hb.heartbeat_url);
        expect(hb.config.grace_seconds).toBe(17280);
      });

      it('creates a paused monitor', async () => {
        expect(await create({ target: 'https://p.example.com', paused: true })).toMatchObject({
          paused: true,
          status: 'paused',
        });
      });
    });

    describe('read', () => {
      it('returns the record as created', async () => {
        const m = await create({ target: 'https://read.example.com' });
        const res = await call('GET', `/api/v1/monitors/${m.id}`);
        expect(res.status).toBe(200);
        expect(res.body).toEqual(m);
      });
    });

    describe('list', () => {
      let o: TestOrg;
      let ms: Json[];
      beforeAll(async () => {
        o = await t.createOrg();
        ms = [];
        ms.push(await create({ name: 'Shop', target: 'https://shop.example.com', tags: ['prod', 'shop'] }, o.apiKey));
        ms.push(await create({ name: 'Blog', target: 'https://blog.example.com', tags: ['prod'] }, o.apiKey));
        ms.push(await create({ name: 'Primary DB', type: 'tcp', target: 'db.internal:5432', tags: ['db'] }, o.apiKey));
        ms.push(
          await create(
            {
              name: 'Staging shop',
              target: 'https://staging-shop.example.com',
              environment: 'staging',
              tags: ['shop'],
            },
            o.apiKey,
          ),
        );
        ms.push(await create({ name: 'Cert', type: 'tls', target: 'shop.example.com:443', paused: true }, o.apiKey));
      });
      const ids = (list: Json[]) => list.map((m) => m.id);
      const list = async (query: string, key = o.apiKey) => {
        const res = await call('GET', `/api/v1/monitors${query}`, undefined, key);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return res.body as { data: Json[]; next_cursor: string | null };
      };

      it('lists the organization oldest first as {data, next_cursor}', async () => {
        const page = await list('');
        expect(ids(page.data)).toEqual(ids(ms));
        expect(page.next_cursor).toBeNull();
        expect(page.data[0]).toEqual(ms[0]);
      });

      it.each([
        ['?tag=prod', [0, 1]],
        ['?tag=shop', [0, 3]],
        ['?tag=nope', []],
        ['?status=paused', [4]],
        ['?status=pending', [0, 1, 2, 3]],
        ['?type=tcp', [2]],
        ['?type=tls', [4]],
        ['?environment=staging', [3]],
        ['?environment=production', [0, 1, 2, 4]],
        ['?q=shop', [0, 3, 4]],
        ['?q=SHOP&environment=production', [0, 4]],
        ['?q=db.internal', [2]],
        ['?tag=shop&type=http&environment=staging', [3]],
      ])('filters %s', async (query, expected) => {
        expect(ids((await list(query)).data)).toEqual(expected.map((i) => ms[i]!.id));
      });

      it('pages with limit and cursor until next_cursor is null', async () => {
        const seen: string[] = [];
        let cursor: string | null = null;
        let pages = 0;
        do {
          const page = await list(`?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
          expect(page.data.length).toBeLessThanOrEqual(2);
          seen.push(...ids(page.data));
          cursor = page.next_cursor;
          pages += 1;
        } while (cursor);
        expect(pages).toBe(3);
        expect(seen).toEqual(ids(ms));
      });

      it('pages a filtered list', async () => {
        const first = await list('?tag=shop&limit=1');
        expect(ids(first.data)).toEqual([ms[0]!.id]);
        expect(first.next_cursor).not.toBeNull();
        const second = await list(`?tag=shop&limit=1&cursor=${first.next_cursor!}`);
        expect(ids(second.data)).toEqual([ms[3]!.id]);
        expect(second.next_cursor).toBeNull();
      });

      it('defaults to 50 a page and allows 200', async () => {
        const p = await t.createOrg();
        for (let i = 0; i < 51; i++) await create({ target: `https://m${i}.example.com` }, p.apiKey);
        const page = await list('', p.apiKey);
        expect(page.data).toHaveLength(50);
        expect(page.next_cursor).not.toBeNull();
        expect((await list('?limit=200', p.apiKey)).data).toHaveLength(51);
      });

      it('shows a key only the monitors of its environments', async () => {
        const prodOnly = await t.tocsin.services.auth.issueKey({
          organizationId: o.organizationId,
          name: 'prod only',
          scopes: ['monitors:read'],
          environments: ['production'],
          userId: o.userId,
        });
        expect(ids((await list('', prodOnly.key)).data)).toEqual(ids(ms.filter((m) => m.environment === 'production')));
        expect((await list('?environment=staging', prodOnly.key)).data).toEqual([]);
      });

      it('never shows another organization', async () => {
        expect(ids((await list('', org.apiKey)).data)).not.toContain(ms[0]!.id);
      });
    });

    describe('update', () => {
      it('changes the given fields and keeps the rest', async () => {
        const m = await create({ target: 'https://u.example.com', tags: ['a'] });
        const res = await call('PATCH', `/api/v1/monitors/${m.id}`, {
          name: 'Renamed',
          tags: ['b', 'c'],
          interval_seconds: 120,
          region_codes: ['eu-west', 'us-east'],
        });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          ...m,
          name: 'Renamed',
          tags: ['b', 'c'],
          interval_seconds: 120,
          region_codes: ['eu-west', 'us-east'],
          updated_at: res.body!.updated_at,
        });
        expect((await call('GET', `/api/v1/monitors/${m.id}`)).body).toEqual(res.body);
      });

      it('merges config key by key, and null resets a key to its default', async () => {
        const m = await create({
          target: 'https://c.example.com',
          config: {
            method: 'POST',
            body: '{"a":1}',
            timeout_ms: 5000,
            headers: { 'x-a': '1' },
            assertions: [{ type: 'status', equals: 201 }],
          },
        });
        const merged = await call('PATCH', `/api/v1/monitors/${m.id}`, { config: { timeout_ms: 2000 } });
        expect(merged.status).toBe(200);
        expect(merged.body!.config).toEqual({ ...m.config, timeout_ms: 2000 });
        const reset = await call('PATCH', `/api/v1/monitors/${m.id}`, {
          config: { method: null, body: null, assertions: null, headers: null },
        });
        expect(reset.status).toBe(200);
        expect(reset.body!.config).toEqual({
          ...m.config,
          timeout_ms: 2000,
          method: 'GET',
          body: null,
          assertions: [],
          headers: {},
        });
      });

      it('changes the target and keeps the name', async () => {
        const m = await create({ target: 'https://t1.example.com' });
        const res = await call('PATCH', `/api/v1/monitors/${m.id}`, { target: 'https://t2.example.com' });
        expect(res.body).toMatchObject({ target: 'https://t2.example.com', name: 't1.example.com' });
      });

      it('pauses and resumes through paused', async () => {
        const m = await create({ target: 'https://pp.example.com' });
        expect((await call('PATCH', `/api/v1/monitors/${m.id}`, { paused: true })).body).toMatchObject({
          paused: true,
          status: 'paused',
        });
        expect((await call('PATCH', `/api/v1/monitors/${m.id}`, { paused: false })).body).toMatchObject({
          paused: false,
          status: 'pending',
        });
      });

      it('accepts an empty patch as a no-op', async () => {
        const m = await create({ target: 'https://noop.example.com' });
        const res = await call('PATCH', `/api/v1/monitors/${m.id}`, {});
        expect(res.status).toBe(200);
        expect({ ...res.body, updated_at: m.updated_at }).toEqual(m);
      });
    });

    describe('pause, resume, delete', () => {
      it('pause sets paused and status; twice is a no-op; resume goes back to pending', async () => {
        const m = await create({ target: 'https://pause.example.com' });
        const paused = await call('POST', `/api/v1/monitors/${m.id}/pause`);
        expect(paused.status).toBe(200);
        expect(paused.body).toMatchObject({ id: m.id, paused: true, status: 'paused' });
        expect((await call('POST', `/api/v1/monitors/${m.id}/pause`)).body).toEqual(paused.body);
        const resumed = await call('POST', `/api/v1/monitors/${m.id}/resume`, {});
        expect(resumed.status).toBe(200);
        expect(resumed.body).toMatchObject({ paused: false, status: 'pending' });
        expect((await call('POST', `/api/v1/monitors/${m.id}/resume`)).body).toEqual(resumed.body);
      });

      it('accepts an empty JSON body on pause', async () => {
        const m = await create({ target: 'https://pause2.example.com' });
        const res = await t.tocsin.app.inject({
          method: 'POST',
          url: `/api/v1/monitors/${m.id}/pause`,
          headers: { ...bearer(org.apiKey), 'content-type': 'application/json' },
          payload: '',
        });
        expect(res.statusCode).toBe(200);
      });

      it('delete answers 204 without a body; the monitor is gone', async () => {
        const m = await create({ target: 'https://del.example.com' });
        const res = await call('DELETE', `/api/v1/monitors/${m.id}`);
        expect(res.status).toBe(204);
        expect(res.body).toBeUndefined();
        expect((await call('GET', `/api/v1/monitors/${m.id}`)).status).toBe(404);
        expect((await call('DELETE', `/api/v1/monitors/${m.id}`)).status).toBe(404);
      });
    });

    describe('scopes that imply others', () => {
      it('monitors:write allows create, update and pause but not read or delete', async () => {
        const k = await t.tocsin.services.auth.issueKey({
          organizationId: org.organizationId,
          name: 'w',
          scopes: ['monitors:write'],
          userId: org.userId,
        });
        const m = await create({ target: 'https://w.example.com' }, k.key);
        expect((await call('PATCH', `/api/v1/monitors/${m.id}`, { name: 'x' }, k.key)).status).toBe(200);
        expect((await call('POST', `/api/v1/monitors/${m.id}/pause`, undefined, k.key)).status).toBe(200);
        expect((await call('GET', `/api/v1/monitors/${m.id}`, undefined, k.key)).status).toBe(403);
        expect((await call('DELETE', `/api/v1/monitors/${m.id}`, undefined, k.key)).status).toBe(403);
      });
    });
  });
}
