import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp, type TestOrg } from '../support/app.ts';
import { startGrpcTestServer, type GrpcTestServer } from '../support/grpc/grpc.test-server.ts';
import { startStallMeter } from '../support/stall-meter.ts';
import { generateCertificate } from '../support/targets/certificates.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON read back from responses
type Json = Record<string, any>;

const GET_ITEM_TEMPLATE = {
  id: '',
  filter: { colour: 'COLOUR_UNSPECIFIED', in_stock: false, min_price: 0, token: '' },
  fields: [''],
  weights: { key: 0 },
  sku: '',
  as_of: '1970-01-01T00:00:00Z',
  max_age: '0s',
  region: '',
  extra: {},
  tree: { label: '', children: [{}] },
};

/** POST /monitors/grpc/discover against real gRPC servers on loopback (discovery touches no database). */
describe('gRPC discovery', () => {
  let t: TestApp;
  let org: TestOrg;
  let v1: GrpcTestServer;
  let v1alpha: GrpcTestServer;
  let none: GrpcTestServer;
  let tls: GrpcTestServer;
  let silent: Server;
  let silentPort = 0;

  beforeAll(async () => {
    t = await createTestApp();
    org = await t.createOrg();
    const pem = await generateCertificate({ commonName: 'grpc.test', altNames: ['127.0.0.1', 'localhost'] });
    [v1, v1alpha, none, tls] = await Promise.all([
      startGrpcTestServer({ reflection: ['v1'] }),
      startGrpcTestServer({ reflection: ['v1alpha'] }),
      startGrpcTestServer({ reflection: [] }),
      startGrpcTestServer({ reflection: ['v1', 'v1alpha'], tls: pem }),
    ]);
    // Accepts connections and never answers: a server that hangs.
    silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentPort = (silent.address() as { port: number }).port;
  });
  afterAll(async () => {
    await Promise.all([v1, v1alpha, none, tls].map((s) => s.close()));
    silent.close();
    await t.close();
  });

  async function discover(body: unknown, app = t) {
    const res = await app.tocsin.app.inject({
      method: 'POST',
      url: '/api/v1/monitors/grpc/discover',
      headers: bearer(app === t ? org.apiKey : ''),
      payload: body as Json,
    });
    return { status: res.statusCode, body: res.json() as Json };
  }

  it('lists services and methods with streaming flags and request templates (reflection v1)', async () => {
    const res = await discover({ target: `127.0.0.1:${v1.port}`, tls: false });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.services.map((s: Json) => s.name)).toEqual(['grpc.health.v1.Health', 'tocsin.test.v1.Inventory']);
    const inventory = res.body.services[1];
    expect(inventory.methods.map((m: Json) => [m.name, m.client_streaming, m.server_streaming])).toEqual([
      ['GetItem', false, false],
      ['WatchItems', false, true],
      ['UploadItems', true, false],
    ]);
    const getItem = inventory.methods[0];
    expect(getItem.input_type).toBe('tocsin.test.v1.GetItemRequest');
    expect(getItem.output_type).toBe('tocsin.test.v1.Item');
    expect(getItem.request_template).toEqual(GET_ITEM_TEMPLATE);
    expect(res.body.services[0].methods[0]).toMatchObject({ name: 'Check', request_template: { service: '' } });
  });

  it('falls back to reflection v1alpha', async () => {
    const res = await discover({ target: `localhost:${v1alpha.port}`, tls: false });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.services.map((s: Json) => s.name)).toEqual(['grpc.health.v1.Health', 'tocsin.test.v1.Inventory']);
  });

  it('talks TLS, refusing a self-signed certificate unless told to skip verification', async () => {
    const strict = await discover({ target: `127.0.0.1:${tls.port}`, tls: true, timeout_ms: 3000 });
    expect(strict.status).toBe(422);
    expect(strict.body.error.code).toBe('target_unreachable');
    const skip = await discover({ target: `127.0.0.1:${tls.port}`, tls: true, tls_skip_verify: true });
    expect(skip.status, JSON.stringify(skip.body)).toBe(200);
    expect(skip.body.services).toHaveLength(2);
  });

  it('answers reflection_unavailable, target_unreachable, a timeout and a bad target with 422', async () => {
    const noReflection = await discover({ target: `127.0.0.1:${none.port}`, tls: false });
    expect(noReflection.status).toBe(422);
    expect(noReflection.body.error.code).toBe('reflection_unavailable');
    const closed = await discover({ target: '127.0.0.1:1', tls: false, timeout_ms: 3000 });
    expect(closed.status).toBe(422);
    expect(closed.body.error.code).toBe('target_unreachable');
    const started = Date.now();
    const meter = startStallMeter();
    const hanging = await discover({ target: `127.0.0.1:${silentPort}`, tls: false, timeout_ms: 500 });
    meter.stop();
    expect(hanging.body.error.code).toBe('target_unreachable');
    expect(hanging.body.error.message).toMatch(/500 ms|unreachable|reached/);
    // The 500 ms time-out was kept (not a hang), plus the time this process could not run (a loaded machine).
    expect(Date.now() - started).toBeLessThan(5000 + meter.stalledMs());
    for (const target of ['https://grpc.example.com', 'no-port', 'host:99999', '']) {
      const bad = await discover({ target, tls: false });
      expect(bad.status, target).toBe(422);
      expect(bad.body.error.details[0].field).toBe('target');
    }
  });

  it('says in product words when the port answers HTTP/1.1, not gRPC (no library text)', async () => {
    const web = createHttpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<p>a web page</p>');
    });
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    const port = (web.address() as { port: number }).port;
    try {
      const res = await discover({ target: `127.0.0.1:${port}`, tls: false, timeout_ms: 3000 });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('target_unreachable');
      expect(res.body.error.message).toBe(
        `The server at 127.0.0.1:${port} did not answer as a gRPC server (it speaks HTTP/1.1 or another protocol, e.g. a web server); check the port and the tls setting.`,
      );
    } finally {
      web.closeAllConnections();
      web.close();
    }
  });

  it('refuses loopback targets when network.allow_private_targets is false', async () => {
    const strict = await createTestApp({ configFile: { network: { allow_private_targets: false } } });
    try {
      const strictOrg = await strict.createOrg();
      const res = await strict.tocsin.app.inject({
        method: 'POST',
        url: '/api/v1/monitors/grpc/discover',
        headers: bearer(strictOrg.apiKey),
        payload: { target: `127.0.0.1:${v1.port}`, tls: false },
      });
      expect(res.statusCode).toBe(422);
      expect((res.json() as Json).error.details[0]).toMatchObject({ field: 'target' });
      expect(v1.calls).toHaveLength(0);
    } finally {
      await strict.close();
    }
  });
});
