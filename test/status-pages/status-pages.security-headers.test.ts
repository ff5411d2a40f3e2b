import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../api-access/helpers.ts';
import { createTestApp, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';

/** Public status pages carry a CSP, nosniff, a referrer policy and a frame policy that follows allow_embedding. */
describe.each(testDialects())('status page security headers (%s)', (dialect) => {
  let t: TestApp;
  let org: TestOrg;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
    org = await t.createOrg();
  });
  afterAll(async () => t.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.tocsin.app.inject({ method: 'GET', url, headers });

  function expectCommon(headers: Record<string, unknown>): void {
    const csp = String(headers['content-security-policy']);
    expect(csp).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]{43}=' 'sha256-[A-Za-z0-9+/]{43}='; /);
    // Forms (the page password) post to the page's own origin only.
    expect(csp).toContain("base-uri 'none'; form-action 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('no-referrer');
    expect(headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(headers['permissions-policy']).toBe('camera=(), microphone=(), geolocation=(), payment=(), usb=()');
  }

  it('frames a page in this app only by default, on HTML, JSON, 304 and 404 answers', async () => {
    const created = await call(t, org.apiKey, 'POST', '/api/v1/status-pages', {
      body: { slug: 'headers-a', title: 'A' },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().allow_embedding).toBe(false);
    const html = await get('/status/headers-a');
    expect(html.statusCode).toBe(200);
    const json = await get('/status/headers-a.json');
    const revalidated = await get('/status/headers-a', { 'if-none-match': String(html.headers.etag) });
    expect(revalidated.statusCode).toBe(304);
    for (const res of [html, json, revalidated, await get('/status/no-such-page'), await get('/status/no-such.json')]) {
      expectCommon(res.headers);
      expect(res.headers['content-security-policy']).toMatch(/frame-ancestors 'self'$/);
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    }
  });

  it('lets any site frame a page whose allow_embedding is on, and stops again when it is turned off', async () => {
    const created = await call(t, org.apiKey, 'POST', '/api/v1/status-pages', {
      body: { slug: 'headers-b', title: 'B', allow_embedding: true },
    });
    expect(created.json().allow_embedding).toBe(true);
    const embeddable = await get('/status/headers-b');
    expectCommon(embeddable.headers);
    expect(embeddable.headers['content-security-policy']).toMatch(/frame-ancestors \*$/);
    expect(embeddable.headers['x-frame-options']).toBeUndefined();

    const patched = await call(t, org.apiKey, 'PATCH', `/api/v1/status-pages/${created.json().id}`, {
      body: { allow_embedding: false },
    });
    expect(patched.json().allow_embedding).toBe(false);
    expect((await get('/status/headers-b')).headers['x-frame-options']).toBe('SAMEORIGIN');
    const bad = await call(t, org.apiKey, 'PATCH', `/api/v1/status-pages/${created.json().id}`, {
      body: { allow_embedding: 'yes' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.details).toEqual([{ field: 'allow_embedding', issue: 'must be boolean' }]);
  });
});
