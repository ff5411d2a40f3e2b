import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTocsin, type Tocsin } from '../../src/main.ts';
import { gcra, MemoryRateLimitStore } from '../../src/modules/auth/index.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { createTestApp, LogCapture, ManualClock, type TestApp } from '../support/app.ts';
import { skipWithout, testServices } from '../support/services.ts';
import { call, errorCode } from '../api-access/helpers.ts';

describe('GCRA limiter (memory, ManualClock)', () => {
  it('allows a burst of the limit, then one request per period/limit', async () => {
    const store = new MemoryRateLimitStore();
    const clock = new ManualClock(0);
    const seen = [];
    for (let i = 0; i < 4; i++) seen.push(await store.consume('k', 3, 60_000, clock.now()));
    expect(seen.map((d) => d.allowed)).toEqual([true, true, true, false]);
    expect(seen.map((d) => d.remaining)).toEqual([2, 1, 0, 0]);
    expect(seen[3]!.retryAfterMs).toBe(20_000);
    clock.advance(19_999);
    expect((await store.consume('k', 3, 60_000, clock.now())).allowed).toBe(false);
    clock.advance(1);
    const d = await store.consume('k', 3, 60_000, clock.now());
    expect(d).toMatchObject({ allowed: true, remaining: 0 });
    clock.advance(60_000);
    expect((await store.consume('k', 3, 60_000, clock.now())).remaining).toBe(2);
    expect((await store.consume('other', 3, 60_000, clock.now())).remaining).toBe(2);
  });

  it('reports reset as the time until the budget is full', () => {
    const { decision } = gcra(undefined, 60, 60_000, 1000);
    expect(decision).toMatchObject({ allowed: true, remaining: 59, resetMs: 1000 });
  });
});

describe('per-key budgets over HTTP (memory store)', () => {
  let t: TestApp;
  const clock = new ManualClock('2026-11-22T10:00:00.000Z');
  beforeAll(async () => {
    t = await createTestApp({ clock, configFile: { metrics: { enabled: true } } });
  });
  afterAll(async () => t.close());

  it('keeps three budgets by method class, with headers on success and on errors after auth', async () => {
    const o = await t.createOrg();
    const k = (
      await call(t, o.apiKey, 'POST', '/api/v1/api-keys', {
        body: {
          name: 'rl',
          scopes: ['monitors:read', 'monitors:delete', 'monitors:write'],
          rate_limits: { read_per_minute: 2, write_per_minute: 1, delete_per_minute: 1 },
        },
      })
    ).json();
    const r1 = await call(t, k.key, 'GET', '/api/v1/monitors');
    expect([r1.headers['ratelimit-limit'], r1.headers['ratelimit-remaining'], r1.headers['ratelimit-reset']]).toEqual([
      '2',
      '1',
      '30',
    ]);
    const r2 = await call(t, k.key, 'GET', '/api/v1/monitors/mon_missing');
    expect(r2.statusCode).toBe(404);
    expect(r2.headers['ratelimit-remaining']).toBe('0');
    const r3 = await call(t, k.key, 'HEAD', '/api/v1/monitors');
    expect(r3.statusCode).toBe(429);
    expect(r3.headers['retry-after']).toBe('30');
    const r3b = await call(t, k.key, 'GET', '/api/v1/monitors');
    expect(errorCode(r3b)).toBe('rate_limited');
    expect(r3b.json().error.message).toContain('read');
    // Other classes have their own budgets.
    const w = await call(t, k.key, 'POST', '/api/v1/monitors', { body: { target: 'https://a.example.com' } });
    expect(w.statusCode).toBe(201);
    expect(w.headers['ratelimit-limit']).toBe('1');
    expect((await call(t, k.key, 'PATCH', `/api/v1/monitors/${w.json().id}`, { body: { name: 'n' } })).statusCode).toBe(
      429,
    );
    expect((await call(t, k.key, 'DELETE', `/api/v1/monitors/${w.json().id}`)).statusCode).toBe(204);
    expect((await call(t, k.key, 'DELETE', `/api/v1/monitors/${w.json().id}`)).statusCode).toBe(429);
    // Budgets are per key: the owner's key is unaffected. Unauthenticated responses carry no headers.
    expect((await call(t, o.apiKey, 'GET', '/api/v1/monitors')).statusCode).toBe(200);
    const anon = await t.tocsin.app.inject({ method: 'GET', url: '/api/v1/monitors' });
    expect(anon.statusCode).toBe(401);
    expect(anon.headers['ratelimit-limit']).toBeUndefined();
    clock.advance(30_000);
    expect((await call(t, k.key, 'GET', '/api/v1/monitors')).statusCode).toBe(200);
    const metrics = await t.tocsin.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(/tocsin_rate_limited_total [1-9]/);
    expect(metrics.body).toContain('tocsin_api_requests_total{budget="read",status="2xx"}');
  });
});

