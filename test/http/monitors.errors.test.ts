import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../src/modules/auth/index.ts';
import { testDialects } from '../support/databases.ts';
import { bearer, createTestApp, ManualClock, type TestApp, type TestOrg } from '../support/app.ts';
import { contextFor } from '../support/context.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON read back from responses
type Json = Record<string, any>;
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';

interface Sent {
  status: number;
  body: Json;
  headers: Record<string, unknown>;
}

const ROUTES: Array<{ method: Method; path: (id: string) => string; body?: Json; scope: string }> = [
  { method: 'GET', path: (id) => `/api/v1/monitors/${id}`, scope: 'monitors:read' },
  { method: 'PATCH', path: (id) => `/api/v1/monitors/${id}`, body: { name: 'x' }, scope: 'monitors:write' },
  { method: 'DELETE', path: (id) => `/api/v1/monitors/${id}`, scope: 'monitors:delete' },
  { method: 'POST', path: (id) => `/api/v1/monitors/${id}/pause`, scope: 'monitors:write' },
  { method: 'POST', path: (id) => `/api/v1/monitors/${id}/resume`, scope: 'monitors:write' },
];
const COLLECTION: Array<{ method: Method; path: string; body?: Json; scope: string }> = [
  { method: 'POST', path: '/api/v1/monitors', body: { target: 'https://example.com' }, scope: 'monitors:create' },
  { method: 'GET', path: '/api/v1/monitors', scope: 'monitors:read' },
];

/** Malformed bodies for POST /monitors; every one must be a 4xx envelope, never a 5xx or a created monitor. */
const MALFORMED: Array<[string, unknown]> = [
  ['empty object', {}],
  ['array', [{ target: 'https://e.com' }]],
  ['number', 42],
  ['string', 'https://e.com'],
  ['true', true],
  ['null', null],
  ['target null', { target: null }],
  ['target number', { target: 12345 }],
  ['target object', { target: { url: 'https://e.com' } }],
  ['target array', { target: ['https://e.com'] }],
  ['target javascript:', { target: 'javascript:alert(1)' }],
  ['target huge', { target: `https://e.com/${'a'.repeat(200_000)}` }],
  ['target with NUL', { target: 'https://e.com/\u0000' }],
  ['name huge', { target: 'https://e.com', name: 'n'.repeat(500_000) }],
  ['name NUL', { target: 'https://e.com', name: '\u0000' }],
  ['name object', { target: 'https://e.com', name: { first: 'x' } }],
  ['type number', { target: 'https://e.com', type: 1 }],
  ['type array', { target: 'https://e.com', type: ['http'] }],
  ['interval string', { target: 'https://e.com', interval_seconds: '60' }],
  ['interval negative', { target: 'https://e.com', interval_seconds: -60 }],
  ['interval huge', { target: 'https://e.com', interval_seconds: 1e300 }],
  ['interval float', { target: 'https://e.com', interval_seconds: 60.5 }],
  ['region_codes null items', { target: 'https://e.com', region_codes: [null] }],
  ['region_codes nested', { target: 'https://e.com', region_codes: [['local']] }],
  ['tags object', { target: 'https://e.com', tags: { a: 1 } }],
  ['tags deep nesting', { target: 'https://e.com', tags: JSON.parse(`${'['.repeat(500)}${']'.repeat(500)}`) }],
  ['tags 10k items', { target: 'https://e.com', tags: Array.from({ length: 10_000 }, (_, i) => `t${i}`) }],
  ['environment upper', { target: 'https://e.com', environment: 'PROD' }],
  ['environment number', { target: 'https://e.com', environment: 1 }],
  ['paused string', { target: 'https://e.com', paused: 'false' }],
  ['config string', { target: 'https://e.com', config: 'method=GET' }],
  ['config array', { target: 'https://e.com', config: [] }],
  ['config nested junk', { target: 'https://e.com', config: { a: { b: { c: [1, { d: null }] } } } }],
  ['config headers array', { target: 'https://e.com', config: { headers: [['a', 'b']] } }],
  ['config headers nested', { target: 'https://e.com', config: { headers: { 'x-a': { b: 1 } } } }],
  ['config assertions junk', { target: 'https://e.com', config: { assertions: [null, 1, 'x', [], {}] } }],
  ['config assertions object', { target: 'https://e.com', config: { assertions: { type: 'status' } } }],
  [
    'assertion regex bomb',
    { target: 'https://e.com', config: { assertions: [{ type: 'body', matches: '('.repeat(5000) }] } },
  ],
  [
    'assertion json path junk',
    {
      target: 'https://e.com',
      config: { assertions: [{ type: 'json', path: '$[?(@.constructor.constructor("x")())]', exists: true }] },
    },
  ],
  [
    'destination unknown',
    { target: 'https://e.com', config: { alert_destination_ids: ['dst_00000000000000000000000000'] } },
  ],
  ['timeout as string', { target: 'https://e.com', config: { timeout_ms: '1000' } }],
  ['__proto__ key', JSON.parse('{"target":"https://e.com","__proto__":{"admin":true}}')],
  ['constructor key', { target: 'https://e.com', constructor: { prototype: {} } }],
  ['config __proto__', JSON.parse('{"target":"https://e.com","config":{"__proto__":{"x":1}}}')],
  ['heartbeat with junk config', { type: 'heartbeat', config: { grace_seconds: 'soon' } }],
  ['unicode garbage keys', { target: 'https://e.com', '\ud800': 1 }],
];

