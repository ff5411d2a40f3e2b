import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ManualClock, type TestApp } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { call } from '../api-access/helpers.ts';

describe.each(testDialects())('key values never leak (%s)', (dialect) => {
  let t: TestApp;
  const clock = new ManualClock('2026-11-22T10:00:00.000Z');
  beforeAll(async () => {
    t = await createTestApp({ dialect, clock });
  });
  afterAll(async () => t.close());

  it('after create and rotate, no log line and no later response contains a key value', async () => {
    const o = await t.createOrg();
    const secrets: string[] = [o.apiKey];
    const later: LightMyRequestResponse[] = [];
    const record = (r: LightMyRequestResponse) => {
      later.push(r);
      return r;
    };

    const created = await call(t, o.apiKey, 'POST', '/api/v1/api-keys', {
      body: { name: 'leak-check', scopes: ['monitors:read', 'monitors:create'], environments: ['production'] },
      headers: { 'idempotency-key': 'create-leak' },
    });
    const k = created.json();
    secrets.push(k.key);
    const rotated = (
      await call(t, o.apiKey, 'POST', `/api/v1/api-keys/${k.id}/rotate`, { body: { grace_seconds: 10 } })
    ).json();
    secrets.push(rotated.key);

    // Use, replay, read, list, usage, errors, failed authentication.
    record(
      await call(t, o.apiKey, 'POST', '/api/v1/api-keys', {
        body: { name: 'leak-check', scopes: ['monitors:read', 'monitors:create'], environments: ['production'] },
        headers: { 'idempotency-key': 'create-leak' },
      }),
    );
    record(await call(t, k.key, 'GET', '/api/v1/monitors'));
    record(await call(t, rotated.key, 'POST', '/api/v1/monitors', { body: { target: 'https://x.example.com' } }));
    record(await call(t, rotated.key, 'POST', '/api/v1/monitors', { body: { target: 'nope' } }));
    record(await call(t, rotated.key, 'GET', '/api/v1/api-keys'));
    record(await call(t, o.apiKey, 'GET', '/api/v1/api-keys'));
    record(await call(t, o.apiKey, 'GET', `/api/v1/api-keys/${k.id}`));
    record(await call(t, o.apiKey, 'GET', `/api/v1/api-keys/${k.id}/usage`));
    clock.advance(11_000);
    record(await call(t, k.key, 'GET', '/api/v1/monitors')); // old value after the grace: 401
    record(
      await call(t, `${rotated.key.slice(0, -1)}${rotated.key.endsWith('x') ? 'y' : 'x'}`, 'GET', '/api/v1/monitors'),
    ); // damaged value
    record(await call(t, o.apiKey, 'DELETE', `/api/v1/api-keys/${k.id}`));
    record(await call(t, rotated.key, 'GET', '/api/v1/monitors')); // revoked
    record(await t.tocsin.app.inject({ method: 'GET', url: '/api/v1/openapi.json' }));
    record(await t.tocsin.app.inject({ method: 'GET', url: '/metrics' }));
    expect(later.map((r) => r.statusCode)).toEqual([
      201, 200, 201, 422, 403, 200, 200, 200, 401, 401, 200, 401, 200, 200,
    ]);

    const logs = t.logs.text;
    expect(logs.length).toBeGreaterThan(0);
    for (const secret of secrets) {
      // The whole value, and its random body without the prefix.
      for (const needle of [secret, secret.slice(4)]) {
        expect(logs.includes(needle), 'a key value appears in the logs').toBe(false);
        for (const r of later) {
          expect(r.body.includes(needle), `a key value appears in a response: ${r.body.slice(0, 80)}`).toBe(false);
          expect(JSON.stringify(r.headers).includes(needle)).toBe(false);
        }
      }
    }
  });
});