const redisUrl = testServices.redisUrl;
describe.skipIf(skipWithout('redis'))('per-key budgets shared through Redis', () => {
  let t: TestApp;
  let second: Tocsin;
  const clock = new ManualClock('2026-11-22T10:00:00.000Z');
  beforeAll(async () => {
    const prefix = `tocsin-test-${randomBytes(6).toString('hex')}:`;
    t = await createTestApp({ clock, configFile: { redis_url: `${redisUrl}?keyPrefix=${prefix}` } });
    // A second API process on the same database and Redis.
    second = await createTocsin(t.config, {
      logger: createLogger({ level: 'silent', pretty: false }),
      clock,
      migrate: false,
      background: false,
    });
  });
  afterAll(async () => {
    await second.close();
    await t.close();
  });

  it('holds one budget across two app instances', async () => {
    const o = await t.createOrg();
    const k = (
      await call(t, o.apiKey, 'POST', '/api/v1/api-keys', {
        body: { name: 'shared', scopes: ['monitors:read'], rate_limits: { read_per_minute: 4 } },
      })
    ).json();
    const statuses: number[] = [];
    const remaining: Array<string | undefined> = [];
    for (let i = 0; i < 6; i++) {
      const app = i % 2 === 0 ? t.tocsin.app : second.app;
      const res = await app.inject({
        method: 'GET',
        url: '/api/v1/monitors',
        headers: { authorization: `Bearer ${k.key}` },
      });
      statuses.push(res.statusCode);
      remaining.push(res.headers['ratelimit-remaining'] as string | undefined);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    expect(remaining).toEqual(['3', '2', '1', '0', '0', '0']);
    clock.advance(15_000);
    const again = await second.app.inject({
      method: 'GET',
      url: '/api/v1/monitors',
      headers: { authorization: `Bearer ${k.key}` },
    });
    expect(again.statusCode).toBe(200);
  });

  it('is atomic under parallel requests from both instances', async () => {
    const o = await t.createOrg();
    const k = (
      await call(t, o.apiKey, 'POST', '/api/v1/api-keys', {
        body: { name: 'par', scopes: ['monitors:read'], rate_limits: { read_per_minute: 10 } },
      })
    ).json();
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        (i % 2 === 0 ? t.tocsin.app : second.app).inject({
          method: 'GET',
          url: '/api/v1/monitors',
          headers: { authorization: `Bearer ${k.key}` },
        }),
      ),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(10);
    expect(results.filter((r) => r.statusCode === 429)).toHaveLength(20);
  });
});

describe('Redis unreachable: fail open', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ configFile: { redis_url: 'redis://127.0.0.1:1', metrics: { enabled: true } } });
  });
  afterAll(async () => t.close());

  it('serves, logs a rate-limited warning, and counts store errors', async () => {
    const o = await t.createOrg();
    for (let i = 0; i < 5; i++) {
      const res = await call(t, o.apiKey, 'GET', '/api/v1/monitors');
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit-limit']).toBeUndefined();
    }
    const metrics = await t.tocsin.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(/tocsin_rate_limit_store_errors_total [5-9]/);
    const warnings = t.logs.lines.filter((l) => l.includes('rate-limit store unavailable'));
    expect(warnings.length).toBeGreaterThanOrEqual(1);
    expect(warnings.length).toBeLessThanOrEqual(2);
  });
});

export { LogCapture };
