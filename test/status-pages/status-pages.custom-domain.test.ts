import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are inspected loosely in tests
type Json = Record<string, any>;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** DECISIONS §18: a page served at the root of its custom domain, by the Host of requests to a real port. */
for (const dialect of testDialects()) {
  describe(`${dialect}: status page custom domains`, () => {
    let t: TestApp;
    let org: TestOrg;
    let port: number;

    beforeAll(async () => {
      t = await createTestApp({ dialect, configFile: { public_url: 'https://tocsin.example.test' } });
      org = await t.createOrg();
      await t.tocsin.app.listen({ host: '127.0.0.1', port: 0 });
      port = (t.tocsin.app.server.address() as AddressInfo).port;
    });
    afterAll(async () => t.close());

    /** A request over loopback with this Host header (what a browser sends for the custom domain). */
    function get(host: string, path: string, headers: Record<string, string> = {}, method = 'GET', body?: string) {
      return new Promise<Answer>((resolve, reject) => {
        const req = httpRequest(
          { host: '127.0.0.1', port, path, method, headers: { host, ...headers }, setHost: false },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () =>
              resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
            );
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    }
    async function call(method: 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) {
      const res = await t.tocsin.app.inject({
        method,
        url,
        headers: bearer(org.apiKey),
        ...(body !== undefined && { payload: body as Json }),
      });
      return { status: res.statusCode, body: res.body === '' ? undefined : (res.json() as Json) };
    }
    const fields = (body: Json | undefined) => (body?.error?.details as Array<{ field: string }>).map((d) => d.field);

    it('serves the page, its JSON and its links at the root of its domain, and nothing else of the app there', async () => {
      const created = await call('POST', '/api/v1/status-pages', {
        slug: `domain-${dialect}`,
        title: 'Example Status',
        custom_domain: 'Status.Example.TEST',
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body!.custom_domain).toBe('status.example.test');

      const home = await get('status.example.test', '/');
      expect(home.status).toBe(200);
      expect(home.body).toContain('<h1>Example Status</h1>');
      expect(String(home.headers['content-security-policy'])).toContain("default-src 'none'");
      // The page's links are absolute under /status/{slug}: followed on the custom domain, they work.
      const link = /<a href="([^"]+\.json)">JSON<\/a>/.exec(home.body)![1]!;
      expect(link).toBe(`/status/domain-${dialect}.json`);
      const json = await get('status.example.test:443', link);
      expect(json.status).toBe(200);
      expect(JSON.parse(json.body).title).toBe('Example Status');
      expect((await get('status.example.test', '/?utm=x')).status).toBe(200);

      // The API, the web app and other pages are not served at a customer's domain.
      const other = await call('POST', '/api/v1/status-pages', { slug: `other-${dialect}`, title: 'Other' });
      expect(other.status).toBe(201);
      expect((await get('status.example.test', `/status/other-${dialect}`)).status).toBe(404);
      expect((await get('status.example.test', '/api/v1/status-pages', bearer(org.apiKey))).status).toBe(404);
      expect((await get('status.example.test', '/openapi.json')).status).toBe(404);
      // Another Host is the app as usual.
      expect((await get(`127.0.0.1:${port}`, `/status/other-${dialect}`)).status).toBe(200);
      expect((await get('unknown.example.test', '/api/v1/status-pages', bearer(org.apiKey))).status).toBe(200);

      // Moving the domain to the other page is served at once; removing it frees the Host.
      const cleared = await call('PATCH', `/api/v1/status-pages/${created.body!.id}`, { custom_domain: null });
      expect(cleared.body!.custom_domain).toBeNull();
      const moved = await call('PATCH', `/api/v1/status-pages/${other.body!.id}`, {
        custom_domain: 'status.example.test.',
      });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      expect((await get('status.example.test', '/')).body).toContain('<h1>Other</h1>');
      expect((await call('DELETE', `/api/v1/status-pages/${other.body!.id}`)).status).toBe(204);
      // The Host is the app's again (its web app at /), no page's.
      expect((await get('status.example.test', '/')).body).not.toContain('<h1>Other</h1>');
    });

    it('opens a protected page at its domain: the form posts there, the cookie is for that host, the redirect is /', async () => {
      const created = await call('POST', '/api/v1/status-pages', {
        slug: `domain-locked-${dialect}`,
        title: 'Locked Domain',
        custom_domain: 'private-status.example.test',
        access: 'password',
        password: 'the domain password',
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const form = await get('private-status.example.test', '/');
      expect(form.status).toBe(401);
      const action = /<form class="unlock" method="post" action="([^"]+)">/.exec(form.body)![1]!;
      const posted = await get(
        'private-status.example.test',
        action,
        { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://private-status.example.test' },
        'POST',
        'password=the+domain+password',
      );
      expect(posted.status).toBe(303);
      expect(posted.headers.location).toBe('/');
      const setCookie = String(posted.headers['set-cookie']);
      // Secure follows the request (plain http on this loopback), not the app's https public URL.
      expect(setCookie).toMatch(/; Path=\/; HttpOnly; SameSite=Lax$/);
      const opened = await get('private-status.example.test', '/', { cookie: setCookie.split(';')[0]! });
      expect(opened.status).toBe(200);
      expect(opened.body).toContain('<h1>Locked Domain</h1>');
    });

    it('refuses host names that are not, a domain already taken and the app own host, naming the field', async () => {
      for (const domain of [
        'https://status.example.com',
        'localhost',
        '10.0.0.1',
        'a..example.com',
        '-x.example.com',
        'status.example.com/x',
        'status.example.com:8443',
      ]) {
        const res = await call('POST', '/api/v1/status-pages', {
          slug: `bad-${dialect}`,
          title: 'x',
          custom_domain: domain,
        });
        expect(res.status, domain).toBe(422);
        expect(fields(res.body), domain).toEqual(['custom_domain']);
      }
      const first = await call('POST', '/api/v1/status-pages', {
        slug: `taken-a-${dialect}`,
        title: 'x',
        custom_domain: `taken-${dialect}.example.test`,
      });
      expect(first.status).toBe(201);
      const second = await call('POST', '/api/v1/status-pages', {
        slug: `taken-b-${dialect}`,
        title: 'x',
        custom_domain: `TAKEN-${dialect}.example.test`,
      });
      expect(second.status).toBe(422);
      expect(second.body!.error.details).toEqual([
        { field: 'custom_domain', issue: `taken-${dialect}.example.test is already taken by another status page` },
      ]);
      const reserved = await call('POST', '/api/v1/status-pages', {
        slug: `own-${dialect}`,
        title: 'x',
        custom_domain: 'tocsin.example.test',
      });
      expect(reserved.body!.error.details).toEqual([
        { field: 'custom_domain', issue: "tocsin.example.test is this app's own host name" },
      ]);
    });
  });
}
