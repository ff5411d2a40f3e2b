import { execFileSync } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../engine/engine.helpers.ts';
import { bearer, createTestApp, ManualClock, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON read back from responses
type Json = Record<string, any>;

const DAY = 86_400_000;
const START = Date.parse('2026-11-28T10:00:00.000Z');

const hasPing = (() => {
  try {
    execFileSync('ping', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

let udpEcho: Socket;
let udpPort: number;
let closedUdpPort: number;
let rdap: Server;
let rdapBase: string;

beforeAll(async () => {
  udpEcho = createSocket('udp4');
  udpEcho.on('message', (msg, rinfo) =>
    udpEcho.send(Buffer.concat([Buffer.from('pong '), msg]), rinfo.port, rinfo.address),
  );
  await new Promise<void>((resolve) => udpEcho.bind(0, '127.0.0.1', resolve));
  udpPort = udpEcho.address().port;
  const spare = createSocket('udp4');
  await new Promise<void>((resolve) => spare.bind(0, '127.0.0.1', resolve));
  closedUdpPort = spare.address().port;
  await new Promise<void>((resolve) => spare.close(() => resolve()));
  // RDAP: soon.test expires 12 days after START, far.test in a year; anything else is unknown.
  rdap = createServer((req, res) => {
    const name = decodeURIComponent((req.url ?? '').replace(/^\/rdap\/domain\//, ''));
    const days = name === 'soon.test' ? 12 : name === 'far.test' ? 365 : null;
    res.writeHead(days === null ? 404 : 200, { 'content-type': 'application/rdap+json' });
    res.end(
      JSON.stringify(
        days === null
          ? { errorCode: 404 }
          : {
              objectClassName: 'domain',
              ldhName: name,
              events: [{ eventAction: 'expiration', eventDate: new Date(START + days * DAY).toISOString() }],
              nameservers: [{ ldhName: 'ns1.example.net' }],
            },
      ),
    );
  });
  await new Promise<void>((resolve) => rdap.listen(0, '127.0.0.1', resolve));
  rdapBase = `http://127.0.0.1:${(rdap.address() as AddressInfo).port}/rdap`;
});
afterAll(async () => {
  udpEcho.close();
  await new Promise((resolve) => rdap.close(resolve));
});

for (const dialect of testDialects()) {
  describe(`${dialect}: icmp, udp and domain monitors through the API`, () => {
    let t: TestApp;
    let org: TestOrg;
    const clock = new ManualClock(START);

    beforeAll(async () => {
      t = await createTestApp({ dialect, clock });
      org = await t.createOrg();
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
      const res = await call('POST', '/api/v1/monitors', { interval_seconds: 60, ...body });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body;
    }

    const latest = async (id: string): Promise<Json> =>
      (await call('GET', `/api/v1/monitors/${id}/executions?limit=1`)).body.data[0] as Json;

    it('creates each type with its documented defaults and checks it on a round', async () => {
      const udp = await create({
        type: 'udp',
        target: `127.0.0.1:${udpPort}`,
        config: { send: 'hi', expect: 'pong hi' },
      });
      expect(udp.config).toMatchObject({ send: 'hi', send_encoding: 'text', expect: 'pong hi', assertions: [] });
      const udpDown = await create({ type: 'udp', target: `127.0.0.1:${closedUdpPort}`, config: { send: 'x' } });
      const domain = await create({ type: 'domain', target: 'soon.test', config: { rdap_base_url: rdapBase } });
      expect(domain.config).toMatchObject({ alert_days_before_expiry: 30, rdap_base_url: rdapBase });
      expect(domain.name).toBe('soon.test');
      const gone = await create({ type: 'domain', target: 'unknown.test', config: { rdap_base_url: rdapBase } });
      const icmp = hasPing
        ? await create({
            type: 'icmp',
            target: '127.0.0.1',
            config: { assertions: [{ type: 'response_time', less_than: 1000 }] },
          })
        : null;
      if (icmp) expect(icmp.config).toMatchObject({ count: 3, max_loss_percent: 50, timeout_ms: 10_000 });

      clock.advance(5_000);
      const ran = await t.tocsin.services.checks.localRunner.runOnce();
      expect(ran).toBe(icmp ? 5 : 4);

      expect(await latest(udp.id)).toMatchObject({ status: 'up', error: null });
      expect(await latest(udpDown.id)).toMatchObject({ status: 'down', error: { code: 'connect_refused' } });
      expect(await latest(domain.id)).toMatchObject({ status: 'up', http_status: 200 });
      expect(await latest(gone.id)).toMatchObject({ status: 'down', error: { code: 'domain_not_found' } });
      if (icmp) {
        const e = await latest(icmp.id);
        expect(e).toMatchObject({ status: 'up', assertions: [{ type: 'response_time', passed: true }] });
        expect(e.details).toMatchObject({ loss_percent: 0 });
        expect(e.details.rtt_min_ms).toBeLessThanOrEqual(e.details.rtt_max_ms);
        expect((await call('GET', `/api/v1/monitors/${icmp.id}`)).body.status).toBe('up');
      }
      expect((await call('GET', `/api/v1/monitors/${udp.id}`)).body.status).toBe('up');

      // The registration expiring in 12 days (within 30) went out as cert_expiring, kind domain.
      const events = await rows<{ payload: string }>(
        t.tocsin.database,
        "select payload from domain_event where type = 'cert_expiring' and monitor_id = ?",
        [domain.id],
      );
      expect(events.map((e) => JSON.parse(e.payload) as Json)).toEqual([
        expect.objectContaining({ kind: 'domain', domain: 'soon.test', days_to_expiry: 12, target: 'soon.test' }),
      ]);
    });

    it('filters the list by the new types', async () => {
      const list = await call('GET', '/api/v1/monitors?type=udp');
      expect(list.status).toBe(200);
      expect(list.body.data.length).toBeGreaterThanOrEqual(2);
      expect(list.body.data.every((m: Json) => m.type === 'udp')).toBe(true);
    });

    it('updates a config key and resets it with null', async () => {
      const m = await create({ type: 'icmp', target: 'example.com', config: { count: 5 } });
      const patched = await call('PATCH', `/api/v1/monitors/${m.id}`, { config: { max_loss_percent: 0, count: null } });
      expect(patched.status).toBe(200);
      expect(patched.body.config).toMatchObject({ count: 3, max_loss_percent: 0 });
      const wrong = await call('PATCH', `/api/v1/monitors/${m.id}`, { config: { rdap_base_url: rdapBase } });
      expect(wrong.status).toBe(422);
      expect(wrong.body.error.details).toEqual([
        { field: 'config.rdap_base_url', issue: 'is not a known field for icmp monitors' },
      ]);
    });

    const BAD: Array<[string, Json, string, string]> = [
      [
        'icmp count 0',
        { type: 'icmp', target: 'example.com', config: { count: 0 } },
        'config.count',
        'must be between 1 and 20',
      ],
      [
        'icmp count that does not fit the timeout',
        { type: 'icmp', target: 'example.com', config: { count: 20, timeout_ms: 1000 } },
        'config.count',
        'needs config.timeout_ms of at least 4800 (requests go 200 ms apart)',
      ],
      [
        'icmp max_loss_percent 101',
        { type: 'icmp', target: 'example.com', config: { max_loss_percent: 101 } },
        'config.max_loss_percent',
        'must be between 0 and 100',
      ],
      [
        'an icmp status assertion',
        { type: 'icmp', target: 'example.com', config: { assertions: [{ type: 'status', equals: 200 }] } },
        'config.assertions[0].type',
        'must be response_time for icmp monitors',
      ],
      [
        'an icmp target with a port',
        { type: 'icmp', target: 'example.com:80' },
        'target',
        'must be a host name or IP address',
      ],
      ['a udp target without a port', { type: 'udp', target: 'example.com' }, 'target', 'must be host:port'],
      [
        'udp send_encoding rot13',
        { type: 'udp', target: 'example.com:53', config: { send_encoding: 'rot13' } },
        'config.send_encoding',
        'must be one of text, base64, hex',
      ],
      [
        'udp send that is not hex',
        { type: 'udp', target: 'example.com:53', config: { send: 'zz', send_encoding: 'hex' } },
        'config.send',
        'must be pairs of hex digits (send_encoding hex)',
      ],
      [
        'a udp header assertion',
        { type: 'udp', target: 'example.com:53', config: { assertions: [{ type: 'header', name: 'x', equals: 'y' }] } },
        'config.assertions[0].type',
        'must be body or response_time for udp monitors',
      ],
      [
        'a domain target that is an IP',
        { type: 'domain', target: '192.0.2.1' },
        'target',
        'must be a registered domain name, e.g. example.com',
      ],
      [
        'a domain rdap_base_url that is not http',
        { type: 'domain', target: 'example.com', config: { rdap_base_url: 'ftp://rdap.example/' } },
        'config.rdap_base_url',
        'must be an http:// or https:// URL (no query)',
      ],
      [
        'domain alert_days_before_expiry 0',
        { type: 'domain', target: 'example.com', config: { alert_days_before_expiry: 0 } },
        'config.alert_days_before_expiry',
        'must be between 1 and 365',
      ],
      [
        'a udp key on a domain monitor',
        { type: 'domain', target: 'example.com', config: { send: 'x' } },
        'config.send',
        'is not a known field for domain monitors',
      ],
    ];

    it.each(BAD)('refuses %s with 422 naming the field, storing nothing', async (_, body, field, issue) => {
      const before = (await call('GET', '/api/v1/monitors?limit=100')).body.data.length as number;
      const res = await call('POST', '/api/v1/monitors', body);
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('validation_failed');
      expect(res.body.error.details).toEqual([{ field, issue }]);
      expect((await call('GET', '/api/v1/monitors?limit=100')).body.data.length).toBe(before);
    });
  });

  describe(`${dialect}: the new types with network.allow_private_targets=false`, () => {
    let strict: TestApp;
    let org: TestOrg;
    beforeAll(async () => {
      strict = await createTestApp({ dialect, configFile: { network: { allow_private_targets: false } } });
      org = await strict.createOrg();
    });
    afterAll(() => strict.close());

    it.each([
      [{ type: 'icmp', target: '127.0.0.1' }, 'target'],
      [{ type: 'icmp', target: '[::1]' }, 'target'],
      [{ type: 'udp', target: '10.0.0.53:53' }, 'target'],
      [
        { type: 'domain', target: 'example.com', config: { rdap_base_url: 'http://169.254.169.254/rdap' } },
        'config.rdap_base_url',
      ],
    ] as Array<[Json, string]>)('refuses %j with 422 on %s', async (body, field) => {
      const res = await strict.tocsin.app.inject({
        method: 'POST',
        url: '/api/v1/monitors',
        headers: bearer(org.apiKey),
        payload: body,
      });
      expect(res.statusCode).toBe(422);
      expect(res.json<Json>().error.details).toEqual([
        { field, issue: expect.stringContaining('network.allow_private_targets is false') },
      ]);
    });

    it('accepts a domain monitor without an RDAP server of its own (the bootstrap names public ones)', async () => {
      const res = await strict.tocsin.app.inject({
        method: 'POST',
        url: '/api/v1/monitors',
        headers: bearer(org.apiKey),
        payload: { type: 'domain', target: 'example.com' },
      });
      expect(res.statusCode).toBe(201);
    });
  });
}
