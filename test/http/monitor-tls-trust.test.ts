import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../support/databases.ts';
import { bearer, createTestApp, type TestApp, type TestOrg } from '../support/app.ts';
import { generateCertificate, generateTestCa, type Pem } from '../support/targets/index.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON read back from responses
type Json = Record<string, any>;

/** config.ca_certificate and verify_tls of http and tls monitors, and config: null in a PATCH, on every dialect. */
for (const dialect of testDialects()) {
  describe(`${dialect}: monitors' TLS trust settings`, () => {
    let t: TestApp;
    let org: TestOrg;
    let ca: Pem;
    let leaf: Pem;

    beforeAll(async () => {
      t = await createTestApp({ dialect });
      org = await t.createOrg();
      ca = await generateTestCa('Private Test CA');
      leaf = await generateCertificate({ commonName: 'internal.example', ca });
    });
    afterAll(async () => t.close());

    async function call(method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) {
      const res = await t.tocsin.app.inject({
        method,
        url,
        headers: bearer(org.apiKey),
        ...(body !== undefined && { payload: body as Json }),
      });
      return { status: res.statusCode, body: res.json() as Json };
    }

    async function create(body: Json): Promise<Json> {
      const res = await call('POST', '/api/v1/monitors', body);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body;
    }

    async function monitorCount(): Promise<number> {
      return (await call('GET', '/api/v1/monitors?limit=100')).body.data.length as number;
    }

    it('stores a CA certificate (one or several) for http and tls monitors and returns it', async () => {
      const bundle = `${ca.cert}\n${leaf.cert}`;
      const h = await create({ target: 'https://internal.example/health', config: { ca_certificate: ca.cert } });
      expect(h.config).toMatchObject({ ca_certificate: ca.cert, verify_tls: true });
      const s = await create({
        type: 'tls',
        target: 'internal.example:8443',
        config: { ca_certificate: bundle, verify_tls: false },
      });
      expect(s.config).toMatchObject({ ca_certificate: bundle, verify_tls: false, alert_days_before_expiry: 14 });
      expect((await call('GET', `/api/v1/monitors/${s.id}`)).body.config).toEqual(s.config);
    });

    it('keeps a tls config without the keys unless they are given, and null removes them', async () => {
      const s = await create({ type: 'tls', target: 'plain.example:443' });
      expect(s.config).not.toHaveProperty('ca_certificate');
      expect(s.config).not.toHaveProperty('verify_tls');
      const set = await call('PATCH', `/api/v1/monitors/${s.id}`, {
        config: { ca_certificate: ca.cert, verify_tls: false },
      });
      expect(set.status).toBe(200);
      expect(set.body.config).toMatchObject({ ca_certificate: ca.cert, verify_tls: false });
      const reset = await call('PATCH', `/api/v1/monitors/${s.id}`, {
        config: { ca_certificate: null, verify_tls: null },
      });
      expect(reset.status).toBe(200);
      expect(reset.body.config).toEqual(s.config);
    });

    const notPem = 'hello';
    const truncated = () => ca.cert.replace('-----END CERTIFICATE-----', '');
    const garbage = '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n';
    const tooLong = () => `${ca.cert}\n${'#'.repeat(65_536)}`;
    const cases: Array<[string, () => unknown, string]> = [
      ['a number', () => 42, 'must be a string'],
      ['text without PEM', () => notPem, 'must hold at least one PEM certificate (-----BEGIN CERTIFICATE-----)'],
      ['a block without its end', truncated, 'holds a PEM block without its -----END----- line'],
      ['a block that is no certificate', () => garbage, 'certificate 1 is not a valid X.509 certificate'],
      ['a private key', () => `${ca.cert}\n${leaf.key}`, 'must hold certificates only, never a private key'],
      ['more than 64 KiB', tooLong, 'must be at most 65536 characters'],
    ];
    for (const type of ['http', 'tls'] as const) {
      const target = type === 'http' ? 'https://internal.example/' : 'internal.example:443';
      it.each(cases)(
        `refuses ${type} config.ca_certificate as %s with 422, storing nothing`,
        async (_, value, issue) => {
          const before = await monitorCount();
          const res = await call('POST', '/api/v1/monitors', { type, target, config: { ca_certificate: value() } });
          expect(res.status).toBe(422);
          expect(res.body.error.code).toBe('validation_failed');
          expect(res.body.error.details).toEqual([{ field: 'config.ca_certificate', issue }]);
          expect(await monitorCount()).toBe(before);
        },
      );
    }

    it('refuses a bad CA certificate in an update and leaves the monitor as it was', async () => {
      const m = await create({ target: 'https://upd.example/', config: { ca_certificate: ca.cert } });
      const res = await call('PATCH', `/api/v1/monitors/${m.id}`, { config: { ca_certificate: leaf.key } });
      expect(res.status).toBe(422);
      expect(res.body.error.details).toEqual([
        { field: 'config.ca_certificate', issue: 'must hold certificates only, never a private key' },
      ]);
      expect((await call('GET', `/api/v1/monitors/${m.id}`)).body).toEqual(m);
    });

    it('refuses verify_tls that is not a boolean on a tls monitor, and ca_certificate on other types', async () => {
      const bad = await call('POST', '/api/v1/monitors', {
        type: 'tls',
        target: 'x.example:443',
        config: { verify_tls: 'no' },
      });
      expect(bad.status).toBe(422);
      expect(bad.body.error.details).toEqual([{ field: 'config.verify_tls', issue: 'must be true or false' }]);
      const tcp = await call('POST', '/api/v1/monitors', {
        type: 'tcp',
        target: 'x.example:5432',
        config: { ca_certificate: ca.cert },
      });
      expect(tcp.status).toBe(422);
      expect(tcp.body.error.details).toEqual([
        { field: 'config.ca_certificate', issue: 'is not a known field for tcp monitors' },
      ]);
    });

    it('refuses config: null in a PATCH with 422 naming config and changes nothing', async () => {
      const m = await create({ target: 'https://null.example/', config: { timeout_ms: 3000 } });
      const res = await call('PATCH', `/api/v1/monitors/${m.id}`, { config: null, name: 'Renamed' });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('validation_failed');
      expect(res.body.error.details).toEqual([{ field: 'config', issue: 'must be an object' }]);
      expect((await call('GET', `/api/v1/monitors/${m.id}`)).body).toEqual(m);
    });
  });
}
