import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createProviderRegistry,
  EVENT_TYPES,
  type DestinationRecord,
  type EventType,
} from '../../src/modules/alerting/destinations/index.ts';
import { alertEvent, delivery, destinationRecord, renderCtx } from '../fakes/alert-events.ts';
import { startFakeHttp, type FakeServer } from '../fakes/fake-http.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { skipWithout } from '../support/services.ts';

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
      .filter(({ route }) => !route.config?.scope && route.config?.public !== true && route.config?.session !== true)
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
      if (JSON.stringify(op.security) !== JSON.stringify([{ bearerAuth: [scope] }, { sessionCookie: [] }]))
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

describe('OpenAPI description: headers, idempotency, HTML and webhooks', () => {
  let t: TestApp;
  let doc: Json;
  beforeAll(async () => {
    t = await createTestApp();
    doc = (await t.tocsin.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  });
  afterAll(async () => t.close());

  /** Operations of routes that need an API key, with the route's method. */
  function keyedOperations(): Array<{ name: string; method: string; op: Json }> {
    const out: Array<{ name: string; method: string; op: Json }> = [];
    for (const route of registered) {
      if (!route.config?.scope || route.url.startsWith('/docs')) continue;
      for (const m of Array.isArray(route.method) ? route.method : [route.method]) {
        if (m === 'HEAD' || m === 'OPTIONS') continue;
        const op = doc.paths[openApiPath(route.url)]?.[m.toLowerCase()] as Json | undefined;
        if (op) out.push({ name: `${m} ${route.url}`, method: m, op });
      }
    }
    return out;
  }

  const allOperations = (): Array<{ name: string; op: Json }> =>
    Object.entries(doc.paths as Json).flatMap(([path, item]) =>
      Object.entries(item as Json)
        .filter(([m]) => METHODS.includes(m))
        .map(([m, op]) => ({ name: `${m.toUpperCase()} ${path}`, op: op as Json })),
    );

  it('defines every response header once, as a reusable component', () => {
    const headers = doc.components.headers as Json;
    for (const name of [
      'X-Request-Id',
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'Retry-After',
      'Idempotent-Replayed',
    ]) {
      expect(headers[name]?.schema, name).toBeDefined();
      expect(headers[name]?.description, name).toBeTruthy();
    }
    expect(doc.components.parameters.IdempotencyKey).toMatchObject({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    });
  });

  it('documents X-Request-Id on every response of every operation', () => {
    const missing = allOperations().flatMap(({ name, op }) =>
      Object.entries(op.responses as Json)
        .filter(([, r]) => (r as Json).headers?.['X-Request-Id']?.$ref !== '#/components/headers/X-Request-Id')
        .map(([status]) => `${name} ${status}`),
    );
    expect(missing).toEqual([]);
  });

  it('declares Idempotency-Key on every mutating operation that needs a key, and on no other', () => {
    const problems: string[] = [];
    const declares = (op: Json) =>
      (op.parameters ?? []).some((p: Json) => p.$ref === '#/components/parameters/IdempotencyKey');
    const keyed = keyedOperations();
    expect(keyed.filter(({ method }) => method !== 'GET').length).toBeGreaterThan(10);
    for (const { name, method, op } of keyed) {
      const mutating = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(method);
      if (mutating !== declares(op)) problems.push(`${name}: Idempotency-Key ${declares(op) ? 'declared' : 'missing'}`);
      const replayed = op.responses['200'] ?? op.responses['201'] ?? op.responses['202'] ?? op.responses['204'];
      if (mutating && !replayed?.headers?.['Idempotent-Replayed']) problems.push(`${name}: no Idempotent-Replayed`);
      for (const never of ['401', '429', '500'])
        if (op.responses[never]?.headers?.['Idempotent-Replayed']) problems.push(`${name}: ${never} is never replayed`);
    }
    // Routes without an API key (runners, heartbeats) are not idempotent: no actor, no stored response.
    for (const { name, op } of allOperations()) {
      if ((op.security ?? []).length === 0 && declares(op)) problems.push(`${name}: declared without a key`);
    }
    expect(problems).toEqual([]);
  });

  it('documents the RateLimit headers on every response of an operation that needs a key, Retry-After on 429', () => {
    const problems: string[] = [];
    for (const { name, op } of keyedOperations()) {
      for (const [status, response] of Object.entries(op.responses as Json)) {
        for (const h of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']) {
          if ((response as Json).headers?.[h]?.$ref !== `#/components/headers/${h}`)
            problems.push(`${name} ${status}: ${h}`);
        }
      }
      if (op.responses['429']?.headers?.['Retry-After']?.$ref !== '#/components/headers/Retry-After')
        problems.push(`${name} 429: Retry-After`);
    }
    expect(problems).toEqual([]);
    // Public operations do not claim rate-limit headers they never send.
    expect(doc.paths['/healthz'].get.responses['200'].headers['RateLimit-Limit']).toBeUndefined();
  });

  it('describes the public status page as HTML and as JSON', () => {
    const op = doc.paths['/status/{slug}'].get;
    expect(op.responses['200'].content['text/html'].schema.type).toBe('string');
    expect(op.responses['200'].content['application/json'].schema.$ref).toBe('#/components/schemas/PublicStatusPage');
    expect(op.responses['404'].content['text/html'].schema.type).toBe('string');
    expect(op.responses['404'].content['application/json'].schema.$ref).toBe('#/components/schemas/ErrorEnvelope');
    expect(Object.keys(op.responses['500'].content)).toEqual(['application/json']);
    expect(op.responses['200'].headers['RateLimit-Limit']).toBeUndefined();
  });
});

/** A validator for the request body of `webhooks.<event>`, resolving the document's own $refs. */
function webhookPayloadValidator(doc: Json, event: string) {
  const schema = doc.webhooks[event].post.requestBody.content['application/json'].schema as Json;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  return ajv.compile({ ...schema, components: doc.components });
}

describe('OpenAPI description: outgoing webhooks', () => {
  let t: TestApp;
  let doc: Json;
  beforeAll(async () => {
    t = await createTestApp();
    doc = (await t.tocsin.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  });
  afterAll(async () => t.close());

  const payloadValidator = (event: string) => webhookPayloadValidator(doc, event);

  const generic = createProviderRegistry().get('generic_webhook')!;
  const render = (type: EventType, format: 'standard' | 'legacy'): unknown => {
    const destination: DestinationRecord = destinationRecord(
      'generic_webhook',
      { url: 'https://hooks.example.com/x' },
      { payload_format: format },
    );
    const request = generic.render(alertEvent(type), destination, delivery(), renderCtx) as { body: string };
    return JSON.parse(request.body);
  };

  it('has one entry per event a destination can receive, with the signature headers', () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([...EVENT_TYPES].sort());
    for (const event of EVENT_TYPES) {
      const op = doc.webhooks[event].post as Json;
      const headers = (op.parameters as Json[]).filter((p) => p.in === 'header').map((p) => p.name as string);
      expect(headers, event).toEqual(
        expect.arrayContaining([
          'X-Service-Signature',
          'X-Service-Event',
          'X-Service-Delivery',
          'webhook-id',
          'webhook-timestamp',
          'webhook-signature',
        ]),
      );
      expect(op.responses['2XX']).toBeDefined();
    }
  });

  it.each([...EVENT_TYPES])('validates what the generic webhook provider renders for %s, in both formats', (event) => {
    const validate = payloadValidator(event);
    for (const format of ['standard', 'legacy'] as const) {
      const payload = render(event, format);
      expect(validate(payload) ? [] : validate.errors, `${event} ${format}`).toEqual([]);
    }
    // The schema is specific: another event's payload, or a payload missing a field, does not validate.
    const other = event === 'down' ? 'recovered' : 'down';
    expect(validate(render(other, 'standard'))).toBe(false);
    const { message: _message, ...withoutMessage } = render(event, 'standard') as Json;
    expect(validate(withoutMessage)).toBe(false);
  });
});

for (const dialect of testDialects()) {
  describe(`what the API sends matches its description (${dialect})`, () => {
    let t: TestApp;
    let doc: Json;
    beforeAll(async () => {
      t = await createTestApp({ dialect });
      doc = (await t.tocsin.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    });
    afterAll(async () => t.close());

    it('sends the headers it documents', async () => {
      const org = await t.createOrg();
      const auth = { authorization: `Bearer ${org.apiKey}` };
      const read = await t.tocsin.app.inject({ method: 'GET', url: '/api/v1/monitors', headers: auth });
      expect(read.statusCode).toBe(200);
      for (const h of ['x-request-id', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'])
        expect(read.headers[h], h).toBeDefined();
      const create = {
        method: 'POST' as const,
        url: '/api/v1/incidents',
        headers: { ...auth, 'idempotency-key': 'openapi-doc-1' },
        payload: { title: 'Documented replay' },
      };
      const first = await t.tocsin.app.inject(create);
      expect(first.statusCode).toBe(201);
      const again = await t.tocsin.app.inject(create);
      expect(again.statusCode).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
    });

    describe('a generic webhook delivery', () => {
      let receiver: FakeServer;
      let secret = '';
      let received: { headers: Record<string, string>; rawBody: string };
      beforeAll(async () => {
        receiver = await startFakeHttp({}, () => ({ status: 200, body: { ok: true } }));
        const org = await t.createOrg();
        const auth = { authorization: `Bearer ${org.apiKey}` };
        const created = await t.tocsin.app.inject({
          method: 'POST',
          url: '/api/v1/auth/organization/webhooks',
          headers: auth,
          payload: { type: 'generic_webhook', name: 'Docs check', config: { url: `${receiver.url}/hook` } },
        });
        expect(created.statusCode, t.logs.text.slice(-3000)).toBe(201);
        secret = created.json().signing_secret;
        const test = await t.tocsin.app.inject({
          method: 'POST',
          url: `/api/v1/auth/organization/webhooks/${created.json().id}/test`,
          headers: auth,
        });
        expect(test.json().outcome).toBe('delivered');
        const request = receiver.requests.at(-1)!;
        received = { headers: request.headers as Record<string, string>, rawBody: request.rawBody };
      });
      afterAll(async () => receiver.close());

      it('matches the documented payload and header schemas', () => {
        const validate = webhookPayloadValidator(doc, 'test');
        const body: unknown = JSON.parse(received.rawBody);
        expect(validate(body) ? [] : validate.errors).toEqual([]);
        const ajv = new Ajv2020({ strict: false });
        for (const p of doc.webhooks.test.post.parameters as Json[]) {
          const value = received.headers[String(p.name).toLowerCase()];
          expect(value, p.name).toBeDefined();
          expect(ajv.validate(p.schema, value), `${p.name}: ${value}`).toBe(true);
        }
      });

      /** The fenced block of docs/webhooks.md in this language. */
      const docsBlock = (lang: string): string => {
        const markdown = readFileSync(new URL('../../docs/webhooks.md', import.meta.url), 'utf8');
        const block = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(markdown);
        expect(block, `a ${lang} block in docs/webhooks.md`).not.toBeNull();
        return block![1]!;
      };

      it('verifies with the JavaScript example of docs/webhooks.md, which rejects a tampered body or another secret', async () => {
        const file = join(mkdtempSync(join(tmpdir(), 'tocsin-docs-')), 'verify.mjs');
        writeFileSync(file, docsBlock('js'));
        const { verifyTocsinWebhook } = (await import(pathToFileURL(file).href)) as {
          verifyTocsinWebhook: (secret: string, headers: Record<string, string>, body: string) => boolean;
        };
        expect(verifyTocsinWebhook(secret, received.headers, received.rawBody)).toBe(true);
        expect(verifyTocsinWebhook(secret, received.headers, received.rawBody.replace('"test"', '"down"'))).toBe(false);
        expect(
          verifyTocsinWebhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`, received.headers, received.rawBody),
        ).toBe(false);
        // Each signature is checked on its own: a wrong Standard Webhooks signature alone is refused.
        const forged = { ...received.headers, 'webhook-signature': 'v1,' + Buffer.alloc(32).toString('base64') };
        expect(verifyTocsinWebhook(secret, forged, received.rawBody)).toBe(false);
        // A forged header of the right length in characters but not in bytes is refused, not thrown on.
        const wide = { ...received.headers, 'x-service-signature': `sha256=${'é'.repeat(64)}` };
        expect(verifyTocsinWebhook(secret, wide, received.rawBody)).toBe(false);
      });

      it.skipIf(skipWithout('python3'))('verifies with the Python example of docs/webhooks.md', () => {
        const driver = [
          docsBlock('python'),
          'import json, sys',
          'd = json.load(sys.stdin)',
          'ok = verify_tocsin_webhook(d["secret"], d["headers"], d["body"].encode("utf-8"))',
          'tampered = verify_tocsin_webhook(d["secret"], d["headers"], d["body"].replace(\'"test"\', \'"down"\').encode("utf-8"))',
          'print(ok, tampered)',
        ].join('\n');
        const run = spawnSync('python3', ['-c', driver], {
          input: JSON.stringify({ secret, headers: received.headers, body: received.rawBody }),
          encoding: 'utf8',
        });
        expect(run.stderr).toBe('');
        expect(run.stdout.trim()).toBe('True False');
      });
    });
  });
}
