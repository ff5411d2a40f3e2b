import { createServer, type Server } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { parseOpenApi, type ParsedOperation } from '../../src/modules/imports/index.ts';
import { DomainError } from '../../src/platform/errors.ts';
import {
  ALIAS_BOMB,
  largeDescription,
  OPENAPI_30_YAML,
  OPENAPI_31_OBJECT,
  SWAGGER_2_JSON,
} from './openapi.fixtures.ts';

const byId = (ops: ParsedOperation[], id: string) => {
  const op = ops.find((o) => o.operation_id === id);
  if (!op) throw new Error(`no operation ${id} in ${ops.map((o) => o.operation_id).join(', ')}`);
  return op;
};

async function refusal(spec: unknown): Promise<DomainError> {
  try {
    await parseOpenApi(spec);
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('the description was accepted');
}

describe('OpenAPI parse: Swagger 2.0 (JSON text)', () => {
  let ops: ParsedOperation[];
  beforeAll(async () => {
    ops = await parseOpenApi(SWAGGER_2_JSON);
  });

  it('lists every operation with scheme, host and basePath (https preferred), path parameters from defaults', () => {
    expect(ops.map((o) => `${o.method} ${o.path}`)).toEqual([
      'GET /pet/{petId}',
      'DELETE /pet/{petId}',
      'POST /pet',
      'GET /pet/findByStatus',
      'POST /store/order',
    ]);
    const get = byId(ops, 'getPetById');
    expect(get.monitor).toEqual({
      name: 'GET /pet/{petId}',
      type: 'http',
      target: 'https://petstore.example.com/v2/pet/7',
      config: {
        method: 'GET',
        headers: {},
        body: null,
        follow_redirects: true,
        assertions: [{ type: 'status', equals: 200 }],
      },
    });
    expect(get.create).toBe(true);
    expect(get.warnings).toEqual([]);
    expect(get.summary).toBe('Find pet by ID');
  });

  it('puts an apiKey header placeholder, warns, and does not select unsafe methods', () => {
    const del = byId(ops, 'deletePet');
    expect(del.monitor.config.headers).toEqual({ api_key: '<api_key>' });
    expect(del.monitor.target).toBe('https://petstore.example.com/v2/pet/1');
    expect(del.warnings.join('\n')).toMatch(/path parameter "petId" was given a made-up value/);
    expect(del.warnings.join('\n')).toMatch(/placeholder for the "api_key" credential/);
    expect(del.create).toBe(false);
  });

  it('builds a JSON body from the body parameter schema (readOnly left out, cycles stopped)', () => {
    const add = byId(ops, 'addPet');
    expect(JSON.parse(add.monitor.config.body!)).toEqual({
      name: 'doggie',
      category: { id: 1, parent: null },
      status: 'available',
    });
    expect(add.monitor.config.headers['Content-Type']).toBe('application/json');
    expect(add.monitor.config.assertions).toEqual([{ type: 'status', equals: 201 }]);
  });

  it('fills required query arrays from enums and sends form bodies urlencoded', () => {
    expect(byId(ops, 'findPetsByStatus').monitor.target).toBe(
      'https://petstore.example.com/v2/pet/findByStatus?status=available',
    );
    const order = byId(ops, 'placeOrder').monitor.config;
    expect(order.body).toBe('petId=3&note=soon');
    expect(order.headers['Content-Type']).toBe('application/x-www-form-urlencoded');
  });
});

describe('OpenAPI parse: 3.0 (YAML text)', () => {
  let ops: ParsedOperation[];
  beforeAll(async () => {
    ops = await parseOpenApi(OPENAPI_30_YAML);
  });

  it('uses the first server with its variables at their defaults and says so', () => {
    const health = byId(ops, 'health');
    expect(health.monitor.target).toBe('https://eu.billing.example.com/api/health');
    expect(health.warnings).toEqual(['the first of 2 servers was used (https://{region}.billing.example.com/api)']);
    expect(health.create).toBe(true);
  });

  it('resolves $ref parameters, adds required headers from enums and bearer placeholders', () => {
    const get = byId(ops, 'getInvoice');
    expect(get.monitor.target).toBe('https://eu.billing.example.com/api/invoices/8c0b3f3e-2b5a-4c55-9a3a-0f0f0f0f0f0f');
    expect(get.monitor.config.headers).toEqual({ Authorization: 'Bearer <token>', 'X-Tenant': 'acme' });
    expect(get.monitor.config.assertions).toEqual([{ type: 'status', in: [200, 304] }]);
    expect(get.create).toBe(false);
  });

  it('builds a body through a cyclic schema, lists the external $ref without fetching it', () => {
    const put = byId(ops, 'putInvoice');
    expect(JSON.parse(put.monitor.config.body!)).toEqual({
      amount: 0,
      currency: 'EUR',
      customer: null,
      tree: { name: 'example', children: [null] },
    });
    expect(put.monitor.config.headers.Authorization).toBe('Bearer <access token>');
    expect(put.warnings).toContain(
      'the body schema uses https://schemas.example.com/customer.yaml#/Customer, which was not followed',
    );
  });

  it('takes a named example for the body', () => {
    expect(byId(ops, 'createInvoice').monitor.config.body).toBe('{"amount":10,"currency":"USD"}');
  });

  it('keeps a redirect-only operation on its redirect; a range alone gives no status assertion', () => {
    const legacy = byId(ops, 'legacy');
    expect(legacy.monitor.config.follow_redirects).toBe(false);
    expect(legacy.monitor.config.assertions).toEqual([{ type: 'status', equals: 301 }]);
    const reports = byId(ops, 'get /reports/{year}');
    expect(reports.monitor.config.assertions).toEqual([]);
    expect(reports.monitor.target).toBe('https://eu.billing.example.com/api/reports/1');
    expect(reports.warnings).toContain('no 2xx or 3xx response is documented: the monitor is up on any 2xx or 3xx');
  });

  it('warns for an external parameter and a dangling internal reference', () => {
    const external = byId(ops, 'external');
    expect(external.warnings).toContain(
      'the parameter parameters.yaml#/Limit refers to another document, which is never fetched',
    );
    expect(external.warnings).toContain(
      'the response 200 #/components/responses/Missing points at nothing in this document',
    );
    expect(external.monitor.config.assertions).toEqual([{ type: 'status', equals: 200 }]);
  });
});

describe('OpenAPI parse: 3.1 (object)', () => {
  it('reads 3.1 examples arrays and const, skips TRACE, refuses multipart bodies, needs base_url for relative servers', async () => {
    const ops = await parseOpenApi(OPENAPI_31_OBJECT);
    expect(ops.map((o) => o.operation_id)).toEqual(['getItem', 'headItem', 'upload']);
    const item = byId(ops, 'getItem');
    expect(item.monitor.target).toBe('http://localhost/items/it-1');
    expect(item.create).toBe(false);
    expect(item.warnings).toContain('the server URL "/relative/base" is not absolute: pass base_url');
    expect(byId(ops, 'headItem').monitor.target).toBe('http://localhost/items/it-2');
    expect(byId(ops, 'upload').warnings).toContain('the request body is multipart, which monitors do not send');
  });

  it('base_url replaces the servers', async () => {
    const ops = await parseOpenApi(OPENAPI_31_OBJECT, 'https://api.example.org/v3/');
    const item = byId(ops, 'getItem');
    expect(item.monitor.target).toBe('https://api.example.org/v3/items/it-1');
    expect(item.create).toBe(true);
    expect(item.warnings).toEqual([]);
  });

  it('names operations without an id by method and path, and makes repeated ids unique', async () => {
    const spec = {
      openapi: '3.0.0',
      info: { title: 't', version: '1' },
      servers: [{ url: 'https://x.example.com' }],
      paths: {
        '/a': { get: { operationId: 'same', responses: {} } },
        '/b': { get: { operationId: 'same', responses: {} } },
        '/c': { get: { responses: {} } },
      },
    };
    const ops = await parseOpenApi(spec);
    expect(ops.map((o) => o.operation_id)).toEqual(['same', 'same_2', 'get /c']);
    expect(ops[1]!.warnings).toContain('the operationId "same" is used more than once: this one is "same_2"');
  });
});

describe('OpenAPI parse: order and limits', () => {
  const unordered = (format: 'object' | 'yaml'): unknown => {
    const spec = {
      openapi: '3.0.0',
      info: { title: 't', version: '1' },
      servers: [{ url: 'https://x.example.com' }],
      paths: {
        '/z': {
          post: { operationId: 'create', responses: { '201': { description: 'ok' } } },
          get: { operationId: 'list', responses: { '200': { description: 'ok' } } },
          parameters: [],
          delete: { operationId: 'clear', responses: { '204': { description: 'ok' } } },
          options: { operationId: 'options', responses: { '200': { description: 'ok' } } },
          head: { operationId: 'probe', responses: { '200': { description: 'ok' } } },
        },
        '/a': { patch: { operationId: 'patch', responses: {} }, get: { operationId: 'read', responses: {} } },
      },
    };
    return format === 'object' ? spec : stringify(spec);
  };

  it("keeps the document's order of paths, and of operations within a path", async () => {
    for (const format of ['object', 'yaml'] as const) {
      const ops = await parseOpenApi(unordered(format));
      expect(ops.map((o) => `${o.method} ${o.path}`)).toEqual([
        'POST /z',
        'GET /z',
        'DELETE /z',
        'OPTIONS /z',
        'HEAD /z',
        'PATCH /a',
        'GET /a',
      ]);
    }
  });

  it('refuses more operations than the limit before following references, and reads exactly the limit', async () => {
    const spec = largeDescription(50);
    await expect(parseOpenApi(structuredClone(spec), undefined, { maxOperations: 50 })).resolves.toHaveLength(50);
    const refused = await parseOpenApi(structuredClone(spec), undefined, { maxOperations: 49 }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(DomainError);
    expect((refused as DomainError).code).toBe('validation_failed');
    expect((refused as DomainError).details).toEqual([
      { field: 'spec', issue: 'has 50 operations; at most 49 are read (imports.openapi_max_operations)' },
    ]);
  });
});

describe('OpenAPI parse: nothing is ever fetched', () => {
  let server: Server;
  let requests = 0;
  let port = 0;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      requests++;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ type: 'string' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('neither a URL nor a local file named by $ref is read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tocsin-openapi-'));
    const file = join(dir, 'secret.json');
    writeFileSync(
      file,
      JSON.stringify({ type: 'object', properties: { secret: { type: 'string', example: 'LEAK' } } }),
    );
    const spec = {
      openapi: '3.0.0',
      info: { title: 't', version: '1' },
      servers: [{ url: 'https://x.example.com' }],
      paths: {
        '/a': {
          post: {
            operationId: 'a',
            requestBody: {
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: {
                      remote: { $ref: `http://127.0.0.1:${port}/schema.json` },
                      local: { $ref: file },
                      relative: { $ref: './secret.json' },
                    },
                  },
                },
              },
            },
            responses: { '200': { description: 'ok' } },
          },
        },
      },
    };
    const [op] = await parseOpenApi(spec);
    expect(requests).toBe(0);
    expect(op!.monitor.config.body).not.toContain('LEAK');
    expect(op!.warnings.filter((w) => w.includes('was not followed'))).toHaveLength(3);
  });
});

