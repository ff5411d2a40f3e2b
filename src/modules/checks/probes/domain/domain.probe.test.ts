import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../../../../../test/support/targets/index.ts';
import { createDomainProbe, createProbeRegistry } from '../index.ts';
import type { ProbeContext, ProbeTarget } from '../index.ts';
import { parseBootstrap, parseRdapDomain } from './rdap.parse.ts';

const NOW = Date.parse('2026-11-28T12:00:00Z');
const DAY = 86_400_000;
const ctx: ProbeContext = { now: () => NOW, allowPrivateTargets: true };

/** An RFC 9083 domain object expiring `days` after NOW. */
function rdapDomain(name: string, days: number, extra: Record<string, unknown> = {}) {
  return {
    objectClassName: 'domain',
    ldhName: name.toUpperCase(),
    rdapConformance: ['rdap_level_0'],
    status: ['client transfer prohibited'],
    events: [
      { eventAction: 'registration', eventDate: '1995-08-14T04:00:00Z' },
      { eventAction: 'expiration', eventDate: new Date(NOW + days * DAY).toISOString() },
      { eventAction: 'last update of RDAP database', eventDate: '2026-11-28T11:00:00Z' },
    ],
    entities: [
      {
        objectClassName: 'entity',
        handle: '376',
        roles: ['registrar'],
        vcardArray: [
          'vcard',
          [
            ['version', {}, 'text', '4.0'],
            ['fn', {}, 'text', 'Example Registrar, Inc.'],
          ],
        ],
      },
    ],
    nameservers: [
      { objectClassName: 'nameserver', ldhName: 'NS2.EXAMPLE-DNS.NET' },
      { objectClassName: 'nameserver', ldhName: 'ns1.example-dns.net.' },
    ],
    ...extra,
  };
}

const DOMAINS: Record<string, unknown> = {
  'far.test': rdapDomain('far.test', 400),
  'near.test': rdapDomain('near.test', 10),
  'gone.test': rdapDomain('gone.test', -3),
  'redeem.test': rdapDomain('redeem.test', 20, { status: ['redemption period'] }),
  'noexpiry.test': rdapDomain('noexpiry.test', 0, { events: [] }),
};

let server: Server;
let base: string;
const requests: Array<{ url: string; accept: string | undefined }> = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push({ url: req.url ?? '', accept: req.headers.accept });
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/bootstrap/dns.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          version: '1.0',
          services: [
            [['test', 'example'], [`${base}/rdap/`]],
            [['broken'], [`${base}/broken/`]],
          ],
        }),
      );
      return;
    }
    if (url.pathname.startsWith('/broken/')) {
      res.writeHead(200, { 'content-type': 'application/rdap+json' });
      res.end('{"objectClassName": "domain", "events": [');
      return;
    }
    if (url.pathname.startsWith('/rdap/domain/')) {
      const name = decodeURIComponent(url.pathname.slice('/rdap/domain/'.length));
      const doc = DOMAINS[name];
      res.writeHead(doc ? 200 : 404, { 'content-type': 'application/rdap+json' });
      res.end(JSON.stringify(doc ?? { errorCode: 404, title: 'Not Found' }));
      return;
    }
    res.writeHead(500).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const domain = (target: string, config: Record<string, unknown> = {}): ProbeTarget => ({
  id: 'mon_domain',
  type: 'domain',
  target,
  interval_seconds: 3600,
  config: { timeout_ms: 2000, rdap_base_url: `${base}/rdap`, ...config },
});

