import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON read back from responses
type Json = Record<string, any>;

async function send(t: TestApp, key: string, method: 'GET' | 'POST' | 'PATCH', url: string, body?: Json) {
  const res = await t.tocsin.app.inject({
    method,
    url,
    headers: { ...bearer(key), ...(body && { 'content-type': 'application/json' }) },
    ...(body && { payload: JSON.stringify(body) }),
  });
  return { status: res.statusCode, body: res.json<Json>() };
}

/** Targets that are, or resolve to, private and special-purpose addresses (literal forms included). */
const REFUSED: Array<[string, string, Json?]> = [
  ['http', 'http://127.0.0.1/'],
  ['http', 'http://localhost:8080/health'],
  ['http', 'http://2130706433/'],
  ['http', 'http://0x7f.1/'],
  ['http', 'http://0177.0.0.1/'],
  ['http', 'http://[::7f00:1]/'],
  ['http', 'http://[::ffff:127.0.0.1]/'],
  ['http', 'http://[2002:a00:1::]/'],
  ['http', 'http://[64:ff9b::a9fe:a9fe]/'],
  ['http', 'http://[2001::1]/'],
  ['http', 'http://169.254.169.254/latest/meta-data/'],
  ['http', 'https://[fd00::1]/'],
  ['tls', 'https://127.1/'],
  ['tls', '[::1]:443'],
  ['tcp', '10.0.0.1:5432'],
  ['tcp', '0177.0.0.1:22'],
  ['tcp', '[::ffff:0:a00:1]:22'],
  ['grpc', '192.168.1.1:50051'],
  ['grpc', '100.64.0.1:443'],
  ['smtp', '127.0.0.1'],
  ['smtp', '[fd00::25]:587'],
  ['websocket', 'ws://10.1.2.3/socket'],
  ['websocket', 'wss://localhost:8443/'],
];

for (const dialect of testDialects()) {
  describe(`monitor targets with network.allow_private_targets=false (${dialect})`, () => {
    let strict: TestApp;
    let org: TestOrg;

    beforeAll(async () => {
      strict = await createTestApp({ dialect, configFile: { network: { allow_private_targets: false } } });
      org = await strict.createOrg();
    });
    afterAll(() => strict.close());

    it.each(REFUSED)('creating a %s monitor for %s is 422 on target, and nothing is stored', async (type, target) => {
      const res = await send(strict, org.apiKey, 'POST', '/api/v1/monitors', { type, target });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('validation_failed');
      expect(res.body.error.details).toEqual([
        { field: 'target', issue: expect.stringContaining('network.allow_private_targets is false') },
      ]);
      const list = await send(strict, org.apiKey, 'GET', '/api/v1/monitors');
      expect(list.body.data.map((m: Json) => m.target)).not.toContain(target);
    });

    it('says which address and which range', async () => {
      const mapped = await send(strict, org.apiKey, 'POST', '/api/v1/monitors', { target: 'http://[::7f00:1]/' });
      expect(mapped.body.error.details[0].issue).toMatch(
        /^::7f00:1 is a deprecated IPv4-compatible address \(::\/96\) embedding 127\.0\.0\.1, a loopback address/,
      );
      const named = await send(strict, org.apiKey, 'POST', '/api/v1/monitors', { target: 'http://localhost/' });
      expect(named.body.error.details[0].issue).toMatch(
        /^localhost resolves to (127\.0\.0\.1|::1), a loopback address \(/,
      );
    });

    it('refuses a dns monitor whose resolver is private (422 on config.resolver)', async () => {
      const res = await send(strict, org.apiKey, 'POST', '/api/v1/monitors', {
        type: 'dns',
        target: 'example.com',
        config: { resolver: '127.0.0.1:53' },
      });
      expect(res.status).toBe(422);
      expect(res.body.error.details).toEqual([
        { field: 'config.resolver', issue: expect.stringContaining('loopback') },
      ]);
    });

    it('accepts public targets, and refuses an update to a private one (the monitor keeps its target)', async () => {
      const created = await send(strict, org.apiKey, 'POST', '/api/v1/monitors', { target: 'http://8.8.8.8/' });
      expect(created.status).toBe(201);
      const tcp = await send(strict, org.apiKey, 'POST', '/api/v1/monitors', { type: 'tcp', target: '1.1.1.1:53' });
      expect(tcp.status).toBe(201);
      const dns = await send(strict, org.apiKey, 'POST', '/api/v1/monitors', {
        type: 'dns',
        target: 'example.com',
        config: { resolver: '8.8.8.8' },
      });
      expect(dns.status).toBe(201);
      const id = created.body.id as string;
      const patched = await send(strict, org.apiKey, 'PATCH', `/api/v1/monitors/${id}`, {
        target: 'http://0x7f.1/admin',
      });
      expect(patched.status).toBe(422);
      expect(patched.body.error.details).toEqual([
        { field: 'target', issue: expect.stringContaining('127.0.0.1 is a loopback address') },
      ]);
      const tcpPatched = await send(strict, org.apiKey, 'PATCH', `/api/v1/monitors/${tcp.body.id as string}`, {
        target: '[fe80::1]:22',
      });
      expect(tcpPatched.status).toBe(422);
      expect((await send(strict, org.apiKey, 'GET', `/api/v1/monitors/${id}`)).body.target).toBe('http://8.8.8.8/');
      const dnsPatched = await send(strict, org.apiKey, 'PATCH', `/api/v1/monitors/${dns.body.id as string}`, {
        config: { resolver: '[::1]:53' },
      });
      expect(dnsPatched.status).toBe(422);
      expect(dnsPatched.body.error.details[0].field).toBe('config.resolver');
    });
  });

  describe(`monitor targets with network.allow_private_targets=true, the default (${dialect})`, () => {
    it('accepts loopback and private targets', async () => {
      const open = await createTestApp({ dialect });
      try {
        const org = await open.createOrg();
        for (const target of ['http://127.0.0.1/', 'http://[::7f00:1]/', 'http://10.0.0.1/']) {
          const res = await send(open, org.apiKey, 'POST', '/api/v1/monitors', { target });
          expect(res.status).toBe(201);
        }
      } finally {
        await open.close();
      }
    });
  });
}
