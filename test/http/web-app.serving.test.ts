/**
 * `tocsin serve` serves the built web app (web/dist, built by `npm ci` through `prepare`): page paths answer
 * index.html (never cached, with the app's security headers), hashed assets are cached for a year and sent
 * gzipped when asked, and nothing else is shadowed: the API, status pages, docs, health, heartbeats and unknown
 * paths keep their own answers.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { installErrorHandling } from '../../src/http/plugins/errors.plugin.ts';
import { WEB_DIST_DIR } from '../../src/http/routes/web/web.assets.ts';
import { browserNotFoundPage } from '../../src/http/routes/web/web.routes.ts';
import { createTestApp, type TestApp } from '../support/app.ts';

describe('the web app served at /', () => {
  let t: TestApp;
  const index = readFileSync(`${WEB_DIST_DIR}/index.html`, 'utf8');
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());
  const get = (url: string, headers: Record<string, string> = {}) =>
    t.tocsin.app.inject({ method: 'GET', url, headers });

  it('answers index.html for every page path, never cached, with the security headers', async () => {
    for (const path of [
      '/',
      '/setup',
      '/sign-in?next=%2Fincidents%2Finc_1',
      '/reset-password?token=abc',
      '/accept-invitation?token=abc',
      '/monitors',
      '/monitors/new',
      '/monitors/mon_01jabcdefghjkmnpqrstvwxyz0/edit',
      '/incidents/inc_01jabcdefghjkmnpqrstvwxyz0',
      '/status-pages/sp_1',
      '/destinations/new',
      '/members',
      '/api-keys/key_1',
      '/settings',
      '/profile',
      '/reports/availability?period=last_30_days',
      '/sla-targets/sla_1',
      '/custom-reports/new',
      '/scheduled-reports',
      '/imports/openapi',
      '/intelligence?monitor_id=mon_1',
    ]) {
      const res = await get(path);
      expect(res.statusCode, path).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toBe(index);
      expect(res.headers['cache-control']).toBe('no-cache');
      const csp = String(res.headers['content-security-policy']);
      const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1];
      expect(scriptSrc).toBe("'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('unsafe-eval');
      expect(csp).toContain("frame-ancestors 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    }
    // index.html has no inline script (the CSP would block it).
    expect(index).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });

  it('serves hashed assets for a year, gzipped when asked; unknown files are 404 in the envelope', async () => {
    const scripts = [...index.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const path of scripts) {
      const plain = await get(path);
      expect(plain.statusCode, path).toBe(200);
      expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(plain.headers['content-type']).toMatch(/^(text\/javascript|text\/css)/);
      const gz = await get(path, { 'accept-encoding': 'gzip, br' });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.rawPayload).toString('utf8')).toBe(plain.body);
    }
    for (const path of ['/assets/nope.js', '/assets/..%2F..%2Fpackage.json', '/assets/../index.html']) {
      const res = await get(path);
      expect(res.statusCode, path).toBe(404);
      expect(res.json()).toMatchObject({ error: { code: 'not_found' } });
    }
    expect((await get('/favicon.svg')).headers['content-type']).toBe('image/svg+xml');
  });

  it('shadows no other route', async () => {
    const api = await get('/api/v1/nothing-here');
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ error: { code: 'not_found' } });
    expect((await get('/api/v1/monitors')).statusCode).toBe(401);
    expect((await get('/healthz')).json()).toEqual({ status: 'ok' });
    expect((await get('/readyz')).statusCode).toBe(200);
    const docs = await get('/docs/');
    expect(docs.body).not.toBe(index);
    const status = await get('/status/no-such-page');
    expect(status.statusCode).toBe(404);
    expect(status.body).not.toBe(index);
    const verify = await get('/verify-email?token=x');
    expect(verify.body).not.toBe(index);
    const heartbeat = await get('/api/v1/heartbeats/hb_unknown');
    expect(heartbeat.statusCode).toBe(404);
    expect(heartbeat.body).not.toBe(index);
    const unknown = await get('/some/other/path');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: { code: 'not_found' } });
    // The page routes are not API operations: the OpenAPI document does not list them.
    const doc = (await get('/api/v1/openapi.json')).json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((p) => !p.startsWith('/api/') && !p.startsWith('/status/'))).toEqual([
      '/healthz',
      '/readyz',
      '/badge/{token}/{file}',
    ]);
  });

  it('answers a browser asking for an unknown page with 404 and the app (which says "Page not found")', async () => {
    const html = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
    for (const path of ['/nope', '/some/other/path?x=1', '/monitorsx']) {
      const res = await get(path, { accept: html });
      expect(res.statusCode, path).toBe(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toBe(index);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(String(res.headers['content-security-policy'])).toContain("script-src 'self'");
      expect(res.headers['x-request-id']).toBeTruthy();
    }
    const head = await t.tocsin.app.inject({ method: 'HEAD', url: '/nope', headers: { accept: html } });
    expect(head.statusCode).toBe(404);
    expect(head.headers['content-type']).toBe('text/html; charset=utf-8');
    // The API, other methods and clients that do not ask for HTML keep the JSON envelope.
    for (const [method, path, accept] of [
      ['GET', '/api/v1/nothing-here', html],
      ['GET', '/api', html],
      ['GET', '/nope', 'application/json'],
      ['GET', '/nope', '*/*'],
      ['POST', '/nope', html],
    ] as const) {
      const res = await t.tocsin.app.inject({ method, url: path, headers: { accept } });
      expect(res.statusCode, `${method} ${path} ${accept}`).toBe(404);
      expect(res.headers['content-type'], `${method} ${path}`).toMatch(/^application\/json/);
      expect(res.json()).toMatchObject({ error: { code: 'not_found' } });
    }
  });
});

describe('the not-found page without a web build (an API-only install)', () => {
  it('is a plain HTML page for browsers, the JSON envelope for others', async () => {
    const app = Fastify();
    installErrorHandling(app, { browserNotFound: browserNotFoundPage(null) });
    await app.ready();
    try {
      const page = await app.inject({ method: 'GET', url: '/nope', headers: { accept: 'text/html' } });
      expect(page.statusCode).toBe(404);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.body).toContain('<h1>Page not found</h1>');
      expect(page.body).toContain('href="/"');
      expect(page.body).not.toMatch(/<script|<style|style=/);
      const api = await app.inject({ method: 'GET', url: '/api/v1/x', headers: { accept: 'text/html' } });
      expect(api.json()).toMatchObject({ error: { code: 'not_found' } });
    } finally {
      await app.close();
    }
  });
});
