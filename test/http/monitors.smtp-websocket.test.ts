import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, ManualClock, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import {
  generateCertificate,
  generateTestCa,
  startSmtpTarget,
  startWebSocketTarget,
  type Pem,
  type SmtpTarget,
  type WebSocketTarget,
} from '../support/targets/index.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON read back from responses
type Json = Record<string, any>;

/** The smtp and websocket types (DECISIONS §20) through the API and the engine, against real servers on loopback. */
for (const dialect of testDialects()) {
  describe(`${dialect}: smtp and websocket monitors`, () => {
    let t: TestApp;
    let org: TestOrg;
    let clock: ManualClock;
    let ca: Pem;
    let mail: SmtpTarget;
    let plainMail: SmtpTarget;
    let sockets: WebSocketTarget;

    beforeAll(async () => {
      clock = new ManualClock(Date.parse('2026-03-01T10:00:00.000Z'));
      ca = await generateTestCa();
      // Valid at the manual clock's time (the probe judges the certificate's dates by the injected clock).
      const leaf = await generateCertificate({
        commonName: 'localhost',
        altNames: ['localhost', '127.0.0.1'],
        ca,
        notBefore: new Date('2026-01-01T00:00:00Z'),
      });
      [t, mail, plainMail, sockets] = await Promise.all([
        createTestApp({ dialect, clock }),
        startSmtpTarget({ cert: leaf }),
        startSmtpTarget(),
        startWebSocketTarget(),
      ]);
      org = await t.createOrg();
    });
    afterAll(async () => {
      await Promise.all([mail.close(), plainMail.close(), sockets.close()]);
      await t.close();
    });

    async function call(method: 'GET' | 'POST' | 'PATCH', url: string, body?: Json) {
      const res = await t.tocsin.app.inject({
        method,
        url,
        headers: bearer(org.apiKey),
        ...(body !== undefined && { payload: body }),
      });
      return { status: res.statusCode, body: res.json() as Json };
    }
    async function round(): Promise<void> {
      clock.advance(60_000);
      await t.tocsin.services.checks.localRunner.runOnce();
    }
    async function latest(id: string): Promise<Json> {
      return (await call('GET', `/api/v1/monitors/${id}/executions`)).body.data[0] as Json;
    }
    async function monitorCount(): Promise<number> {
      return (await call('GET', '/api/v1/monitors?limit=100')).body.data.length as number;
    }

    it('creates an smtp monitor with STARTTLS and its defaults, checks it up, then down when STARTTLS is missing', async () => {
      const created = await call('POST', '/api/v1/monitors', {
        type: 'smtp',
        target: mail.target,
        interval_seconds: 60,
        config: { tls_mode: 'starttls', ca_certificate: ca.cert, failure_threshold: 1 },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body).toMatchObject({ type: 'smtp', name: mail.target, status: 'pending' });
      expect(created.body.config).toMatchObject({
        tls_mode: 'starttls',
        ca_certificate: ca.cert,
        alert_days_before_expiry: 14,
        assertions: [],
        timeout_ms: 10_000,
      });
      const id = created.body.id as string;
      await round();
      expect((await call('GET', `/api/v1/monitors/${id}`)).body.status).toBe('up');
      const up = await latest(id);
      expect(up).toMatchObject({ status: 'up', error: null });
      expect(up.timings.connect_ms).toBeGreaterThanOrEqual(0);
      expect(up.timings.ttfb_ms).toBeGreaterThanOrEqual(0);
      expect(up.timings.tls_ms).toBeGreaterThanOrEqual(0);

      const moved = await call('PATCH', `/api/v1/monitors/${id}`, { target: plainMail.target });
      expect(moved.status).toBe(200);
      await round();
      expect((await call('GET', `/api/v1/monitors/${id}`)).body.status).toBe('down');
      expect((await latest(id)).error).toEqual({
        code: 'starttls_unavailable',
        message: 'the server does not offer STARTTLS in its EHLO reply',
      });
    });

    it('creates a websocket monitor that sends and expects, up on the echo, down with the status on a refusal', async () => {
      const created = await call('POST', '/api/v1/monitors', {
        type: 'websocket',
        target: `${sockets.url}/echo`,
        interval_seconds: 60,
        config: { send: 'ping', expect: 'ping', headers: { Origin: 'https://tocsin.test' }, failure_threshold: 1 },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body.name).toBe(new URL(sockets.url).host);
      expect(created.body.config).toMatchObject({ send: 'ping', expect: 'ping', verify_tls: true, assertions: [] });
      const id = created.body.id as string;
      await round();
      expect((await call('GET', `/api/v1/monitors/${id}`)).body.status).toBe('up');
      const up = await latest(id);
      expect(up).toMatchObject({ status: 'up', http_status: 101, error: null });
      expect(up.timings.download_ms).toBeGreaterThanOrEqual(0);
      expect(sockets.requests.at(-1)!.headers.origin).toBe('https://tocsin.test');

      const moved = await call('PATCH', `/api/v1/monitors/${id}`, { target: `${sockets.url}/forbidden` });
      expect(moved.status).toBe(200);
      await round();
      expect((await call('GET', `/api/v1/monitors/${id}`)).body.status).toBe('down');
      expect(await latest(id)).toMatchObject({
        status: 'down',
        http_status: 403,
        error: { code: 'websocket_refused', message: 'upgrade refused: HTTP 403 Forbidden' },
      });
    });

    it.each([
      [
        { type: 'smtp', target: 'mx.example.com', config: { tls_mode: 'tls' } },
        [{ field: 'config.tls_mode', issue: 'must be one of none, starttls, implicit' }],
      ],
      [
        { type: 'smtp', target: 'smtp://mx.example.com' },
        [{ field: 'target', issue: 'must be host:port or a host (port 25, 465 for implicit TLS)' }],
      ],
      [
        { type: 'smtp', target: 'mx.example.com', config: { assertions: [{ type: 'status', equals: 220 }] } },
        [
          {
            field: 'config.assertions[0].type',
            issue: 'must be body or response_time for an smtp monitor (body reads the banner)',
          },
        ],
      ],
      [
        { type: 'websocket', target: 'https://example.com/' },
        [{ field: 'target', issue: 'must be a ws:// or wss:// URL' }],
      ],
      [
        { type: 'websocket', target: 'wss://example.com/', config: { headers: { Upgrade: 'h2c' } } },
        [{ field: 'config.headers.Upgrade', issue: 'is set by the WebSocket handshake' }],
      ],
      [
        { type: 'websocket', target: 'wss://example.com/', config: { tls_mode: 'starttls' } },
        [{ field: 'config.tls_mode', issue: 'is not a known field for websocket monitors' }],
      ],
    ])('refuses %j with 422 naming the field, storing nothing', async (body, expected) => {
      const before = await monitorCount();
      const res = await call('POST', '/api/v1/monitors', body);
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('validation_failed');
      expect(res.body.error.details).toEqual(expected);
      expect(await monitorCount()).toBe(before);
    });

    it('refuses a patch that gives an smtp monitor a key of another type, and keeps it as it was', async () => {
      const m = await call('POST', '/api/v1/monitors', { type: 'smtp', target: 'mx.example.com:587' });
      expect(m.status).toBe(201);
      const res = await call('PATCH', `/api/v1/monitors/${m.body.id as string}`, { config: { expect: 'x' } });
      expect(res.status).toBe(422);
      expect(res.body.error.details).toEqual([
        { field: 'config.expect', issue: 'is not a known field for smtp monitors' },
      ]);
      expect((await call('GET', `/api/v1/monitors/${m.body.id as string}`)).body).toEqual(m.body);
    });
  });
}
