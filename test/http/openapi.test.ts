import { Validator } from '@seriousme/openapi-schema-validator';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';

/** Every route the real app registers, seen through an onRoute hook added the moment Fastify is created. */
const registered = vi.hoisted(() => [] as RouteOptions[]);
vi.mock('fastify', async (importOriginal) => {
  const mod = await importOriginal<typeof import('fastify')>();
  const original = mod.default as unknown as (...args: unknown[]) => import('fastify').FastifyInstance;
  const wrapped = (...args: unknown[]) => {
    const app = original(...args);
    app.addHook('onRoute', (route) => {
      registered.push(route);
    });
    return app;
  };
  Object.assign(wrapped, original);
  return { ...mod, default: wrapped };
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON read back from responses
type Json = Record<string, any>;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** `/api/v1/monitors/:id` → `/api/v1/monitors/{id}` */
function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

describe('OpenAPI description', () => {
  let t: TestApp;
  let doc: Json;
  beforeAll(async () => {
    t = await createTestApp();
    const res = await t.tocsin.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    doc = res.json();
  });
  afterAll(async () => t.close());

  /** The documented routes: not HEAD twins, not the Swagger UI's own files, not routes marked hide. */
  function documentedRoutes(): Array<{ method: string; url: string; route: RouteOptions }> {
    const out: Array<{ method: string; url: string; route: RouteOptions }> = [];
    for (const route of registered) {
      if (route.url.startsWith('/docs')) continue;
      if ((route.schema as Json | undefined)?.hide === true) continue;
      for (const m of Array.isArray(route.method) ? route.method : [route.method]) {
        if (m === 'HEAD' || m === 'OPTIONS') continue;
        out.push({ method: m.toLowerCase(), url: route.url, route });
      }
    }
    return out;
  }

  function operations(): Array<{ path: string; method: string; op: Json }> {
    return Object.entries(doc.paths as Json).flatMap(([path, item]) =>
      Object.entries(item as Json)
        .filter(([m]) => METHODS.includes(m))
        .map(([method, op]) => ({ path, method, op: op as Json })),
    );
  }

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('names the product, the version and the server', () => {
    expect(doc.info.title).toBe('Tocsin API');
    expect(doc.info.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(doc.servers).toEqual([{ url: t.config.publicUrl }]);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('saw the app register its routes', () => {
    expect(registered.length).toBeGreaterThan(5);
    expect(registered.some((r) => r.url === '/api/v1/monitors')).toBe(true);
  });

  it('describes every registered route as an operation', () => {
    const missing = documentedRoutes()
      .filter(({ method, url }) => !doc.paths[openApiPath(url)]?.[method])
      .map(({ method, url }) => `${method.toUpperCase()} ${url}`);
    expect(missing).toEqual([]);
  });

  it('has no operation that the app does not serve', () => {
    const served = new Set(documentedRoutes().map(({ method, url }) => `${method} ${openApiPath(url)}`));
    const extra = operations()
      .map(({ path, method }) => `${method} ${path}`)
      .filter((k) => !served.has(k));
    expect(extra).toEqual([]);
  });

  it('declares for every /api/v1 route either a scope or that it is public', () => {
    const undeclared = documentedRoutes()
      .filter(({ url }) => url.startsWith('/api/v1/'))
      .filter(({ route }) => !route.config?.scope && route.config?.public !== true)
      .map(({ method, url }) => `${method.toUpperCase()} ${url}`);
    expect(undeclared).toEqual([]);
  });

  it('gives every non-public /api/v1 operation its scope and its error responses', () => {
    const problems: string[] = [];
    for (const { method, url, route } of documentedRoutes()) {
      if (!url.startsWith('/api/v1/') || !route.config?.scope) continue;
      const name = `${method.toUpperCase()} ${url}`;
      const op = doc.paths[openApiPath(url)][method] as Json;
      const scope = route.config.scope;
      if (JSON.stringify(op.security) !== JSON.stringify([{ bearerAuth: [scope] }]))
        problems.push(`${name}: security ${JSON.stringify(op.security)}`);
      if (op['x-required-scope'] !== scope) problems.push(`${name}: x-required-scope`);
      if (!String(op.description ?? '').includes(scope)) problems.push(`${name}: description does not name ${scope}`);
      const takesInput = Boolean(op.parameters?.length || op.requestBody);
      const expected = [
        '401',
        '403',
        '429',
        '500',
        ...(takesInput ? ['422'] : []),
        ...(url.includes(':') ? ['404'] : []),
      ];
      if (op.requestBody) expected.push('400', '413', '415');
      for (const status of expected) {
        const schema = op.responses?.[status]?.content?.['application/json']?.schema;
        if (schema?.$ref !== '#/components/schemas/ErrorEnvelope')
          problems.push(`${name}: ${status} is not an ErrorEnvelope`);
        if (!op.responses?.[status]?.description) problems.push(`${name}: ${status} has no description`);
      }
      if (!op.operationId) problems.push(`${name}: no operationId`);
      if (!op.summary) problems.push(`${name}: no summary`);
      const success = Object.keys(op.responses ?? {}).filter((s) => s.startsWith('2'));
      if (success.length === 0) problems.push(`${name}: no success response`);
    }
    expect(problems).toEqual([]);
  });

  it('documents public routes as needing no key', () => {
    for (const path of ['/healthz', '/readyz', '/api/v1/openapi.json']) {
      expect(doc.paths[path].get.security).toEqual([]);
      expect(doc.paths[path].get.responses['401']).toBeUndefined();
    }
  });

  it('has unique operation ids', () => {
    const ids = operations()
      .map(({ op }) => op.operationId as string | undefined)
      .filter((id): id is string => id !== undefined);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('defines the error envelope once, as the API sends it', () => {
    const env = doc.components.schemas.ErrorEnvelope;
    expect(env.required).toEqual(['error']);
    expect(env.properties.error.required).toEqual(['code', 'message', 'request_id']);
    expect(Object.keys(env.properties.error.properties)).toEqual(['code', 'message', 'request_id', 'details']);
  });

  it('resolves every $ref inside the document', () => {
    const refs = new Set<string>();
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') {
        for (const [k, x] of Object.entries(v)) {
          if (k === '$ref' && typeof x === 'string') refs.add(x);
          else walk(x);
        }
      }
    };
    walk(doc);
    const broken = [...refs].filter((r) => {
      if (!r.startsWith('#/')) return true;
      let node: unknown = doc;
      for (const part of r.slice(2).split('/'))
        node = (node as Json | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
      return node === undefined;
    });
    expect(broken).toEqual([]);
  });

  it('describes the monitor create body with the spec example fields', () => {
    const op = doc.paths['/api/v1/monitors'].post;
    const body = op.requestBody.content['application/json'].schema;
    for (const f of ['name', 'type', 'target', 'interval_seconds', 'region_codes', 'tags', 'config'])
      expect(body.properties[f]).toBeDefined();
    expect(op.responses['201'].content['application/json'].schema.$ref).toBe('#/components/schemas/Monitor');
    expect(doc.paths['/api/v1/monitors'].get.responses['200'].content['application/json'].schema.$ref).toBe(
      '#/components/schemas/MonitorList',
    );
  });
});

describe('/docs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('serves HTML that loads only local assets', async () => {
    for (const url of ['/docs', '/docs/']) {
      const res = await t.tocsin.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      const html = res.body;
      const sources = [
        ...html.matchAll(/<(?:script|link|img|iframe)\b[^>]*?\b(?:src|href)\s*=\s*["']([^"']+)["']/gi),
      ].map((m) => m[1]!);
      expect(sources.length).toBeGreaterThan(0);
      for (const src of sources) expect(src, src).not.toMatch(/^(?:[a-z]+:)?\/\//i);
      expect(html).not.toMatch(/https?:\/\/(?!localhost)[^"'\s]+\.(?:js|css)/i);
      // Every asset it names is served by this app.
      for (const src of sources) {
        const path = src.startsWith('/') ? src : `/docs/${src.replace(/^\.\//, '')}`;
        const asset = await t.tocsin.app.inject({ method: 'GET', url: path });
        expect(asset.statusCode, path).toBe(200);
      }
    }
  });

  it('sends a content security policy that allows no other host', async () => {
    const res = await t.tocsin.app.inject({ method: 'GET', url: '/docs/' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/https:|validator\.swagger\.io/);
  });

  it('points the UI at this server’s description, without an external validator', async () => {
    const init = await t.tocsin.app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
    expect(init.statusCode).toBe(200);
    // No quoted absolute URL (a comment may cite a web page; code must not fetch one).
    expect(init.body).not.toMatch(/['"`]https?:\/\//);
    expect(init.body).toContain("url: resolveUrl('./json')");
    expect(init.body).toContain('"validatorUrl":null');
    const json = await t.tocsin.app.inject({ method: 'GET', url: '/docs/json' });
    expect(json.statusCode).toBe(200);
    expect(json.json().info.title).toBe('Tocsin API');
  });
});
