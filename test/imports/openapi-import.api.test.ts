import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../support/databases.ts';
import { bearer, createTestApp, type TestApp, type TestOrg } from '../support/app.ts';
import { OPENAPI_30_YAML, SWAGGER_2_JSON } from './openapi.fixtures.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON read back from responses
type Json = Record<string, any>;

/** POST /monitors/openapi/parse and /import through the real app, on every configured dialect. */
for (const dialect of testDialects()) {
  describe(`${dialect}: OpenAPI imports`, () => {
    let t: TestApp;
    let org: TestOrg;

    beforeAll(async () => {
      t = await createTestApp({
        dialect,
        configFile: {
          regions: ['local', 'eu-west'],
          plans: { enterprise: { interval_floor_seconds: 1 }, team: { monitors: 4, interval_floor_seconds: 30 } },
        },
      });
      org = await t.createOrg();
    });
    afterAll(async () => t.close());

    async function call(url: string, body: unknown, key = org.apiKey, headers: Record<string, string> = {}) {
      const res = await t.tocsin.app.inject({
        method: 'POST',
        url,
        headers: { ...bearer(key), ...headers },
        payload: body as Json,
      });
      return { status: res.statusCode, body: res.json() as Json, headers: res.headers };
    }
    async function monitorCount(key = org.apiKey): Promise<number> {
      const res = await t.tocsin.app.inject({ method: 'GET', url: '/api/v1/monitors?limit=200', headers: bearer(key) });
      return (res.json() as Json).data.length;
    }

    it('parses a YAML description into operations with monitor bodies and warnings', async () => {
      const res = await call('/api/v1/monitors/openapi/parse', { spec: OPENAPI_30_YAML });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const health = res.body.operations.find((o: Json) => o.operation_id === 'health');
      expect(health).toEqual({
        operation_id: 'health',
        method: 'GET',
        path: '/health',
        summary: null,
        monitor: {
          name: 'GET /health',
          type: 'http',
          target: 'https://eu.billing.example.com/api/health',
          config: {
            method: 'GET',
            headers: {},
            body: null,
            follow_redirects: true,
            assertions: [{ type: 'status', equals: 200 }],
          },
        },
        create: true,
        warnings: ['the first of 2 servers was used (https://{region}.billing.example.com/api)'],
      });
    });

    it("gives a valid monitor for every operation of Tocsin's own OpenAPI document", async () => {
      const doc = await t.tocsin.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
      const spec = doc.json() as Json;
      const operationCount = Object.values(spec.paths as Json).reduce(
        (n: number, item) => n + Object.keys(item as Json).filter((k) => k !== 'parameters').length,
        0,
      );
      const parsed = await call('/api/v1/monitors/openapi/parse', { spec, base_url: 'https://tocsin.example.com' });
      expect(parsed.status, JSON.stringify(parsed.body).slice(0, 500)).toBe(200);
      const operations = parsed.body.operations as Json[];
      expect(operations).toHaveLength(operationCount);
      const own = await t.createOrg();
      const imported = await call(
        '/api/v1/monitors/openapi/import',
        {
          operations,
          operation_ids: operations.map((o) => o.operation_id).slice(0, 1000),
          defaults: { paused: true, tags: ['tocsin-api'] },
        },
        own.apiKey,
      );
      expect(imported.status, JSON.stringify(imported.body).slice(0, 2000)).toBe(201);
      expect(imported.body.data).toHaveLength(operationCount);
      expect(new Set(imported.body.data.map((m: Json) => m.config.method))).toEqual(
        new Set(operations.map((o) => o.method)),
      );
    });

    it('imports chosen operations with defaults in one call, and replays under the same Idempotency-Key', async () => {
      const dest = await t.tocsin.app.inject({
        method: 'POST',
        url: '/api/v1/auth/organization/webhooks',
        headers: bearer(org.apiKey),
        payload: {
          type: 'generic_webhook',
          name: 'hook',
          config: { url: 'https://hooks.example.com/x' },
          events: ['down'],
        },
      });
      expect(dest.statusCode, dest.body).toBe(201);
      const destinationId = (dest.json() as Json).id as string;
      const before = await monitorCount();
      const body = {
        spec: SWAGGER_2_JSON,
        operation_ids: ['getPetById', 'findPetsByStatus', 'addPet'],
        defaults: {
          interval_seconds: 120,
          region_codes: ['eu-west'],
          tags: ['petstore'],
          environment: 'staging',
          destination_ids: [destinationId],
        },
      };
      const headers = { 'idempotency-key': 'import-petstore-1' };
      const res = await call('/api/v1/monitors/openapi/import', body, org.apiKey, headers);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.data.map((m: Json) => [m.name, m.target, m.config.method])).toEqual([
        ['GET /pet/{petId}', 'https://petstore.example.com/v2/pet/7', 'GET'],
        ['GET /pet/findByStatus', 'https://petstore.example.com/v2/pet/findByStatus?status=available', 'GET'],
        ['POST /pet', 'https://petstore.example.com/v2/pet', 'POST'],
      ]);
      for (const m of res.body.data) {
        expect(m).toMatchObject({
          interval_seconds: 120,
          region_codes: ['eu-west'],
          tags: ['petstore'],
          environment: 'staging',
        });
        expect(m.config.alert_destination_ids).toEqual([destinationId]);
      }
      expect(await monitorCount()).toBe(before + 3);
      const replay = await call('/api/v1/monitors/openapi/import', body, org.apiKey, headers);
      expect(replay.status).toBe(201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body).toEqual(res.body);
      expect(await monitorCount()).toBe(before + 3);
    });

    it('is all or nothing against the plan limit, and says how many fit', async () => {
      const team = await t.createOrg({ plan: 'team' });
      const first = await call(
        '/api/v1/monitors/openapi/import',
        { spec: SWAGGER_2_JSON, operation_ids: ['getPetById', 'addPet'] },
        team.apiKey,
      );
      expect(first.status, JSON.stringify(first.body)).toBe(201);
      const res = await call(
        '/api/v1/monitors/openapi/import',
        { spec: SWAGGER_2_JSON, operation_ids: ['findPetsByStatus', 'placeOrder', 'deletePet'] },
        team.apiKey,
      );
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('plan_limit_exceeded');
      expect(res.body.error.message).toBe('The team plan allows 4 monitors and 2 exist: 2 of the 3 requested fit.');
      expect(await monitorCount(team.apiKey)).toBe(2);
    });

    it('names every invalid monitor of an edited parse, and creates none', async () => {
      const parsed = await call('/api/v1/monitors/openapi/parse', { spec: SWAGGER_2_JSON });
      const operations = parsed.body.operations as Json[];
      operations[0]!.monitor.target = 'ftp://nope';
      operations[2]!.monitor.config.headers = { 'bad header': 'x' };
      operations[3]!.monitor.interval_seconds = 'soon';
      const before = await monitorCount();
      const res = await call('/api/v1/monitors/openapi/import', {
        operations,
        operation_ids: ['getPetById', 'addPet', 'findPetsByStatus', 'placeOrder'],
      });
      expect(res.status).toBe(422);
      const fields = (res.body.error.details as Json[]).map((d) => d.field);
      expect(fields).toContain('operations[0].monitor.target');
      expect(fields.some((f) => f.startsWith('operations[2].monitor.config.headers'))).toBe(true);
      expect(fields).toContain('operations[3].monitor.interval_seconds');
      expect(fields.some((f) => f.startsWith('operations[4]'))).toBe(false);
      expect(await monitorCount()).toBe(before);
    });

    it('refuses unknown or repeated operation ids, both or neither of spec and operations, and bad defaults', async () => {
      const before = await monitorCount();
      const unknown = await call('/api/v1/monitors/openapi/import', {
        spec: SWAGGER_2_JSON,
        operation_ids: ['getPetById', 'nope', 'getPetById'],
      });
      expect(unknown.status).toBe(422);
      expect(unknown.body.error.details).toEqual([
        { field: 'operation_ids[1]', issue: '"nope" is not an operation of the description' },
        { field: 'operation_ids[2]', issue: '"getPetById" is chosen twice' },
      ]);
      const neither = await call('/api/v1/monitors/openapi/import', { operation_ids: ['x'] });
      expect(neither.status).toBe(422);
      expect(neither.body.error.details[0].field).toBe('spec');
      const badDefaults = await call('/api/v1/monitors/openapi/import', {
        spec: SWAGGER_2_JSON,
        operation_ids: ['getPetById'],
        defaults: { interval_seconds: 0, colour: 'red' },
      });
      expect(badDefaults.status).toBe(422);
      const fields = (badDefaults.body.error.details as Json[]).map((d) => d.field);
      expect(fields).toEqual(expect.arrayContaining(['defaults.interval_seconds', 'defaults.colour']));
      expect(await monitorCount()).toBe(before);
    });

    it('answers a hostile or wrong document with a 4xx envelope', async () => {
      const notSpec = await call('/api/v1/monitors/openapi/parse', { spec: { hello: 'world' } });
      expect(notSpec.status).toBe(422);
      expect(notSpec.body.error.details[0].field).toBe('spec');
      expect(notSpec.headers['x-request-id']).toBeTruthy();
      const huge = await call('/api/v1/monitors/openapi/parse', {
        spec: `openapi: 3.0.0\n# ${'x'.repeat(16 * 1024 * 1024)}`,
      });
      expect(huge.status).toBe(413);
      expect(huge.body.error.code).toBe('payload_too_large');
      const scope = await t.createOrg({ scopes: ['monitors:read'] });
      const forbidden = await call('/api/v1/monitors/openapi/parse', { spec: SWAGGER_2_JSON }, scope.apiKey);
      expect(forbidden.status).toBe(403);
    });
  });
}
