import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ManualClock, type TestApp } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { call, errorCode } from '../api-access/helpers.ts';

describe.each(testDialects())('API access, end to end (%s)', (dialect) => {
  let t: TestApp;
  const clock = new ManualClock('2026-11-22T10:00:00.000Z');
  beforeAll(async () => {
    t = await createTestApp({ dialect, clock });
  });
  afterAll(async () => t.close());

  it('an owner creates a limited staging key; scopes, environments, budget, replay, rotation, revoke and usage hold', async () => {
    const owner = await t.createOrg();
    const prod = await call(t, owner.apiKey, 'POST', '/api/v1/monitors', {
      body: { target: 'https://prod.example.com', environment: 'production' },
    });
    expect(prod.statusCode).toBe(201);
    const prodId = prod.json().id as string;

    const created = await call(t, owner.apiKey, 'POST', '/api/v1/api-keys', {
      body: { name: 'ci', scopes: ['monitors:create'], environments: ['staging'], rate_limits: { read_per_minute: 5 } },
    });
    expect(created.statusCode).toBe(201);
    const k = created.json();
    expect(k).toMatchObject({
      scopes: ['monitors:create'],
      environments: ['staging'],
      rate_limits: { read_per_minute: 5, write_per_minute: 120, delete_per_minute: 60 },
    });
    const key = k.key as string;

    // Creates a staging monitor, once, even when the request is replayed.
    const body = { target: 'https://staging.example.com', environment: 'staging' };
    const first = await call(t, key, 'POST', '/api/v1/monitors', { body, headers: { 'idempotency-key': 'create-1' } });
    expect(first.statusCode).toBe(201);
    expect(first.headers['ratelimit-limit']).toBe('120');
    const replay = await call(t, key, 'POST', '/api/v1/monitors', { body, headers: { 'idempotency-key': 'create-1' } });
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(first.json());
    const all = await call(t, owner.apiKey, 'GET', '/api/v1/monitors?environment=staging');
    expect(all.json().data.map((m: { id: string }) => m.id)).toEqual([first.json().id]);

    // Cannot create in production (environment), cannot list (scope): reads 1..5 consume the budget.
    const inProd = await call(t, key, 'POST', '/api/v1/monitors', {
      body: { target: 'https://x.example.com', environment: 'production' },
    });
    expect(inProd.statusCode).toBe(403);
    expect(errorCode(inProd)).toBe('forbidden');
    const list = await call(t, key, 'GET', '/api/v1/monitors');
    expect(list.statusCode).toBe(403);
    expect(errorCode(list)).toBe('insufficient_scope');
    expect(list.json().error.message).toContain('monitors:read');
    expect(list.headers['ratelimit-limit']).toBe('5');
    expect(list.headers['ratelimit-remaining']).toBe('4');
    for (let i = 2; i <= 5; i++) {
      const r = await call(t, key, 'GET', `/api/v1/monitors/${prodId}`);
      expect(r.statusCode).toBe(403);
      expect(r.body).not.toContain('prod.example.com');
    }
    const sixth = await call(t, key, 'GET', '/api/v1/monitors');
    expect(sixth.statusCode).toBe(429);
    expect(errorCode(sixth)).toBe('rate_limited');
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(sixth.headers['ratelimit-remaining']).toBe('0');

    // Rotation keeps the old value for the grace period.
    const rotated = await call(t, owner.apiKey, 'POST', `/api/v1/api-keys/${k.id}/rotate`, {
      body: { grace_seconds: 60 },
    });
    expect(rotated.statusCode).toBe(200);
    const newKey = rotated.json().key as string;
    expect(rotated.json().id).toBe(k.id);
    const viaOld = await call(t, key, 'POST', '/api/v1/monitors', {
      body: { target: 'https://s2.example.com', environment: 'staging' },
    });
    expect(viaOld.statusCode).toBe(201);
    clock.advance(61_000);
    const oldAfterGrace = await call(t, key, 'POST', '/api/v1/monitors', {
      body: { target: 'https://s3.example.com', environment: 'staging' },
    });
    expect(oldAfterGrace.statusCode).toBe(401);
    const viaNew = await call(t, newKey, 'POST', '/api/v1/monitors', {
      body: { target: 'https://s4.example.com', environment: 'staging' },
    });
    expect(viaNew.statusCode).toBe(201);

    // Revoke ends it at once.
    const revoked = await call(t, owner.apiKey, 'DELETE', `/api/v1/api-keys/${k.id}`);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().revoked_at).not.toBeNull();
    const afterRevoke = await call(t, newKey, 'POST', '/api/v1/monitors', {
      body: { target: 'https://s5.example.com', environment: 'staging' },
    });
    expect(afterRevoke.statusCode).toBe(401);

    // Usage shows the calls.
    const usage = await call(t, owner.apiKey, 'GET', `/api/v1/api-keys/${k.id}/usage?period=last_hour`);
    expect(usage.statusCode).toBe(200);
    const u = usage.json();
    // 401s have no key to count against: the two refused values are not in the key's usage.
    expect(u.totals).toMatchObject({ read: 6, write: 5, status_2xx: 4, status_4xx: 7, requests: 11 });
    expect(u.last_used_at).not.toBeNull();
    expect(u.data.length).toBeGreaterThanOrEqual(2);
  });
});