describe('OpenAPI parse: hostile and wrong documents', () => {
  it('refuses an alias bomb promptly', async () => {
    const started = performance.now();
    const error = await refusal(ALIAS_BOMB);
    // An expanded bomb never ends; 5 s leaves room for a loaded machine (the bench holds the 100 ms figure).
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(error.code).toBe('validation_failed');
    expect(error.details).toEqual([{ field: 'spec', issue: expect.stringMatching(/alias/) }]);
  });

  it('refuses documents nested too deeply, as text and as an object', async () => {
    const depth = 5000;
    expect((await refusal(`${'['.repeat(depth)}${']'.repeat(depth)}`)).details![0]!.field).toBe('spec');
    let deep: Record<string, unknown> = {};
    const root = { openapi: '3.0.0', paths: { '/a': deep } };
    for (let i = 0; i < 300; i++) deep = deep.x = {} as Record<string, unknown>;
    expect((await refusal(root)).details![0]!.issue).toMatch(/nested deeper than/);
    expect(
      (
        await refusal(
          `${'a:\n  '.repeat(0)}${Array.from({ length: 400 }, (_, i) => `${' '.repeat(i)}k:`).join('\n')} 1`,
        )
      ).code,
    ).toBe('validation_failed');
  });

  it('refuses text over 10 MiB with 413', async () => {
    const error = await refusal(`openapi: 3.0.0\n# ${'x'.repeat(10 * 1024 * 1024)}`);
    expect(error.code).toBe('payload_too_large');
  });

  it('refuses duplicate keys in JSON and in YAML', async () => {
    const json = await refusal('{"openapi": "3.0.0", "paths": {"/a": {}, "/a": {"get": {}}}}');
    expect(json.details).toEqual([{ field: 'spec', issue: 'has the key "/a" twice in $.paths' }]);
    const yaml = await refusal('openapi: 3.0.0\npaths:\n  /a: {}\n  /a: {}\n');
    expect(yaml.details![0]!.issue).toMatch(/duplicate key/i);
  });

  it('refuses what is not a description: other JSON, other YAML, other versions, broken text', async () => {
    for (const spec of [
      { hello: 'world' },
      'just: yaml',
      '{"swagger": "1.2", "paths": {}}',
      { openapi: '4.0.0', paths: {} },
      { openapi: '3.0.1' },
      '{"openapi": ',
      '- a\n- b',
      '',
    ]) {
      const error = await refusal(spec);
      expect(error.code, JSON.stringify(spec)).toBe('validation_failed');
      expect(error.details![0]!.field).toBe('spec');
    }
  });

  it('reads a cyclic description (a schema that contains itself through several steps)', async () => {
    const spec = largeDescription(50);
    const ops = await parseOpenApi(spec);
    expect(ops).toHaveLength(50);
    const create = byId(ops, 'create0');
    expect(JSON.parse(create.monitor.config.body!)).toMatchObject({ title: 'title 0', owner: { manager: null } });
  });
});