for (const dialect of testDialects()) {
  describe(`${dialect}: monitors API errors`, () => {
    let t: TestApp;
    let org: TestOrg;
    let other: TestOrg;
    let monitorId: string;
    let otherMonitorId: string;

    beforeAll(async () => {
      t = await createTestApp({
        dialect,
        configFile: {
          regions: ['local', 'eu-west', 'us-east'],
          plans: {
            enterprise: { interval_floor_seconds: 1 },
            team: { monitors: 2, interval_floor_seconds: 30, regions: 2 },
          },
        },
      });
      org = await t.createOrg();
      other = await t.createOrg();
      monitorId = (
        await send('POST', '/api/v1/monitors', { key: org.apiKey, body: { target: 'https://mine.example.com' } })
      ).body.id;
      otherMonitorId = (
        await send('POST', '/api/v1/monitors', { key: other.apiKey, body: { target: 'https://theirs.example.com' } })
      ).body.id;
    });
    afterAll(async () => t.close());
    // Every case starts with the key's full per-minute budgets: how many writes earlier cases made (whatever their
    // order) must not turn a case's answer into 429.
    beforeEach(() => {
      (t.clock as ManualClock).advance(60_000);
    });

    async function send(
      method: Method,
      url: string,
      o: { key?: string | null; body?: unknown; raw?: string; headers?: Record<string, string> } = {},
    ): Promise<Sent> {
      const headers: Record<string, string> = { ...(o.key ? bearer(o.key) : {}), ...o.headers };
      let payload: string | undefined;
      if (o.raw !== undefined) payload = o.raw;
      else if (o.body !== undefined) {
        payload = JSON.stringify(o.body);
        headers['content-type'] ??= 'application/json';
      }
      const res = await t.tocsin.app.inject({ method, url, headers, ...(payload !== undefined && { payload }) });
      return { status: res.statusCode, body: res.body === '' ? {} : (res.json() as Json), headers: res.headers };
    }

    /** The error envelope of DECISIONS §1, with the request id of the response header. */
    function expectError(res: Sent, status: number, code: string): Json {
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(Object.keys(res.body)).toEqual(['error']);
      expect(res.body.error).toMatchObject({
        code,
        message: expect.any(String),
        request_id: res.headers['x-request-id'],
      });
      expect(res.body.error.message.length).toBeGreaterThan(0);
      expect(JSON.stringify(res.body)).not.toMatch(/at .*\.ts:\d+/);
      for (const d of res.body.error.details ?? [])
        expect(d).toEqual({ field: expect.any(String), issue: expect.any(String) });
      return res.body.error;
    }

    /** How many monitors the organization has, read through the service as the org's own (all-environment) key. */
    const count = async (o: TestOrg = org) => {
      const actor = (await t.tocsin.services.auth.authenticate(o.apiKey))!;
      return (await t.tocsin.services.monitors.list(contextFor(t, actor), {}, { limit: 200 })).data.length;
    };

    describe('400 invalid_json', () => {
      it.each(['{', '{"target": }', "{'target': 'x'}", 'nul', '{"a":1}}', '\u0000'])('%j', async (raw) => {
        const before = await count();
        expectError(
          await send('POST', '/api/v1/monitors', {
            key: org.apiKey,
            raw,
            headers: { 'content-type': 'application/json' },
          }),
          400,
          'invalid_json',
        );
        expectError(
          await send('PATCH', `/api/v1/monitors/${monitorId}`, {
            key: org.apiKey,
            raw,
            headers: { 'content-type': 'application/json' },
          }),
          400,
          'invalid_json',
        );
        expect(await count()).toBe(before);
      });
    });

    describe('401 unauthorized', () => {
      const keys: Array<[string, Record<string, string>]> = [
        ['missing', {}],
        ['empty bearer', { authorization: 'Bearer ' }],
        ['not bearer', { authorization: 'Basic dXNlcjpwYXNz' }],
        ['malformed key', { authorization: 'Bearer abc' }],
        ['bad checksum', { authorization: `Bearer ${generateApiKey().slice(0, -1)}x` }],
        ['two tokens', { authorization: `Bearer ${generateApiKey()} extra` }],
        ['unknown key', { authorization: `Bearer ${generateApiKey()}` }],
      ];
      for (const route of [
        ...COLLECTION,
        ...ROUTES.map((r) => ({ ...r, path: r.path('mon_00000000000000000000000000') })),
      ]) {
        it.each(keys)(`${route.method} ${route.path}: %s`, async (_name, headers) => {
          const res = await send(route.method, route.path, { headers, ...(route.body && { body: route.body }) });
          const err = expectError(res, 401, 'unauthorized');
          expect(err.message).toMatch(/Bearer|API key/);
        });
      }

      it('comes before body checks', async () => {
        expectError(
          await send('POST', '/api/v1/monitors', { raw: '{', headers: { 'content-type': 'application/json' } }),
          401,
          'unauthorized',
        );
      });
    });

    describe('403 insufficient_scope', () => {
      it.each([
        ...COLLECTION.map((r) => ({ ...r, p: () => r.path })),
        ...ROUTES.map((r) => ({ ...r, p: () => r.path(monitorId) })),
      ])('$method $scope', async (route) => {
        const everythingElse = [
          'monitors:read',
          'monitors:create',
          'monitors:write',
          'monitors:delete',
          'incidents:read',
        ].filter((s) => s !== route.scope && !(route.scope === 'monitors:create' && s === 'monitors:write'));
        const k = await t.tocsin.services.auth.issueKey({
          organizationId: org.organizationId,
          name: 'narrow',
          scopes: everythingElse as never,
          userId: org.userId,
        });
        const before = await count();
        const err = expectError(
          await send(route.method, route.p(), { key: k.key, ...(route.body && { body: route.body }) }),
          403,
          'insufficient_scope',
        );
        expect(err.message).toContain(route.scope);
        expect(await count()).toBe(before);
      });
    });

    describe('403 plan_upgrade_required', () => {
      it.each(['free', 'pro'] as const)('an organization on %s cannot use the API at all', async (plan) => {
        const o = await t.createOrg({ plan });
        for (const route of [
          ...COLLECTION.map((r) => ({ ...r, p: r.path })),
          ...ROUTES.map((r) => ({ ...r, p: r.path(monitorId) })),
        ]) {
          const err = expectError(
            await send(route.method, route.p, { key: o.apiKey, ...(route.body && { body: route.body }) }),
            403,
            'plan_upgrade_required',
          );
          expect(err.message).toContain('team plan');
          expect(err.message).toContain(plan);
        }
        expect(await count(o)).toBe(0);
      });
    });

    describe('403 plan_limit_exceeded', () => {
      it('monitor count: the plan allows 2', async () => {
        const o = await t.createOrg({ plan: 'team' });
        expect(
          (await send('POST', '/api/v1/monitors', { key: o.apiKey, body: { target: 'https://a.example.com' } })).status,
        ).toBe(201);
        expect(
          (await send('POST', '/api/v1/monitors', { key: o.apiKey, body: { target: 'https://b.example.com' } })).status,
        ).toBe(201);
        const err = expectError(
          await send('POST', '/api/v1/monitors', { key: o.apiKey, body: { target: 'https://c.example.com' } }),
          403,
          'plan_limit_exceeded',
        );
        expect(err.message).toBe('The team plan allows 2 monitors; this would make 3.');
        expect(await count(o)).toBe(2);
      });

      it('interval floor on create and on update', async () => {
        const o = await t.createOrg({ plan: 'team' });
        const err = expectError(
          await send('POST', '/api/v1/monitors', {
            key: o.apiKey,
            body: { target: 'https://a.example.com', interval_seconds: 29 },
          }),
          403,
          'plan_limit_exceeded',
        );
        expect(err.message).toBe("The team plan's interval floor is 30 seconds; 29 seconds is faster than that.");
        // The field that asks for too much is named, so a form shows the message next to it.
        expect(err.details).toEqual([{ field: 'interval_seconds', issue: err.message }]);
        expect(await count(o)).toBe(0);
        const m = (await send('POST', '/api/v1/monitors', { key: o.apiKey, body: { target: 'https://a.example.com' } }))
          .body;
        expect(m.interval_seconds).toBe(30);
        expectError(
          await send('PATCH', `/api/v1/monitors/${m.id}`, { key: o.apiKey, body: { interval_seconds: 10 } }),
          403,
          'plan_limit_exceeded',
        );
        expect((await send('GET', `/api/v1/monitors/${m.id}`, { key: o.apiKey })).body).toEqual(m);
      });

      it('regions per monitor on create and on update', async () => {
        const o = await t.createOrg({ plan: 'team' });
        const three = ['local', 'eu-west', 'us-east'];
        const err = expectError(
          await send('POST', '/api/v1/monitors', {
            key: o.apiKey,
            body: { target: 'https://a.example.com', region_codes: three },
          }),
          403,
          'plan_limit_exceeded',
        );
        expect(err.message).toBe('The team plan allows 2 regions per monitor; this would make 3.');
        expect(err.details).toEqual([{ field: 'region_codes', issue: err.message }]);
        const m = (
          await send('POST', '/api/v1/monitors', {
            key: o.apiKey,
            body: { target: 'https://a.example.com', region_codes: three.slice(0, 2) },
          })
        ).body;
        expect(m.region_codes).toEqual(['local', 'eu-west']);
        expectError(
          await send('PATCH', `/api/v1/monitors/${m.id}`, { key: o.apiKey, body: { region_codes: three } }),
          403,
          'plan_limit_exceeded',
        );
        expect((await send('GET', `/api/v1/monitors/${m.id}`, { key: o.apiKey })).body).toEqual(m);
      });
    });

    describe('404 not_found', () => {
      it.each(ROUTES)('$method unknown id, malformed id and another organization’s monitor', async (route) => {
        for (const id of ['mon_00000000000000000000000000', 'nope', 'mon_%00', otherMonitorId]) {
          const err = expectError(
            await send(route.method, route.path(id), { key: org.apiKey, ...(route.body && { body: route.body }) }),
            404,
            'not_found',
          );
          expect(err.message).toBe('Monitor not found.');
        }
        // The other organization's monitor is untouched.
        const theirs = await send('GET', `/api/v1/monitors/${otherMonitorId}`, { key: other.apiKey });
        expect(theirs.body).toMatchObject({ id: otherMonitorId, name: 'theirs.example.com', paused: false });
      });

      it.each(ROUTES)('$method a monitor outside the key’s environments', async (route) => {
        const staging = (
          await send('POST', '/api/v1/monitors', {
            key: org.apiKey,
            body: { target: 'https://stg.example.com', environment: 'staging' },
          })
        ).body;
        const prodKey = await t.tocsin.services.auth.issueKey({
          organizationId: org.organizationId,
          name: 'prod',
          scopes: ['monitors:read', 'monitors:write', 'monitors:delete'],
          environments: ['production'],
          userId: org.userId,
        });
        expectError(
          await send(route.method, route.path(staging.id), {
            key: prodKey.key,
            ...(route.body && { body: route.body }),
          }),
          404,
          'not_found',
        );
        expect((await send('GET', `/api/v1/monitors/${staging.id}`, { key: org.apiKey })).body).toEqual(staging);
      });

      it('an unknown path under /api/v1', async () => {
        expectError(await send('GET', '/api/v1/monitorz', { key: org.apiKey }), 404, 'not_found');
      });
    });

    describe('405 method_not_allowed', () => {
      it.each([
        ['PUT', '/api/v1/monitors', 'GET, POST'],
        ['DELETE', '/api/v1/monitors', 'GET, POST'],
        ['PATCH', '/api/v1/monitors', 'GET, POST'],
        ['PUT', '/api/v1/monitors/mon_00000000000000000000000000', 'GET, PATCH, DELETE'],
        ['POST', '/api/v1/monitors/mon_00000000000000000000000000', 'GET, PATCH, DELETE'],
        ['GET', '/api/v1/monitors/mon_00000000000000000000000000/pause', 'POST'],
        ['DELETE', '/api/v1/monitors/mon_00000000000000000000000000/resume', 'POST'],
      ] as Array<[Method, string, string]>)('%s %s', async (method, url, allow) => {
        const res = await send(method, url, { key: org.apiKey });
        expectError(res, 405, 'method_not_allowed');
        expect(res.headers.allow).toBe(allow);
      });
    });

    describe('413 payload_too_large', () => {
      it('refuses a body over 1 MiB on create and update, and accepts one just under', async () => {
        const before = await count();
        const big = JSON.stringify({ target: 'https://e.com', name: 'x'.repeat(1024 * 1024) });
        expectError(
          await send('POST', '/api/v1/monitors', {
            key: org.apiKey,
            raw: big,
            headers: { 'content-type': 'application/json' },
          }),
          413,
          'payload_too_large',
        );
        expectError(
          await send('PATCH', `/api/v1/monitors/${monitorId}`, {
            key: org.apiKey,
            raw: big,
            headers: { 'content-type': 'application/json' },
          }),
          413,
          'payload_too_large',
        );
        // Just under the limit: parsed, then refused for the field (422), not for the size.
        const under = JSON.stringify({ target: 'https://e.com', name: 'x'.repeat(1024 * 1024 - 100) });
        const err = expectError(
          await send('POST', '/api/v1/monitors', {
            key: org.apiKey,
            raw: under,
            headers: { 'content-type': 'application/json' },
          }),
          422,
          'validation_failed',
        );
        expect(err.details).toEqual([{ field: 'name', issue: 'must be at most 200 characters' }]);
        expect(await count()).toBe(before);
      });
    });

    describe('415 unsupported_media_type', () => {
      it.each([
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/xml',
        'multipart/form-data; boundary=x',
        'application/jsonp',
      ])('%s', async (type) => {
        const before = await count();
        const raw = type.startsWith('application/x-www') ? 'target=https%3A%2F%2Fe.com' : '{"target":"https://e.com"}';
        expectError(
          await send('POST', '/api/v1/monitors', { key: org.apiKey, raw, headers: { 'content-type': type } }),
          415,
          'unsupported_media_type',
        );
        expectError(
          await send('PATCH', `/api/v1/monitors/${monitorId}`, {
            key: org.apiKey,
            raw,
            headers: { 'content-type': type },
          }),
          415,
          'unsupported_media_type',
        );
        expect(await count()).toBe(before);
      });

      it('accepts application/json with a charset', async () => {
        const res = await send('POST', '/api/v1/monitors', {
          key: org.apiKey,
          raw: '{"target":"https://charset.example.com"}',
          headers: { 'content-type': 'application/json; charset=utf-8' },
        });
        expect(res.status).toBe(201);
        await send('DELETE', `/api/v1/monitors/${res.body.id}`, { key: org.apiKey });
      });
    });

    describe('422 validation_failed', () => {
      it.each([
        [{ target: 'https://e.com', colour: 'red' }, [{ field: 'colour', issue: 'is not a known field for monitors' }]],
        [
          { target: 'https://e.com', config: { cron: '* * * * *' } },
          [{ field: 'config.cron', issue: 'is not a known field for http monitors' }],
        ],
        [
          { target: 'https://e.com', config: { assertions: [{ type: 'status', equals: 'ok' }] } },
          [{ field: 'config.assertions[0].equals', issue: 'must be an integer HTTP status (100-599)' }],
        ],
        [{ name: 'x' }, [{ field: 'target', issue: 'is required' }]],
        [
          { target: 'https://e.com', region_codes: ['mars'] },
          [{ field: 'region_codes[0]', issue: 'must be one of the regions local, eu-west, us-east' }],
        ],
        [
          { target: 'https://e.com', config: { alert_destination_ids: ['dst_01m80c64tfdbtrcmt3t76vgq8j'] } },
          [
            {
              field: 'config.alert_destination_ids[0]',
              issue: 'destination dst_01m80c64tfdbtrcmt3t76vgq8j does not exist in this organization',
            },
          ],
        ],
      ])('create %j', async (body, details) => {
        const before = await count();
        const err = expectError(
          await send('POST', '/api/v1/monitors', { key: org.apiKey, body }),
          422,
          'validation_failed',
        );
        expect(err.details).toEqual(details);
        expect(await count()).toBe(before);
      });

      it.each([
        [{ type: 'tcp' }, [{ field: 'type', issue: 'cannot be changed; create a new monitor instead' }]],
        [{ id: 'mon_x' }, [{ field: 'id', issue: 'is not a known field for monitors' }]],
        [{ status: 'up' }, [{ field: 'status', issue: 'is not a known field for monitors' }]],
        [{ interval_seconds: 'often' }, [{ field: 'interval_seconds', issue: 'must be an integer' }]],
        [{ config: { timeout_ms: 1 } }, [{ field: 'config.timeout_ms', issue: 'must be between 100 and 60000' }]],
        [
          { config: { assertions: [{ type: 'json', path: 'nope', equals: 1 }] } },
          [{ field: 'config.assertions[0].path', issue: 'must be a JSONPath expression starting with $' }],
        ],
        [{ config: 'x' }, [{ field: 'config', issue: 'must be an object' }]],
        [{ target: 'ftp://e.com' }, [{ field: 'target', issue: 'must be an http:// or https:// URL' }]],
        [[], [{ field: 'body', issue: 'must be a JSON object' }]],
      ])('update %j changes nothing', async (body, details) => {
        const before = (await send('GET', `/api/v1/monitors/${monitorId}`, { key: org.apiKey })).body;
        const err = expectError(
          await send('PATCH', `/api/v1/monitors/${monitorId}`, { key: org.apiKey, body }),
          422,
          'validation_failed',
        );
        expect(err.details).toEqual(details);
        expect((await send('GET', `/api/v1/monitors/${monitorId}`, { key: org.apiKey })).body).toEqual(before);
      });

      it.each([
        ['?limit=0', 'limit', 'must be at least 1'],
        ['?limit=201', 'limit', 'must be at most 200'],
        ['?limit=ten', 'limit', 'must be integer'],
        ['?status=sleeping', 'status', 'must be one of "pending", "up", "down", "paused", "degraded", "maintenance"'],
        [
          '?type=ftp',
          'type',
          'must be one of "http", "tls", "tcp", "dns", "grpc", "heartbeat", "icmp", "udp", "domain", "smtp", ' +
            '"websocket", "postgres", "mysql", "redis"',
        ],
        ['?colour=red', 'colour', 'is not a known field'],
        [`?q=${'x'.repeat(201)}`, 'q', 'must be at most 200 characters'],
        ['?q=%00', 'q', 'must not contain control characters'],
        ['?tag=%00', 'tag', 'must not contain control characters'],
        ['?cursor=', 'cursor', 'must not be empty'],
        ['?cursor=not-a-cursor', 'cursor', 'must be a next_cursor returned by this list'],
        [
          `?cursor=${Buffer.from('{"id":1}').toString('base64url')}`,
          'cursor',
          'must be a next_cursor returned by this list',
        ],
        [`?cursor=${'A'.repeat(600)}`, 'cursor', 'must be at most 512 characters'],
      ])('list %s', async (query, field, issue) => {
        const err = expectError(
          await send('GET', `/api/v1/monitors${query}`, { key: org.apiKey }),
          422,
          'validation_failed',
        );
        expect(err.details).toContainEqual({ field, issue });
      });

      it.each(['pause', 'resume'])('%s with a body', async (action) => {
        const err = expectError(
          await send('POST', `/api/v1/monitors/${monitorId}/${action}`, { key: org.apiKey, body: { paused: true } }),
          422,
          'validation_failed',
        );
        expect(err.details).toEqual([{ field: 'paused', issue: 'is not a known field; this operation takes no body' }]);
        expect((await send('GET', `/api/v1/monitors/${monitorId}`, { key: org.apiKey })).body.paused).toBe(false);
      });

      it('delete with a body', async () => {
        expectError(
          await send('DELETE', `/api/v1/monitors/${monitorId}`, { key: org.apiKey, body: { force: true } }),
          422,
          'validation_failed',
        );
        expect((await send('GET', `/api/v1/monitors/${monitorId}`, { key: org.apiKey })).status).toBe(200);
      });
    });

    describe('malformed bodies are 4xx envelopes, never 5xx, and change nothing', () => {
      it.each(MALFORMED)('create: %s', async (_name, body) => {
        const before = await count();
        const res = await send('POST', '/api/v1/monitors', {
          key: org.apiKey,
          raw: JSON.stringify(body),
          headers: { 'content-type': 'application/json' },
        });
        expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
        expectError(res, res.status, res.body.error.code);
        expect(await count()).toBe(before);
      });

      it.each(MALFORMED)('update: %s', async (_name, body) => {
        const before = (await send('GET', `/api/v1/monitors/${monitorId}`, { key: org.apiKey })).body;
        const res = await send('PATCH', `/api/v1/monitors/${monitorId}`, {
          key: org.apiKey,
          raw: JSON.stringify(body),
          headers: { 'content-type': 'application/json' },
        });
        expect(res.status).toBeLessThan(500);
        if (res.status >= 400) expectError(res, res.status, res.body.error.code);
        else expect(res.status).toBe(200); // e.g. {} is an empty patch
        const after = (await send('GET', `/api/v1/monitors/${monitorId}`, { key: org.apiKey })).body;
        if (res.status >= 400) expect(after).toEqual(before);
      });

      it('nothing was logged as an unhandled error', () => {
        expect(t.logs.lines.filter((l) => l.includes('unhandled error'))).toEqual([]);
      });
    });
  });
}