describe('domain probe', () => {
  const registry = createProbeRegistry();

  it('is up far from expiry, with registrar, name servers and dates', async () => {
    const obs = await registry.run(domain('far.test'), ctx);
    expect(obs).toMatchObject({
      status: 'up',
      error: null,
      http_status: 200,
      details: {
        domain: 'far.test',
        rdap_url: `${base}/rdap/domain/far.test`,
        days_to_expiry: 400,
        registered_at: '1995-08-14T04:00:00.000Z',
        registrar: 'Example Registrar, Inc.',
        nameservers: ['ns1.example-dns.net', 'ns2.example-dns.net'],
      },
    });
    expect(obs.events).toBeUndefined();
    expect(requests.at(-1)?.accept).toContain('application/rdap+json');
  });

  it('stays up and raises cert_expiring (kind domain) within alert_days_before_expiry', async () => {
    const obs = await registry.run(domain('near.test'), ctx);
    expect(obs.status).toBe('up');
    expect(obs.events).toEqual([
      {
        type: 'cert_expiring',
        data: expect.objectContaining({ kind: 'domain', domain: 'near.test', days_to_expiry: 10 }),
      },
    ]);
    const quiet = await registry.run(domain('near.test', { alert_days_before_expiry: 5 }), ctx);
    expect(quiet.events).toBeUndefined();
    // The default window is 30 days.
    const byDefault = await registry.run(domain('near.test', { alert_days_before_expiry: undefined }), ctx);
    expect(byDefault.events).toHaveLength(1);
  });

  it('is down when the registration expired or lapsed', async () => {
    expect(await registry.run(domain('gone.test'), ctx)).toMatchObject({
      status: 'down',
      error: { code: 'domain_expired' },
    });
    const redeem = await registry.run(domain('redeem.test'), ctx);
    expect(redeem).toMatchObject({ status: 'down', error: { code: 'domain_expired' } });
    expect(redeem.error?.message).toContain('redemption period');
  });

  it('is up without an expiry when the registry publishes none', async () => {
    const obs = await registry.run(domain('noexpiry.test'), ctx);
    expect(obs).toMatchObject({ status: 'up', details: { expires_at: null, days_to_expiry: null } });
  });

  it('is down with domain_not_found on RDAP 404', async () => {
    const obs = await registry.run(domain('unknown.test'), ctx);
    expect(obs).toMatchObject({ status: 'down', error: { code: 'domain_not_found' }, http_status: 404 });
  });

  it('is down with protocol_error on malformed JSON', async () => {
    const obs = await registry.run(domain('x.broken', { rdap_base_url: `${base}/broken` }), ctx);
    expect(obs).toMatchObject({ status: 'down', error: { code: 'protocol_error' } });
    expect(obs.error?.message).toContain('JSON');
  });

  it('is down with connect_refused when the RDAP server is not there', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/rdap`;
    const obs = await registry.run(domain('far.test', { rdap_base_url: url }), ctx);
    expect(obs).toMatchObject({ status: 'down', error: { code: 'connect_refused' } });
  });

  it('refuses a private RDAP server when private targets are not allowed', async () => {
    const before = requests.length;
    const obs = await registry.run(domain('far.test'), { ...ctx, allowPrivateTargets: false });
    expect(obs).toMatchObject({ status: 'down', error: { code: 'private_target' } });
    expect(requests.length).toBe(before);
  });

  it('finds the RDAP server through the bootstrap registry, fetched once', async () => {
    const bootstrapped = createProbeRegistry({
      domain: createDomainProbe({ bootstrapUrl: `${base}/bootstrap/dns.json` }),
    });
    const before = requests.filter((r) => r.url.startsWith('/bootstrap')).length;
    const first = await bootstrapped.run(domain('far.test', { rdap_base_url: undefined }), ctx);
    expect(first).toMatchObject({ status: 'up', details: { rdap_url: `${base}/rdap/domain/far.test` } });
    await bootstrapped.run(domain('near.test', { rdap_base_url: undefined }), ctx);
    expect(requests.filter((r) => r.url.startsWith('/bootstrap')).length).toBe(before + 1);
    const unknownTld = await bootstrapped.run(domain('example.nowhere', { rdap_base_url: undefined }), ctx);
    expect(unknownTld).toMatchObject({ status: 'down', error: { code: 'invalid_target' } });
    expect(unknownTld.error?.message).toContain('rdap_base_url');
  });

  it('says clearly when the bootstrap registry cannot be fetched', async () => {
    const offline = createProbeRegistry({
      domain: createDomainProbe({ bootstrapUrl: `http://127.0.0.1:${await closedPort()}/dns.json` }),
    });
    const obs = await offline.run(domain('far.test', { rdap_base_url: undefined }), ctx);
    expect(obs).toMatchObject({ status: 'down', error: { code: 'protocol_error' } });
    expect(obs.error?.message).toMatch(/bootstrap registry .* could not be fetched.*set config\.rdap_base_url/);
  });

  it('rejects names that are not domains', async () => {
    expect((await registry.run(domain('localhost'), ctx)).error?.code).toBe('invalid_target');
    expect((await registry.run(domain('a b.test'), ctx)).error?.code).toBe('invalid_target');
  });
});

describe('RDAP parsing', () => {
  it('falls back to "registrar expiration" and the registrar handle', () => {
    const r = parseRdapDomain({
      objectClassName: 'domain',
      events: [{ eventAction: 'registrar expiration', eventDate: '2030-01-01T00:00:00Z' }],
      entities: [{ roles: ['registrar'], handle: 'R-9' }],
    });
    expect(r).toMatchObject({ expires_at: '2030-01-01T00:00:00.000Z', registrar: 'R-9', nameservers: [] });
  });

  it('refuses what is not a domain object', () => {
    expect(() => parseRdapDomain([])).toThrow(/not a JSON object/);
    expect(() => parseRdapDomain({ objectClassName: 'entity' })).toThrow(/not a domain/);
  });

  it('prefers https services in the bootstrap', () => {
    const map = parseBootstrap({ services: [[['COM'], ['http://a/', 'https://b/']]] });
    expect(map.get('com')).toBe('https://b/');
  });
});
