import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, ManualClock, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are inspected loosely in tests
type Json = Record<string, any>;

const PASSWORD = 'correct horse battery';

/** DECISIONS §18: password-protected pages, their page sessions and the slowed-down guessing of their password. */
for (const dialect of testDialects()) {
  describe(`${dialect}: password-protected status pages`, () => {
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

    async function call(method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) {
      const res = await t.tocsin.app.inject({
        method,
        url,
        headers: bearer(org.apiKey),
        ...(body !== undefined && { payload: body as Json }),
      });
      return { status: res.statusCode, body: res.body === '' ? undefined : (res.json() as Json) };
    }
    const visit = (url: string, cookie?: string, ip = '198.51.100.1') =>
      t.tocsin.app.inject({ url, remoteAddress: ip, headers: cookie ? { cookie } : {} });
    const unlock = (slug: string, password: string, ip = '198.51.100.1', extra: Record<string, string> = {}) =>
      t.tocsin.app.inject({
        method: 'POST',
        url: `/status/${slug}/access`,
        remoteAddress: ip,
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...extra },
        payload: new URLSearchParams({ password }).toString(),
      });
    /** The `name=value` of the Set-Cookie header. */
    const cookieOf = (res: { headers: Record<string, unknown> }) => String(res.headers['set-cookie']).split(';')[0]!;
    const slug = () => `locked-${dialect}-${++n}`;
    async function lockedPage(title = 'Secret Systems'): Promise<{ id: string; slug: string }> {
      const s = slug();
      const res = await call('POST', '/api/v1/status-pages', {
        slug: s,
        title,
        access: 'password',
        password: PASSWORD,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return { id: res.body!.id as string, slug: s };
    }

    it('needs a password of 10+ characters for access "password", and never shows it', async () => {
      const s = slug();
      const missing = await call('POST', '/api/v1/status-pages', { slug: s, title: 'x', access: 'password' });
      expect(missing.status).toBe(422);
      expect(missing.body!.error.details).toEqual([
        { field: 'password', issue: 'is required while access is "password"' },
      ]);
      const short = await call('POST', '/api/v1/status-pages', {
        slug: s,
        title: 'x',
        access: 'password',
        password: 'short',
      });
      expect(short.body!.error.details).toEqual([{ field: 'password', issue: 'must be at least 10 characters' }]);
      const page = await lockedPage();
      const read = await call('GET', `/api/v1/status-pages/${page.id}`);
      expect(read.body).toMatchObject({ access: 'password', password_set: true });
      expect(JSON.stringify(read.body)).not.toContain('scrypt');
      const removal = await call('PATCH', `/api/v1/status-pages/${page.id}`, { password: null });
      expect(removal.status).toBe(422);
      expect(removal.body!.error.details[0]).toEqual({
        field: 'password',
        issue: 'cannot be removed while access is "password"',
      });
      // The audit entry says the hash changed, never what it is.
      const audit = await call('GET', `/api/v1/audit-log?target_id=${page.id}`);
      const entry = (audit.body!.data as Json[]).find((e) => e.action === 'status_page.create')!;
      expect(JSON.stringify(entry)).not.toContain('scrypt');
      expect(entry.changes.passwordHash ?? entry.changes.password_hash).toBeDefined();
    });

    it('shows the password form and no data of the page without a session; the password opens it', async () => {
      const page = await lockedPage('Secret Systems');
      const form = await visit(`/status/${page.slug}`);
      expect(form.statusCode).toBe(401);
      expect(form.body).toContain(`<form class="unlock" method="post" action="/status/${page.slug}/access">`);
      expect(form.body).not.toContain('Secret Systems');
      expect(form.headers['cache-control']).toBe('no-store');
      expect(String(form.headers['content-security-policy'])).toContain("form-action 'self'");
      const json = await visit(`/status/${page.slug}.json`);
      expect(json.statusCode).toBe(401);
      expect(json.json().error.code).toBe('unauthorized');
      expect(json.body).not.toContain('Secret Systems');

      const wrong = await unlock(page.slug, 'not the password');
      expect(wrong.statusCode).toBe(401);
      expect(wrong.body).toContain('Wrong password. Try again.');
      expect(wrong.headers['set-cookie']).toBeUndefined();

      const right = await unlock(page.slug, PASSWORD);
      expect(right.statusCode).toBe(303);
      expect(right.headers.location).toBe(`/status/${page.slug}`);
      const setCookie = String(right.headers['set-cookie']);
      expect(setCookie).toMatch(
        new RegExp(
          `^tocsin_page_${page.id}=\\d+\\.[A-Za-z0-9_-]{43}; Max-Age=604800; Path=/status; HttpOnly; SameSite=Lax$`,
        ),
      );
      const cookie = cookieOf(right);
      const opened = await visit(`/status/${page.slug}`, cookie);
      expect(opened.statusCode).toBe(200);
      expect(opened.body).toContain('Secret Systems');
      expect(opened.headers['cache-control']).toBe('private, no-cache');
      expect((await visit(`/status/${page.slug}.json`, cookie)).json().title).toBe('Secret Systems');

      // The session opens this page only, ends after 7 days, and ends when the password changes.
      const other = await lockedPage('Other');
      expect((await visit(`/status/${other.slug}`, cookie.replace(page.id, other.id))).statusCode).toBe(401);
      expect((await visit(`/status/${page.slug}`, cookie.replace(/=\d+\./, '=99999999999999.'))).statusCode).toBe(401);
      clock.advance(7 * 86_400_000 + 1000);
      expect((await visit(`/status/${page.slug}`, cookie)).statusCode).toBe(401);
      const fresh = cookieOf(await unlock(page.slug, PASSWORD));
      expect((await visit(`/status/${page.slug}`, fresh)).statusCode).toBe(200);
      const changed = await call('PATCH', `/api/v1/status-pages/${page.id}`, { password: 'a new page password' });
      expect(changed.status).toBe(200);
      expect((await visit(`/status/${page.slug}`, fresh)).statusCode).toBe(401);
      // Back to public: everyone sees it, the session is not needed.
      await call('PATCH', `/api/v1/status-pages/${page.id}`, { access: 'public' });
      expect((await visit(`/status/${page.slug}`)).statusCode).toBe(200);
    });

    it('answers JSON clients with 204 and the cookie, and refuses a form posted from another site', async () => {
      const page = await lockedPage();
      const json = await t.tocsin.app.inject({
        method: 'POST',
        url: `/status/${page.slug}/access`,
        remoteAddress: '198.51.100.9',
        payload: { password: PASSWORD },
      });
      expect(json.statusCode).toBe(204);
      expect(String(json.headers['set-cookie'])).toContain(`tocsin_page_${page.id}=`);
      const empty = await t.tocsin.app.inject({
        method: 'POST',
        url: `/status/${page.slug}/access`,
        payload: {},
      });
      expect(empty.statusCode).toBe(422);
      expect(empty.json().error.details[0].field).toBe('password');
      const foreign = await unlock(page.slug, PASSWORD, '198.51.100.9', { origin: 'https://evil.example' });
      expect(foreign.statusCode).toBe(403);
      expect(foreign.headers['set-cookie']).toBeUndefined();
      expect((await unlock('no-such-page', PASSWORD)).statusCode).toBe(404);
    });

    it('slows down guessing per address, then per page, with Retry-After, and lets the right password in after the wait', async () => {
      const page = await lockedPage();
      const ip = '203.0.113.7';
      for (let i = 0; i < 5; i++) expect((await unlock(page.slug, `guess number ${i}`, ip)).statusCode).toBe(401);
      // After 5 wrong guesses the address waits 1 s, then 2 s, 4 s … after each further one; not even the right
      // password is checked meanwhile.
      const blocked = await unlock(page.slug, PASSWORD, ip);
      expect(blocked.statusCode).toBe(429);
      expect(blocked.headers['retry-after']).toBe('1');
      expect(blocked.body).toContain('Too many wrong passwords. Try again in 1 s.');
      expect(blocked.headers['set-cookie']).toBeUndefined();
      // Another address is not held up by this one.
      expect((await unlock(page.slug, PASSWORD, '203.0.113.8')).statusCode).toBe(303);
      clock.advance(1000);
      expect((await unlock(page.slug, PASSWORD, ip)).statusCode).toBe(303);

      // Per page: 20 wrong guesses from 20 addresses hold the page's form for everyone without a session.
      const target = await lockedPage();
      for (let i = 0; i < 20; i++) {
        expect((await unlock(target.slug, `spray ${i}`, `192.0.2.${i + 1}`)).statusCode).toBe(401);
      }
      const held = await unlock(target.slug, PASSWORD, '192.0.2.200');
      expect(held.statusCode).toBe(429);
      // The first page is not affected by the second one's guessing.
      expect((await unlock(page.slug, PASSWORD, '192.0.2.201')).statusCode).toBe(303);
      clock.advance(Number(held.headers['retry-after']) * 1000);
      expect((await unlock(target.slug, PASSWORD, '192.0.2.200')).statusCode).toBe(303);
    });

    it('serves the JSON of a protected page only with its session', async () => {
      const page = await lockedPage();
      expect((await visit(`/status/${page.slug}.json`)).statusCode).toBe(401);
      const cookie = cookieOf(await unlock(page.slug, PASSWORD, '198.51.100.50'));
      expect((await visit(`/status/${page.slug}.json`, cookie)).statusCode).toBe(200);
    });
  });
}
