import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProbeRegistry, type ProbeContext, type ProbeTarget } from '../../src/modules/checks/probes/index.ts';
import { bearer, createTestApp, ManualClock, type TestApp } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { startGrpcTestServer, type GrpcTestServer } from '../support/grpc/grpc.test-server.ts';
import { generateTestCa, generateCertificate } from '../support/targets/certificates.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON read back from responses
type Json = Record<string, any>;

const registry = createProbeRegistry();
const ctx: ProbeContext = { now: () => Date.now(), allowPrivateTargets: true };
const grpc = (port: number, config: Record<string, unknown>): ProbeTarget => ({
  id: 'mon_grpc_method',
  type: 'grpc',
  target: `127.0.0.1:${port}`,
  interval_seconds: 60,
  config: { tls: false, service: '', timeout_ms: 3000, ...config },
});
const getItem = { method: 'tocsin.test.v1.Inventory/GetItem', expected_status: 'OK' };

describe('grpc method monitors: the probe', () => {
  let server: GrpcTestServer;
  let bare: GrpcTestServer;
  let tls: GrpcTestServer;
  let ca: string;
  beforeAll(async () => {
    const authority = await generateTestCa();
    ca = authority.cert;
    const pem = await generateCertificate({ commonName: '127.0.0.1', altNames: ['127.0.0.1'], ca: authority });
    [server, bare, tls] = await Promise.all([
      startGrpcTestServer({ reflection: ['v1'] }),
      startGrpcTestServer({ reflection: [] }),
      startGrpcTestServer({ reflection: ['v1alpha'], tls: pem }),
    ]);
  });
  afterAll(async () => Promise.all([server, bare, tls].map((s) => s.close())));

  it('calls the method with the request and metadata, and is up when the assertions pass', async () => {
    const obs = await registry.run(
      grpc(server.port, {
        ...getItem,
        request: {
          id: 'sku-1',
          filter: { colour: 'RED', in_stock: true },
          weights: { a: 2 },
          as_of: '2026-01-01T00:00:00Z',
        },
        metadata: { 'x-tenant': 'acme' },
        assertions: [
          { type: 'json', path: '$.name', equals: 'Widget' },
          { type: 'json', path: '$.price.cents', equals: 1999 },
          { type: 'json', path: '$.tags', contains: 'b' },
          { type: 'response_time', less_than: 3000 },
        ],
      }),
      ctx,
    );
    expect(obs.error).toBeNull();
    expect(obs.status).toBe('up');
    expect(obs.details).toEqual({ grpc_status: 'OK', method: 'tocsin.test.v1.Inventory/GetItem' });
    expect(obs.assertions.map((a) => a.passed)).toEqual([true, true, true, true]);
    const received = server.calls.at(-1)!;
    expect(received.request).toMatchObject({
      id: 'sku-1',
      filter: { colour: 'RED', in_stock: true },
      weights: { a: 2 },
    });
    expect(received.metadata['x-tenant']).toBe('acme');
    // JSON forms reach the server as their messages: a map, a timestamp.
    expect(received.request.as_of).toEqual({ seconds: '1767225600', nanos: 0 });
  });

  it('is down with the failing assertion and its actual value', async () => {
    const obs = await registry.run(
      grpc(server.port, {
        ...getItem,
        request: { id: 'x' },
        assertions: [{ type: 'json', path: '$.colour', equals: 'RED' }],
      }),
      ctx,
    );
    expect(obs.status).toBe('down');
    expect(obs.error).toEqual({ code: 'assertion_failed', message: '1 of 1 assertions failed' });
    expect(obs.assertions[0]).toMatchObject({ passed: false, actual: 'GREEN' });
  });

  it('judges the status code: NOT_FOUND is down when OK is expected, up when NOT_FOUND is expected', async () => {
    const down = await registry.run(grpc(server.port, { ...getItem, request: { id: 'missing' } }), ctx);
    expect(down.status).toBe('down');
    expect(down.error).toEqual({
      code: 'grpc_error',
      message: 'status NOT_FOUND: refused by the test server, expected OK',
    });
    const up = await registry.run(
      grpc(server.port, { ...getItem, expected_status: 'NOT_FOUND', request: { id: 'missing' } }),
      ctx,
    );
    expect(up.status).toBe('up');
    expect(up.details).toMatchObject({ grpc_status: 'NOT_FOUND' });
  });

  it('says why when the method is unknown, streaming, or the server has no reflection', async () => {
    const unknown = await registry.run(grpc(server.port, { ...getItem, method: 'tocsin.test.v1.Inventory/Nope' }), ctx);
    expect(unknown.error).toEqual({
      code: 'grpc_error',
      message: 'the server has no method tocsin.test.v1.Inventory/Nope',
    });
    const streaming = await registry.run(
      grpc(server.port, { ...getItem, method: 'tocsin.test.v1.Inventory/WatchItems' }),
      ctx,
    );
    expect(streaming.error?.message).toBe(
      'tocsin.test.v1.Inventory/WatchItems is a streaming method; only unary methods can be monitored',
    );
    const noReflection = await registry.run(grpc(bare.port, getItem), ctx);
    expect(noReflection.status).toBe('down');
    expect(noReflection.error?.message).toMatch(
      /^the method's descriptors could not be read by reflection: the server does not implement gRPC reflection/,
    );
  });

  it('calls over TLS with a private CA (reflection v1alpha)', async () => {
    const obs = await registry.run(
      grpc(tls.port, {
        ...getItem,
        tls: true,
        request: { id: 'secure' },
        assertions: [{ type: 'json', path: '$.id', equals: 'secure' }],
      }),
      { ...ctx, tlsCa: ca },
    );
    expect(obs.error).toBeNull();
    expect(obs.status).toBe('up');
  });

  it('keeps the health check as the default, with metadata', async () => {
    const obs = await registry.run(grpc(server.port, { metadata: { 'x-tenant': 'acme' } }), ctx);
    expect(obs).toMatchObject({ status: 'up', details: { serving_status: 'SERVING' } });
    server.setServing('NOT_SERVING');
    expect((await registry.run(grpc(server.port, {}), ctx)).status).toBe('down');
    server.setServing('SERVING');
  });
});

