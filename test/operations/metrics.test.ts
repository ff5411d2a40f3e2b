/**
 * GET /metrics (DECISIONS §15): off unless `metrics.enabled`; optionally behind a bearer token; the series a
 * scrape shows after real checks, deliveries and requests, with bounded labels.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../fakes/index.ts';
import { bearer, createTestApp, ManualClock, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { startHttpTarget, type RunningTarget } from '../support/targets/index.ts';
import { parseSamples, sampleValue } from './prometheus.text.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies in assertions

const WEBHOOKS = '/api/v1/auth/organization/webhooks';
const TOKEN = 'scrape-token-0123456789abcdef';

describe('GET /metrics switched off (the default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('is 404 with the error envelope', async () => {
    expect(t.config.metrics).toEqual({ enabled: false, bearerToken: null });
    const res = await t.tocsin.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toMatchObject({ code: 'not_found', request_id: res.headers['x-request-id'] });
  });
});

describe('GET /metrics behind metrics.bearer_token', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ configFile: { metrics: { enabled: true, bearer_token: TOKEN } } });
  });
  afterAll(async () => t.close());

  it('is 401 with the envelope without the token or with another one, 200 with it', async () => {
    for (const headers of [{}, bearer(`${TOKEN}x`), bearer(TOKEN.slice(0, -1)), { authorization: TOKEN }]) {
      const res = await t.tocsin.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(res.json().error).toMatchObject({ code: 'unauthorized', request_id: res.headers['x-request-id'] });
      expect(res.body).not.toContain(TOKEN);
    }
    const ok = await t.tocsin.app.inject({ method: 'GET', url: '/metrics', headers: bearer(TOKEN) });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    // The refused scrapes are requests like any other.
    expect(
      sampleValue(ok.body, 'tocsin_http_request_duration_seconds_count', {
        method: 'GET',
        route: '/metrics',
        status: '4xx',
      }),
    ).toBe(4);
  });
});

describe.each(testDialects())('GET /metrics after real checks, deliveries and requests (%s)', (dialect) => {
  let t: TestApp;
  let clock: ManualClock;
  let target: RunningTarget;
  let receiver: WebhookReceiver;
  let org: TestOrg;
  let targetStatus = 200;

  beforeAll(async () => {
    clock = new ManualClock(Date.parse('2026-03-01T10:00:00.000Z'));
    t = await createTestApp({ dialect, clock, configFile: { metrics: { enabled: true } } });
    target = await startHttpTarget((_req, res) => {
      res.writeHead(targetStatus, { 'content-type': 'text/plain' });
      res.end('target');
    });
    receiver = await startWebhookReceiver({ secret: 'unused', now: () => clock.now() });
    org = await t.createOrg();
  });
  afterAll(async () => {
    await receiver.close();
    await target.close();
    await t.close();
  });

  const call = async (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) => {
    const res = await t.tocsin.app.inject({ method, url, headers: bearer(org.apiKey), ...(payload && { payload }) });
    return { status: res.statusCode, body: res.json() as Json };
  };
  const scrape = async () => {
    const res = await t.tocsin.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    return res.body;
  };
  const round = async () => {
    clock.advance(30_000);
    return t.tocsin.services.checks.localRunner.runOnce();
  };

  it('counts checks, their duration and lateness, deliveries, open incidents, outbox lag and requests', async () => {
    const hook = await call('POST', WEBHOOKS, {
      type: 'generic_webhook',
      name: 'Hook',
      config: { url: receiver.webhookUrl },
    });
    expect(hook.status).toBe(201);
    const monitor = await call('POST', '/api/v1/monitors', {
      name: 'Checkout',
      target: target.url,
      interval_seconds: 30,
      config: { failure_threshold: 1, success_threshold: 1, alert_destination_ids: [hook.body.id] },
    });
    expect(monitor.status).toBe(201);
    const id = monitor.body.id as string;
    expect((await call('GET', `/api/v1/monitors/${id}`)).status).toBe(200);
    expect((await call('GET', '/api/v1/monitors/mon_01aaaaaaaaaaaaaaaaaaaaaaaa')).status).toBe(404);
    expect((await t.tocsin.app.inject({ method: 'GET', url: '/no/such/path' })).statusCode).toBe(404);

    expect(await round()).toBe(1);
    expect(await round()).toBe(1);
    targetStatus = 503;
    expect(await round()).toBe(1); // down: incident opened, `down` event in the outbox

    clock.advance(4_000);
    let text = await scrape();
    expect(sampleValue(text, 'tocsin_checks_total', { type: 'http', region: 'local', result: 'up' })).toBe(2);
    expect(sampleValue(text, 'tocsin_checks_total', { type: 'http', region: 'local', result: 'down' })).toBe(1);
    expect(sampleValue(text, 'tocsin_check_duration_seconds_count', { type: 'http', region: 'local' })).toBe(3);
    const durationSum = sampleValue(text, 'tocsin_check_duration_seconds_sum', { type: 'http', region: 'local' })!;
    expect(durationSum).toBeGreaterThanOrEqual(0);
    expect(durationSum).toBeLessThan(30);
    expect(sampleValue(text, 'tocsin_check_lateness_seconds_count', { region: 'local' })).toBe(3);
    // Every check ran within one 30 s round of its slot (ManualClock: no real waiting).
    expect(sampleValue(text, 'tocsin_check_lateness_seconds_bucket', { region: 'local', le: '30' })).toBe(3);
    expect(sampleValue(text, 'tocsin_incidents_open', { status: 'opened' })).toBe(1);
    expect(sampleValue(text, 'tocsin_incidents_open', { status: 'acknowledged' })).toBe(0);
    // The alert pipeline has not run yet in this process: its consumer has no position, so no series.
    expect(sampleValue(text, 'tocsin_outbox_lag_seconds', { consumer: 'alerting' })).toBeUndefined();

    await t.tocsin.services.alerting.pipeline.runUntilIdle();
    expect(receiver.requests).toHaveLength(1);
    text = await scrape();
    expect(sampleValue(text, 'tocsin_deliveries_total', { destination_type: 'generic_webhook', outcome: 'ok' })).toBe(
      1,
    );
    expect(sampleValue(text, 'tocsin_outbox_lag_seconds', { consumer: 'alerting' })).toBe(0);

    targetStatus = 200;
    expect(await round()).toBe(1); // recovered: incident resolved, `recovered` event waiting in the outbox
    clock.advance(7_500);
    text = await scrape();
    expect(sampleValue(text, 'tocsin_incidents_open', { status: 'opened' })).toBe(0);
    expect(sampleValue(text, 'tocsin_outbox_lag_seconds', { consumer: 'alerting' })).toBe(7.5);
    receiver.failNext('server_error');
    await t.tocsin.services.alerting.pipeline.runUntilIdle();
    text = await scrape();
    expect(sampleValue(text, 'tocsin_outbox_lag_seconds', { consumer: 'alerting' })).toBe(0);
    const deliveries = (outcome: string) =>
      sampleValue(text, 'tocsin_deliveries_total', { destination_type: 'generic_webhook', outcome });
    expect(deliveries('retry')).toBe(1);
    clock.advance(10 * 60_000); // past the retry's backoff
    await t.tocsin.services.alerting.pipeline.runUntilIdle();
    text = await scrape();
    expect(deliveries('ok')).toBe(2);
    expect(receiver.requests).toHaveLength(3);
    expect(sampleValue(text, 'tocsin_checks_total', { type: 'http', region: 'local', result: 'up' })).toBe(3);

    // Requests by route pattern and status class; the API-access counters.
    const http = (labels: Record<string, string>) =>
      sampleValue(text, 'tocsin_http_request_duration_seconds_count', labels);
    expect(http({ method: 'POST', route: '/api/v1/monitors', status: '2xx' })).toBe(1);
    expect(http({ method: 'GET', route: '/api/v1/monitors/:id', status: '2xx' })).toBe(1);
    expect(http({ method: 'GET', route: '/api/v1/monitors/:id', status: '4xx' })).toBe(1);
    expect(http({ method: 'GET', route: 'unmatched', status: '4xx' })).toBe(1);
    expect(http({ method: 'GET', route: '/metrics', status: '2xx' })).toBe(4); // the earlier scrapes
    expect(sampleValue(text, 'tocsin_api_requests_total', { budget: 'write', status: '2xx' })).toBe(2);
    expect(sampleValue(text, 'tocsin_api_requests_total', { budget: 'read', status: '4xx' })).toBe(1);

    // Process metrics (prom-client defaults) are there.
    expect(sampleValue(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(sampleValue(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);

    // Bounded labels: no monitor, organization, destination or request id, no URL anywhere.
    for (const needle of [id, org.organizationId, hook.body.id as string, 'mon_01aaaa', '/no/such/path', target.url]) {
      expect(text).not.toContain(needle);
    }
    const names = new Set(parseSamples(text).map((s) => s.name));
    for (const name of names) {
      if (name.startsWith('process_') || name.startsWith('nodejs_')) continue;
      expect(name).toMatch(/^tocsin_[a-z_]+$/);
    }
  });
});
