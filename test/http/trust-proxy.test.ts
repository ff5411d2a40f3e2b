import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ManualClock, type TestApp } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { browserOf, createPerson } from '../support/sessions.ts';

const PASSWORD = 'correct horse battery';

/** Forwarded headers are believed only from configured proxies (http.trust_proxy, docs/configuration.md). */
describe.each(testDialects())('http.trust_proxy (%s)', (dialect) => {
  const apps: TestApp[] = [];
  let untrusting: TestApp;
  let listed: TestApp;
  let hops: TestApp;

  beforeAll(async () => {
    const clock = new ManualClock(Date.parse('2026-11-28T08:00:00.000Z'));
    untrusting = await createTestApp({ dialect, clock });
    listed = await createTestApp({
      dialect,
      clock,
      configFile: { http: { trust_proxy: ['192.0.2.1', '10.0.0.0/8'] } },
    });
    hops = await createTestApp({ dialect, clock, configFile: { http: { trust_proxy: 1 } } });
    apps.push(untrusting, listed, hops);
  });
  afterAll(async () => Promise.all(apps.map((t) => t.close())));

  function signInFrom(t: TestApp, peer: string, email: string, password: string, forwardedFor?: string) {
    return t.tocsin.app.inject({
      method: 'POST',
      url: '/api/v1/auth/sessions',
      remoteAddress: peer,
      headers: { 'content-type': 'application/json', ...(forwardedFor && { 'x-forwarded-for': forwardedFor }) },
      payload: JSON.stringify({ email, password }),
    });
  }

  /** The address the sessions list shows for the session a sign-in opened. */
  async function recordedAddress(t: TestApp, peer: string, forwardedFor: string | undefined): Promise<string> {
    const email = `person-${Math.random().toString(36).slice(2)}@example.com`;
    const org = await t.createOrg();
    await createPerson(t, org.organizationId, 'member', email, PASSWORD);
    const browser = browserOf(await signInFrom(t, peer, email, PASSWORD, forwardedFor));
    const res = await t.tocsin.app.inject({
      method: 'GET',
      url: '/api/v1/auth/sessions',
      headers: { cookie: browser.cookie },
    });
    expect(res.statusCode).toBe(200);
    return (res.json().data as Array<{ ip: string }>)[0]!.ip;
  }

  it('by default ignores X-Forwarded-For: a forged address neither resets the per-address slow-down nor shows', async () => {
    // 20 failures from one peer, each claiming another address, for other accounts: the peer is what is counted.
    for (let i = 0; i < 20; i += 1) {
      const res = await signInFrom(
        untrusting,
        '198.51.100.20',
        `guess-${i}@example.com`,
        'wrong password',
        `203.0.113.${i}`,
      );
      expect(res.statusCode).toBe(401);
    }
    const blocked = await signInFrom(
      untrusting,
      '198.51.100.20',
      'guess-99@example.com',
      'wrong password',
      '192.0.2.99',
    );
    expect(blocked.statusCode).toBe(429);
    // Another peer is not slowed down by them.
    expect((await signInFrom(untrusting, '198.51.100.21', 'guess-99@example.com', 'wrong password')).statusCode).toBe(
      401,
    );
    expect(await recordedAddress(untrusting, '198.51.100.22', '203.0.113.5')).toBe('198.51.100.22');
  });

  it('with a list, honours the header from a listed proxy (address or CIDR) and ignores it from anyone else', async () => {
    expect(await recordedAddress(listed, '192.0.2.1', '203.0.113.5')).toBe('203.0.113.5');
    expect(await recordedAddress(listed, '10.20.30.40', '203.0.113.6')).toBe('203.0.113.6');
    expect(await recordedAddress(listed, '198.51.100.23', '203.0.113.7')).toBe('198.51.100.23');
    // Past the trusted proxies, the client's own forged entries are not believed either.
    expect(await recordedAddress(listed, '192.0.2.1', '203.0.113.8, 198.51.100.24')).toBe('198.51.100.24');
  });

  it('with a hop count, takes the address the nearest proxy saw', async () => {
    expect(await recordedAddress(hops, '192.0.2.1', '203.0.113.9, 198.51.100.25')).toBe('198.51.100.25');
  });
});