for (const dialect of testDialects()) {
  describe(`${dialect}: grpc method monitors through the API and the engine`, () => {
    let t: TestApp;
    let server: GrpcTestServer;
    let clock: ManualClock;
    let answer: { code?: number } = {};
    beforeAll(async () => {
      clock = new ManualClock(Date.parse('2026-03-01T10:00:00.000Z'));
      t = await createTestApp({ dialect, clock });
      server = await startGrpcTestServer({
        reflection: ['v1'],
        getItem: (request) =>
          answer.code !== undefined ? { code: answer.code } : { item: { id: request.id, name: 'Widget', stock: '3' } },
      });
    });
    afterAll(async () => {
      await server.close();
      await t.close();
    });

    it('discover → create from the template → up; a status change turns it down', async () => {
      const org = await t.createOrg();
      const call = async (method: 'GET' | 'POST', url: string, payload?: Json) => {
        const res = await t.tocsin.app.inject({
          method,
          url,
          headers: bearer(org.apiKey),
          ...(payload && { payload }),
        });
        return { status: res.statusCode, body: res.json() as Json };
      };
      const discovered = await call('POST', '/api/v1/monitors/grpc/discover', {
        target: `127.0.0.1:${server.port}`,
        tls: false,
      });
      const method = (discovered.body.services as Json[])
        .find((s) => s.name === 'tocsin.test.v1.Inventory')!
        .methods.find((m: Json) => m.name === 'GetItem');
      const request = { ...method.request_template, id: 'from-template' };
      const created = await call('POST', '/api/v1/monitors', {
        type: 'grpc',
        name: 'Inventory GetItem',
        target: `127.0.0.1:${server.port}`,
        interval_seconds: 30,
        config: {
          method: 'tocsin.test.v1.Inventory/GetItem',
          request,
          metadata: { 'x-team': 'core' },
          assertions: [{ type: 'json', path: '$.name', equals: 'Widget' }],
          failure_threshold: 1,
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body.config).toMatchObject({
        tls: false,
        service: '',
        method: 'tocsin.test.v1.Inventory/GetItem',
        request,
        metadata: { 'x-team': 'core' },
        expected_status: 'OK',
      });
      const id = created.body.id as string;
      const round = async () => {
        clock.advance(30_000);
        await t.tocsin.services.checks.localRunner.runOnce();
      };
      await round();
      expect((await call('GET', `/api/v1/monitors/${id}`)).body.status).toBe('up');
      expect(server.calls.at(-1)!.request).toMatchObject({ id: 'from-template' });
      const executions = await call('GET', `/api/v1/monitors/${id}/executions`);
      expect(executions.body.data[0].assertions ?? executions.body.data[0].assertion_results).toBeDefined();
      // docs/monitors.md: executions record details.grpc_status and details.method.
      const methodName = 'tocsin.test.v1.Inventory/GetItem';
      expect(executions.body.data[0].details).toEqual({ grpc_status: 'OK', method: methodName });
      answer = { code: status.UNAVAILABLE };
      await round();
      expect((await call('GET', `/api/v1/monitors/${id}`)).body.status).toBe('down');
      const down = (await call('GET', `/api/v1/monitors/${id}/executions`)).body.data[0] as Json;
      expect(down.details).toEqual({ grpc_status: 'UNAVAILABLE', method: methodName });
      const one = await call('GET', `/api/v1/executions/${down.id as string}`);
      expect(one.body.details).toEqual({ grpc_status: 'UNAVAILABLE', method: methodName });
      answer = {};
    });

    it('refuses what a method monitor cannot take, naming each field, and creates nothing', async () => {
      const org = await t.createOrg();
      const res = await t.tocsin.app.inject({
        method: 'POST',
        url: '/api/v1/monitors',
        headers: bearer(org.apiKey),
        payload: {
          type: 'grpc',
          target: '127.0.0.1:50051',
          config: {
            request: { id: 'x' },
            expected_status: 'NOPE',
            metadata: { 'X-Upper': 'a', 'grpc-timeout': '1S' },
            assertions: [{ type: 'status', equals: 200 }],
          },
        },
      });
      expect(res.statusCode).toBe(422);
      const fields = ((res.json() as Json).error.details as Json[]).map((d) => d.field);
      expect(fields).toEqual(
        expect.arrayContaining(['config.expected_status', 'config.metadata.X-Upper', 'config.metadata.grpc-timeout']),
      );
      const second = await t.tocsin.app.inject({
        method: 'POST',
        url: '/api/v1/monitors',
        headers: bearer(org.apiKey),
        payload: {
          type: 'grpc',
          target: '127.0.0.1:50051',
          config: { request: { id: 'x' }, assertions: [{ type: 'status', equals: 200 }], method: 'no slash' },
        },
      });
      expect(second.statusCode).toBe(422);
      expect(((second.json() as Json).error.details as Json[]).map((d) => d.field)).toEqual(
        expect.arrayContaining(['config.method']),
      );
      const third = await t.tocsin.app.inject({
        method: 'POST',
        url: '/api/v1/monitors',
        headers: bearer(org.apiKey),
        payload: {
          type: 'grpc',
          target: '127.0.0.1:50051',
          config: { request: { id: 'x' }, assertions: [{ type: 'status', equals: 200 }] },
        },
      });
      expect((third.json() as Json).error.details as Json[]).toEqual(
        expect.arrayContaining([
          { field: 'config.request', issue: 'needs config.method' },
          { field: 'config.assertions', issue: 'needs config.method' },
          { field: 'config.assertions[0].type', issue: 'must be json or response_time for a gRPC method' },
        ]),
      );
      const list = await t.tocsin.app.inject({ method: 'GET', url: '/api/v1/monitors', headers: bearer(org.apiKey) });
      expect((list.json() as Json).data).toEqual([]);
    });
  });
}
