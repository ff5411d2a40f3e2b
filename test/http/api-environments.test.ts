import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { call, errorCode } from '../api-access/helpers.ts';

describe.each(testDialects())('environment isolation on every monitor route (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => t.close());

  it('a staging-only key sees and changes staging monitors only', async () => {
    const o = await t.createOrg();
    const prod = (
      await call(t, o.apiKey, 'POST', '/api/v1/monitors', {
        body: { target: 'https://p.example.com', environment: 'production' },
      })
    ).json();
    const k = (
      await call(t, o.apiKey, 'POST', '/api/v1/api-keys', {
        body: {
          name: 'stg',
          scopes: ['monitors:read', 'monitors:write', 'monitors:delete'],
          environments: ['staging'],
        },
      })
    ).json();
    const staging = await call(t, k.key, 'POST', '/api/v1/monitors', { body: { target: 'https://s.example.com' } });
    expect(staging.statusCode).toBe(201);
    expect(staging.json().environment).toBe('staging'); // the key's only environment is the default
    const stagingId = staging.json().id as string;

    const list = await call(t, k.key, 'GET', '/api/v1/monitors');
    expect(list.json().data.map((m: { id: string }) => m.id)).toEqual([stagingId]);
    const filtered = await call(t, k.key, 'GET', '/api/v1/monitors?environment=production');
    expect(filtered.json().data).toEqual([]);

    for (const [method, url, body] of [
      ['GET', `/api/v1/monitors/${prod.id}`, undefined],
      ['PATCH', `/api/v1/monitors/${prod.id}`, { name: 'hijack' }],
      ['POST', `/api/v1/monitors/${prod.id}/pause`, undefined],
      ['POST', `/api/v1/monitors/${prod.id}/resume`, undefined],
      ['DELETE', `/api/v1/monitors/${prod.id}`, undefined],
    ] as const) {
      const res = await call(t, k.key, method, url, body === undefined ? {} : { body });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(errorCode(res)).toBe('not_found');
      expect(res.body).not.toContain('p.example.com');
    }
    const create = await call(t, k.key, 'POST', '/api/v1/monitors', {
      body: { target: 'https://q.example.com', environment: 'production' },
    });
    expect(create.statusCode).toBe(403);
    expect(errorCode(create)).toBe('forbidden');
    const move = await call(t, k.key, 'PATCH', `/api/v1/monitors/${stagingId}`, {
      body: { environment: 'production' },
    });
    expect(move.statusCode).toBe(403);

    // The production monitor is untouched; the staging one answers every route.
    const still = (await call(t, o.apiKey, 'GET', `/api/v1/monitors/${prod.id}`)).json();
    expect(still).toMatchObject({ name: prod.name, paused: false, environment: 'production' });
    expect((await call(t, k.key, 'GET', `/api/v1/monitors/${stagingId}`)).statusCode).toBe(200);
    expect(
      (await call(t, k.key, 'PATCH', `/api/v1/monitors/${stagingId}`, { body: { name: 'renamed' } })).json().name,
    ).toBe('renamed');
    expect((await call(t, k.key, 'POST', `/api/v1/monitors/${stagingId}/pause`)).json().paused).toBe(true);
    expect((await call(t, k.key, 'POST', `/api/v1/monitors/${stagingId}/resume`)).json().paused).toBe(false);
    expect((await call(t, k.key, 'DELETE', `/api/v1/monitors/${stagingId}`)).statusCode).toBe(204);
  });
});
