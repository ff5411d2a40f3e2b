import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTocsin } from '../../src/main.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { call, errorCode } from '../api-access/helpers.ts';
import { createTestApp, ManualClock, type TestApp } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { browserOf, createPerson, inSession, sessionCookieOf, setPassword, signIn } from '../support/sessions.ts';

const PASSWORD = 'correct horse battery';
const SETUP = { organization_name: 'Acme', name: 'Ada Owner', email: 'Ada@Example.com', password: PASSWORD };

/** The error body without its request id (to compare two refusals). */
function withoutRequestId(body: string): unknown {
  const parsed = JSON.parse(body) as { error: Record<string, unknown> };
  delete parsed.error.request_id;
  return parsed;
}

describe.each(testDialects())('sessions (%s)', (dialect) => {
  let t: TestApp;
  let clock: ManualClock;

  beforeAll(async () => {
    clock = new ManualClock(Date.parse('2026-11-24T08:00:00.000Z'));
    // The tests below stand for clients behind a proxy on this host (inject's peer is 127.0.0.1).
    t = await createTestApp({ dialect, clock, configFile: { http: { trust_proxy: ['loopback'] } } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('sets up once: the organization, its owner and a session; then 409 already_set_up', async () => {
    expect((await inSession(t, null, 'GET', '/api/v1/auth/setup')).json()).toEqual({ needed: true });
    const bad = await inSession(t, null, 'POST', '/api/v1/auth/setup', { body: { ...SETUP, password: 'short' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.details).toEqual([{ field: 'password', issue: 'must be at least 10 characters' }]);
    expect((await inSession(t, null, 'GET', '/api/v1/auth/setup')).json()).toEqual({ needed: true });

    const res = await inSession(t, null, 'POST', '/api/v1/auth/setup', { body: SETUP });
    expect(res.statusCode).toBe(201);
    const owner = browserOf(res);
    expect(owner.body).toMatchObject({
      user: { email: 'ada@example.com', name: 'Ada Owner' },
      organization: { name: 'Acme', plan: t.config.defaultPlan },
      role: 'owner',
    });
    expect(res.headers['set-cookie']).toMatch(
      /^tocsin_session=[\w-]{40,}; Max-Age=2592000; Path=\/; HttpOnly; SameSite=Lax$/,
    );
    const session = await inSession(t, owner, 'GET', '/api/v1/auth/session');
    expect(session.statusCode).toBe(200);
    expect(session.json()).toEqual(owner.body);
    // The owner's address counts as verified.
    const members = await inSession(t, owner, 'GET', '/api/v1/auth/organization/members');
    expect(members.json().data).toEqual([
      expect.objectContaining({ email: 'ada@example.com', role: 'owner', email_verified: true }),
    ]);

    const again = await inSession(t, null, 'POST', '/api/v1/auth/setup', {
      body: { ...SETUP, organization_name: 'Second', email: 'eve@example.com' },
    });
    expect(again.statusCode).toBe(409);
    expect(errorCode(again)).toBe('already_set_up');
    expect(sessionCookieOf(again)).toBeNull();
    expect((await inSession(t, null, 'GET', '/api/v1/auth/setup')).json()).toEqual({ needed: false });
    expect(await t.tocsin.services.orgs.listOrganizations()).toHaveLength(1);
  });

  it('signs in and out; a wrong password and an unknown address get the same answer', async () => {
    const browser = await signIn(t, 'ada@example.com', PASSWORD);
    expect(browser.body).toMatchObject({ role: 'owner', user: { email: 'ada@example.com' } });
    expect((await inSession(t, browser, 'GET', '/api/v1/monitors')).statusCode).toBe(200);

    const wrong = await inSession(t, null, 'POST', '/api/v1/auth/sessions', {
      body: { email: 'ada@example.com', password: 'not the password' },
    });
    const unknown = await inSession(t, null, 'POST', '/api/v1/auth/sessions', {
      body: { email: 'nobody@example.com', password: 'not the password' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(errorCode(wrong)).toBe('invalid_credentials');
    expect(withoutRequestId(unknown.body)).toEqual(withoutRequestId(wrong.body));
    expect(unknown.statusCode).toBe(401);
    expect(sessionCookieOf(wrong)).toBeNull();

    // Sign-out is a change: without the CSRF token it is refused and the session still works.
    const noCsrf = await inSession(t, browser, 'DELETE', '/api/v1/auth/session', { csrf: false });
    expect(noCsrf.statusCode).toBe(403);
    expect(errorCode(noCsrf)).toBe('csrf_failed');
    expect((await inSession(t, browser, 'GET', '/api/v1/auth/session')).statusCode).toBe(200);
    const out = await inSession(t, browser, 'DELETE', '/api/v1/auth/session');
    expect(out.statusCode).toBe(204);
    expect(out.headers['set-cookie']).toMatch(/^tocsin_session=; Max-Age=0; Path=\/; HttpOnly; SameSite=Lax$/);
    const after = await inSession(t, browser, 'GET', '/api/v1/auth/session');
    expect(after.statusCode).toBe(401);
    expect((await inSession(t, browser, 'GET', '/api/v1/monitors')).statusCode).toBe(401);
    expect((await inSession(t, null, 'GET', '/api/v1/auth/session')).statusCode).toBe(401);
  });

  it('requires the CSRF token for changes in a session, not for keys', async () => {
    const browser = await signIn(t, 'ada@example.com', PASSWORD);
    const monitor = { name: 'Site', target: 'https://checkout.example.com/health', interval_seconds: 60 };
    const refused = await inSession(t, browser, 'POST', '/api/v1/monitors', { body: monitor, csrf: false });
    expect(refused.statusCode).toBe(403);
    expect(errorCode(refused)).toBe('csrf_failed');
    const forged = await inSession(t, browser, 'POST', '/api/v1/monitors', { body: monitor, csrf: 'x'.repeat(43) });
    expect(errorCode(forged)).toBe('csrf_failed');
    const other = await signIn(t, 'ada@example.com', PASSWORD);
    const crossed = await inSession(t, browser, 'POST', '/api/v1/monitors', { body: monitor, csrf: other.csrf });
    expect(errorCode(crossed)).toBe('csrf_failed');
    expect((await inSession(t, browser, 'GET', '/api/v1/monitors')).json().data).toHaveLength(0);

    const made = await inSession(t, browser, 'POST', '/api/v1/monitors', { body: monitor });
    expect(made.statusCode).toBe(201);
    expect(made.json()).toMatchObject({ name: 'Site', environment: 'production' });
    // A session sees every environment of the organization.
    const staging = await inSession(t, browser, 'POST', '/api/v1/monitors', {
      body: { ...monitor, name: 'QA', environment: 'qa' },
    });
    expect(staging.statusCode).toBe(201);
    expect((await inSession(t, browser, 'GET', '/api/v1/monitors')).json().data).toHaveLength(2);

    const org = await t.createOrg();
    const byKey = await call(t, org.apiKey, 'POST', '/api/v1/monitors', { body: monitor });
    expect(byKey.statusCode).toBe(201);
    // Session-only operations are not for keys.
    expect((await call(t, org.apiKey, 'GET', '/api/v1/auth/session')).statusCode).toBe(403);
  });

  it('checks Origin on sign-in when a browser sends it', async () => {
    const body = { email: 'ada@example.com', password: PASSWORD };
    const foreign = await inSession(t, null, 'POST', '/api/v1/auth/sessions', {
      body,
      headers: { origin: 'https://evil.example' },
    });
    expect(foreign.statusCode).toBe(403);
    expect(errorCode(foreign)).toBe('csrf_failed');
    const own = await inSession(t, null, 'POST', '/api/v1/auth/sessions', {
      body,
      headers: { origin: new URL(t.config.publicUrl).origin },
    });
    expect(own.statusCode).toBe(201);
  });

  it('slows down repeated failures per account with 429 and Retry-After, and lets the right password in later', async () => {
    const { organizationId } = await t.createOrg();
    await createPerson(t, organizationId, 'member', 'mallory-target@example.com', PASSWORD);
    const attempt = (password: string, ip = '198.51.100.7') =>
      inSession(t, null, 'POST', '/api/v1/auth/sessions', {
        body: { email: 'mallory-target@example.com', password },
        headers: { 'x-forwarded-for': ip },
      });
    for (let i = 0; i < 5; i += 1) expect((await attempt(`wrong ${i}`)).statusCode).toBe(401);
    const blocked = await attempt(PASSWORD);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBe('1');
    // Another address is refused too: the account is what is slowed down.
    expect((await attempt(PASSWORD, '203.0.113.9')).statusCode).toBe(429);
    clock.advance(1000);
    expect((await attempt('wrong 5')).statusCode).toBe(401);
    const longer = await attempt(PASSWORD);
    expect(longer.statusCode).toBe(429);
    expect(longer.headers['retry-after']).toBe('2');
    clock.advance(2000);
    expect((await attempt(PASSWORD)).statusCode).toBe(201);
    // Success forgets the account's failures.
    expect((await attempt('wrong again')).statusCode).toBe(401);
    expect((await attempt(PASSWORD)).statusCode).toBe(201);
  });

  it('counts attempts sent at once one after the other: only the free ones check a password', async () => {
    const { organizationId } = await t.createOrg();
    await createPerson(t, organizationId, 'member', 'burst-target@example.com', PASSWORD);
    const burst = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        inSession(t, null, 'POST', '/api/v1/auth/sessions', {
          body: { email: 'burst-target@example.com', password: `burst ${i}` },
          headers: { 'x-forwarded-for': `198.51.100.${100 + i}` },
        }),
      ),
    );
    const codes = burst.map((r) => r.statusCode).sort();
    expect(codes).toEqual([...Array(5).fill(401), ...Array(7).fill(429)]);
    clock.advance(60_000);
    expect((await signIn(t, 'burst-target@example.com', PASSWORD)).body.role).toBe('member');
  });

  it('slows down many failures from one address across accounts', async () => {
    const attempt = (n: number) =>
      inSession(t, null, 'POST', '/api/v1/auth/sessions', {
        body: { email: `guess-${n}@example.com`, password: 'guessing password' },
        headers: { 'x-forwarded-for': '192.0.2.50' },
      });
    for (let i = 0; i < 20; i += 1) expect((await attempt(i)).statusCode).toBe(401);
    const blocked = await attempt(99);
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    clock.advance(60_000);
  });

  it('ends a session after 14 idle days, and after 30 days however used', async () => {
    const idle = await signIn(t, 'ada@example.com', PASSWORD);
    clock.advance(13 * 86_400_000);
    expect((await inSession(t, idle, 'GET', '/api/v1/auth/session')).statusCode).toBe(200);
    clock.advance(13 * 86_400_000);
    expect((await inSession(t, idle, 'GET', '/api/v1/auth/session')).statusCode).toBe(200);
    clock.advance(14 * 86_400_000 + 1);
    expect((await inSession(t, idle, 'GET', '/api/v1/auth/session')).statusCode).toBe(401);

    const busy = await signIn(t, 'ada@example.com', PASSWORD);
    for (let day = 0; day < 29; day += 3) {
      clock.advance(3 * 86_400_000);
      const res = await inSession(t, busy, 'GET', '/api/v1/auth/session');
      expect(res.statusCode, `day ${day + 3}`).toBe(day + 3 < 30 ? 200 : 401);
    }
    clock.advance(3 * 86_400_000);
    expect((await inSession(t, busy, 'GET', '/api/v1/auth/session')).statusCode).toBe(401);
  });
});

describe.each(testDialects())('first run and slow-down across processes (%s)', (dialect) => {
  it(
    'sets up once when two set-ups race, and slows down failures seen by another process',
    { timeout: 60_000 },
    async () => {
      const clock = new ManualClock(Date.parse('2026-11-24T08:00:00.000Z'));
      const t = await createTestApp({ dialect, clock });
      // A second Tocsin process on the same database.
      const other = await createTocsin(t.config, {
        logger: createLogger({ level: 'error', pretty: false }),
        clock,
        background: false,
        migrate: false,
      });
      try {
        const setup = (app: typeof other.app, n: number) =>
          app.inject({
            method: 'POST',
            url: '/api/v1/auth/setup',
            headers: { 'content-type': 'application/json' },
            payload: JSON.stringify({ ...SETUP, organization_name: `Race ${n}`, email: `racer${n}@example.com` }),
          });
        const answers = await Promise.all([setup(t.tocsin.app, 1), setup(other.app, 2)]);
        expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409]);
        expect(await t.tocsin.services.orgs.listOrganizations()).toHaveLength(1);

        const winner = answers.find((r) => r.statusCode === 201)!.json().user.email as string;
        const attempt = (app: typeof other.app, password: string) =>
          app.inject({
            method: 'POST',
            url: '/api/v1/auth/sessions',
            headers: { 'content-type': 'application/json' },
            payload: JSON.stringify({ email: winner, password }),
          });
        for (let i = 0; i < 5; i += 1) {
          const app = i % 2 === 0 ? t.tocsin.app : other.app;
          expect((await attempt(app, `wrong ${i}`)).statusCode).toBe(401);
        }
        const blocked = await attempt(other.app, PASSWORD);
        expect(blocked.statusCode).toBe(429);
        expect(blocked.headers['retry-after']).toBe('1');
        expect((await attempt(t.tocsin.app, PASSWORD)).statusCode).toBe(429);
        clock.advance(1000);
        expect((await attempt(other.app, PASSWORD)).statusCode).toBe(201);

        // A user without any membership cannot sign in, with the same answer as a wrong password.
        const loner = await t.tocsin.services.orgs.ensureUser({ email: 'loner@example.com' });
        await setPassword(t, loner.id, PASSWORD);
        const lonely = await inSession(t, null, 'POST', '/api/v1/auth/sessions', {
          body: { email: 'loner@example.com', password: PASSWORD },
        });
        expect(lonely.statusCode).toBe(401);
        expect(errorCode(lonely)).toBe('invalid_credentials');
      } finally {
        await other.close();
        await t.close();
      }
    },
  );
});

describe('session cookie behind https', () => {
  it('is Secure when public_url is https', async () => {
    const t = await createTestApp({ configFile: { public_url: 'https://tocsin.example.com' } });
    try {
      const res = await inSession(t, null, 'POST', '/api/v1/auth/setup', { body: SETUP });
      expect(res.statusCode).toBe(201);
      expect(res.headers['set-cookie']).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
      const browser = browserOf(res);
      const out = await inSession(t, browser, 'DELETE', '/api/v1/auth/session');
      expect(out.headers['set-cookie']).toMatch(/^tocsin_session=; Max-Age=0; .*; Secure$/);
    } finally {
      await t.close();
    }
  });
});
