/**
 * The degraded state (DECISIONS §20) through the real app on both databases: results go through
 * CheckEngine.applyResults (state machine, transition listeners, outbox), events through the alert pipeline to a
 * real webhook receiver on loopback; the API, status pages and the availability report read what was written. One
 * case probes a real slow HTTP target with the local runner. Expected figures are worked out in the comments.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../fakes/index.ts';
import { WEBHOOKS } from '../alerting/helpers.ts';
import { createTestApp, ManualClock, type TestApp } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { startHttpTarget, type RunningTarget } from '../support/targets/index.ts';
import { at, clientOf } from '../reports/reports.helpers.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

const MIN = 60_000;

/** The PDF's text (poppler), whitespace collapsed. */
function pdfText(body: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'tocsin-degraded-'));
  try {
    writeFileSync(join(dir, 'r.pdf'), body);
    return execFileSync('pdftotext', [join(dir, 'r.pdf'), '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe.each(testDialects())('degraded monitors on %s', (dialect) => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  const clock = new ManualClock('2026-04-01T09:00:00.000Z');
  const secret = { value: '' };

  beforeAll(async () => {
    receiver = await startWebhookReceiver({
      get secret() {
        return secret.value;
      },
      now: () => clock.now(),
    } as { secret: string });
    t = await createTestApp({ dialect, clock, configFile: { regions: ['local', 'eu', 'us'] } });
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  async function eventsOf(organizationId: string, ...types: string[]) {
    const all = await t.tocsin.services.events.readAfter(0, 100_000);
    return all.filter((e) => e.organizationId === organizationId && types.includes(e.type));
  }

  /** An organization with a webhook subscribed to the degraded events (and down/recovered) and its client. */
  async function setup(day: string) {
    clock.set(`${day}T09:00:00Z`);
    const org = await t.createOrg();
    const c = clientOf(t, org);
    const hook = await c.call('POST', WEBHOOKS, {
      type: 'generic_webhook',
      name: 'Ops hook',
      events: ['down', 'recovered', 'degraded', 'degraded_recovered'],
      config: { url: receiver.webhookUrl },
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    secret.value = hook.body.signing_secret as string;
    receiver.reset();
    return { org, c, hookId: hook.body.id as string };
  }

  async function delivered(): Promise<Json[]> {
    await t.tocsin.services.alerting.pipeline.runUntilIdle();
    return receiver.verified().map((r) => JSON.parse(r.rawBody) as Json);
  }

  it('latency: failure_threshold slow checks degrade, success_threshold fast ones recover; events, filter, page, report', async () => {
    const day = '2026-04-02';
    const { org, c, hookId } = await setup(day);
    const id = await c.createMonitor({
      name: 'Search',
      config: {
        degraded_latency_ms: 500,
        failure_threshold: 2,
        success_threshold: 2,
        alert_destination_ids: [hookId],
      },
    });
    const other = await c.createMonitor({ name: 'Fast one' });
    const statusOf = async () => (await c.call('GET', `/api/v1/monitors/${id}`)).body.status as string;
    const t0 = at(`${day}T09:00:00Z`);
    await c.check(other, 'up', t0 + MIN, 'local', 80);
    await c.check(id, 'up', t0 + MIN, 'local', 120);
    expect(await statusOf()).toBe('pending'); // success_threshold 2
    await c.check(id, 'up', t0 + 2 * MIN, 'local', 120); // up from 09:02
    expect(await statusOf()).toBe('up');
    await c.check(id, 'up', t0 + 3 * MIN, 'local', 900); // slow 1 of 2
    expect(await statusOf()).toBe('up');
    await c.check(id, 'up', t0 + 4 * MIN, 'local', 501); // slow 2 of 2: degraded from 09:04
    expect(await statusOf()).toBe('degraded');

    // The list filter and the record.
    const listed = await c.call('GET', '/api/v1/monitors?status=degraded');
    expect(listed.status).toBe(200);
    expect((listed.body.data as Json[]).map((m) => m.id)).toEqual([id]);
    const upOnes = await c.call('GET', '/api/v1/monitors?status=up');
    expect((upOnes.body.data as Json[]).map((m) => m.id)).toEqual([other]);

    // The status badge (shields.io endpoint): degraded, in yellow.
    const badge = await c.call('POST', `/api/v1/monitors/${id}/badge`);
    expect(badge.status).toBe(201);
    const shield = await t.tocsin.app.inject({ method: 'GET', url: `/badge/${badge.body.token}/status.json` });
    expect(shield.json()).toMatchObject({ label: 'Search', message: 'degraded', color: 'yellow' });

    // Not an outage: no incident, no down.
    expect((await c.call('GET', `/api/v1/incidents?monitor_id=${id}`)).body.data).toEqual([]);
    expect(await eventsOf(org.organizationId, 'down', 'incident_opened')).toEqual([]);

    // The status page: "Degraded performance"; summary.json's component is degraded_performance.
    const slug = `degraded-${dialect}`;
    const page = await c.call('POST', '/api/v1/status-pages', { slug, title: 'Shop', monitor_ids: [id, other] });
    expect(page.status, JSON.stringify(page.body)).toBe(201);
    const pub = (await t.tocsin.app.inject({ method: 'GET', url: `/status/${slug}.json` })).json() as Json;
    expect(pub.status).toBe('degraded_performance');
    expect(pub.outage).toBe('none');
    expect((pub.monitors as Json[]).map((m) => [m.id, m.status])).toEqual([
      [id, 'degraded_performance'],
      [other, 'operational'],
    ]);
    const html = await t.tocsin.app.inject({ method: 'GET', url: `/status/${slug}` });
    expect(html.statusCode).toBe(200);
    expect(html.body).toContain('<p class="banner degraded_performance" role="status">~ Degraded performance');
    expect(html.body).toContain('<span class="st degraded_performance">~ Degraded performance</span>');
    const summary = (
      await t.tocsin.app.inject({ method: 'GET', url: `/status/${slug}/api/v2/summary.json` })
    ).json() as Json;
    expect(summary.status).toEqual({ indicator: 'minor', description: 'Partially Degraded Service' });
    expect((summary.components as Json[]).map((x) => [x.id, x.status])).toEqual([
      [id, 'degraded_performance'],
      [other, 'operational'],
    ]);

    await c.check(id, 'up', t0 + 5 * MIN, 'local', 100); // fast 1 of 2
    await c.check(id, 'up', t0 + 6 * MIN, 'local', 700); // slow again: the fast run starts over
    await c.check(id, 'up', t0 + 7 * MIN, 'local', 100);
    expect(await statusOf()).toBe('degraded');
    await c.check(id, 'up', t0 + 8 * MIN, 'local', 499); // fast 2 of 2: up at 09:08
    expect(await statusOf()).toBe('up');

    // Delivered to the webhook, in order, signed; the outbox has nothing else for this monitor.
    const bodies = await delivered();
    expect(bodies.map((b) => [b.event, b.monitor?.id, b.timestamp])).toEqual([
      ['degraded', id, `${day}T09:04:00.000Z`],
      ['degraded_recovered', id, `${day}T09:08:00.000Z`],
    ]);
    expect(bodies[0]!.message).toContain('DEGRADED: Search');
    expect(bodies[0]!.message).toContain('Cause: checks slower than 500 ms');
    expect(bodies[0]!.data).toMatchObject({ latency_ms: 501, threshold_ms: 500 });
    expect(bodies[1]!.message).toContain('NO LONGER DEGRADED: Search');
    expect(bodies[1]!.data).toMatchObject({ duration_seconds: 240 });
    expect(bodies[0]!.incident).toBeNull();

    // Availability 09:00 → 09:10: no verdict 09:00 → 09:02 (120 s), up 09:02 → 09:10 (480 s) of which degraded
    // 09:04 → 09:08 = 240 s; degraded counts as up: uptime 100 %.
    clock.set(`${day}T09:30:00Z`);
    const range = `from=${day}T09:00:00Z&to=${day}T09:10:00Z&monitor_ids=${id}`;
    const r = await c.call('GET', `/api/v1/reports/availability?${range}`);
    expect(r.status).toBe(200);
    expect(r.body.monitors[0]).toMatchObject({
      uptime_percent: 100,
      downtime_seconds: 0,
      degraded_seconds: 240,
      monitored_seconds: 480,
      no_data_seconds: 120,
    });
    expect(r.body.summary).toMatchObject({ degraded_seconds: 240, downtime_seconds: 0 });
    expect(r.body.monitors[0].daily).toEqual([
      { date: day, uptime_percent: 100, downtime_seconds: 0, degraded_seconds: 240 },
    ]);
    const csv = await c.call('GET', `/api/v1/reports/availability?format=csv&${range}`);
    const [header, row] = csv.raw.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    const cols = header!.split(',');
    expect(cols.slice(3, 6)).toEqual(['uptime_percent', 'downtime_seconds', 'degraded_seconds']);
    expect(row!.split(',')[cols.indexOf('degraded_seconds')]).toBe('240');
    const pdf = pdfText((await c.call('GET', `/api/v1/reports/availability?format=pdf&${range}`)).raw.rawPayload);
    expect(pdf).toContain('Degraded performance (4 min 0 s in all)');
    expect(pdf).toMatch(/Monitor Degraded Uptime % Downtime Search 4 min 0 s 100 0s/);
  });

  it('down from degraded is down; recovering slowly is degraded, not up (after its recovered)', async () => {
    const day = '2026-04-03';
    const { org, c, hookId } = await setup(day);
    const id = await c.createMonitor({
      name: 'Checkout',
      config: { degraded_latency_ms: 300, failure_threshold: 2, alert_destination_ids: [hookId] },
    });
    const t0 = at(`${day}T09:00:00Z`);
    await c.check(id, 'up', t0 + MIN, 'local', 400);
    await c.check(id, 'up', t0 + 2 * MIN, 'local', 400); // degraded 09:02
    await c.check(id, 'down', t0 + 3 * MIN);
    await c.check(id, 'down', t0 + 4 * MIN); // down 09:04, from the first failure at 09:03
    expect((await c.call('GET', `/api/v1/monitors/${id}`)).body.status).toBe('down');
    await c.check(id, 'up', t0 + 5 * MIN, 'local', 450); // recovered, slowly: degraded 09:05
    expect((await c.call('GET', `/api/v1/monitors/${id}`)).body.status).toBe('degraded');
    await c.check(id, 'up', t0 + 6 * MIN, 'local', 50); // up 09:06
    const incidents = (await c.call('GET', `/api/v1/incidents?monitor_id=${id}`)).body.data as Json[];
    expect(incidents).toHaveLength(1);
    expect(incidents[0]).toMatchObject({ status: 'resolved', resolved_at: `${day}T09:05:00.000Z` });
    expect((await delivered()).map((b) => b.event)).toEqual([
      'degraded',
      'down',
      'recovered',
      'degraded',
      'degraded_recovered',
    ]);
    const kinds = (await eventsOf(org.organizationId, 'degraded', 'degraded_recovered', 'down', 'recovered')).map(
      (e) => [e.type, new Date(e.occurredAt).toISOString().slice(11, 16)],
    );
    expect(kinds).toEqual([
      ['degraded', '09:02'],
      ['down', '09:04'],
      ['recovered', '09:05'],
      ['degraded', '09:05'],
      ['degraded_recovered', '09:06'],
    ]);
    // 09:00 → 09:10: degraded 09:02 → 09:03 (the failing run from 09:03 is downtime) and 09:05 → 09:06 = 120 s;
    // down 09:03 → 09:05 = 120 s; monitored 09:01 → 09:10 = 540 s; uptime = 100 × 420 / 540.
    clock.set(`${day}T09:30:00Z`);
    const r = await c.call(
      'GET',
      `/api/v1/reports/availability?from=${day}T09:00:00Z&to=${day}T09:10:00Z&monitor_ids=${id}`,
    );
    expect(r.body.monitors[0]).toMatchObject({ degraded_seconds: 120, downtime_seconds: 120, monitored_seconds: 540 });
    expect(r.body.monitors[0].uptime_percent).toBeCloseTo((100 * 420) / 540, 4);
  });

  it('several regions: failures in fewer regions than confirm_regions are degraded, not down', async () => {
    const day = '2026-04-04';
    const { org, c, hookId } = await setup(day);
    const id = await c.createMonitor({
      name: 'Edge',
      region_codes: ['local', 'eu', 'us'],
      config: { failure_threshold: 2, alert_destination_ids: [hookId] },
    });
    const statusOf = async () => (await c.call('GET', `/api/v1/monitors/${id}`)).body.status as string;
    const t0 = at(`${day}T09:00:00Z`);
    for (const region of ['local', 'eu', 'us']) await c.check(id, 'up', t0 + MIN, region);
    expect(await statusOf()).toBe('up');
    await c.check(id, 'down', t0 + 2 * MIN, 'eu');
    await c.check(id, 'down', t0 + 3 * MIN, 'eu'); // eu: 2 failures, 1 region of the 2 confirm_regions needs
    expect(await statusOf()).toBe('degraded');
    expect((await c.call('GET', `/api/v1/incidents?monitor_id=${id}`)).body.data).toEqual([]);
    const [degraded] = await eventsOf(org.organizationId, 'degraded');
    expect(degraded!.payload).toMatchObject({ cause: 'check failed (failing in 1 of 3 regions: eu)' });
    await c.check(id, 'down', t0 + 3 * MIN + 10_000, 'us');
    await c.check(id, 'down', t0 + 4 * MIN, 'us'); // a majority: down
    expect(await statusOf()).toBe('down');
    // A region's data lasts 2 × interval + 60 s: local reports again to stay in the quorum.
    await c.check(id, 'up', t0 + 5 * MIN, 'local');
    expect(await statusOf()).toBe('down');
    await c.check(id, 'up', t0 + 5 * MIN + 10_000, 'us'); // 2 passing (local, us), eu still failing: degraded
    expect(await statusOf()).toBe('degraded');
    await c.check(id, 'up', t0 + 6 * MIN, 'eu');
    expect(await statusOf()).toBe('up');
    expect((await delivered()).map((b) => b.event)).toEqual([
      'degraded',
      'down',
      'recovered',
      'degraded',
      'degraded_recovered',
    ]);
  });

  it('inside a maintenance window that suppresses alerts no degraded is sent, nor its end', async () => {
    const day = '2026-04-05';
    const { org, c, hookId } = await setup(day);
    const id = await c.createMonitor({
      name: 'Reports',
      config: { degraded_latency_ms: 200, failure_threshold: 1, alert_destination_ids: [hookId] },
    });
    const w = await c.call('POST', '/api/v1/maintenance-windows', {
      name: 'Reindex',
      monitor_ids: [id],
      schedule: { type: 'once', starts_at: `${day}T10:00:00Z`, ends_at: `${day}T11:00:00Z` },
    });
    expect(w.status, JSON.stringify(w.body)).toBe(201);
    await c.check(id, 'up', at(`${day}T09:50:00Z`), 'local', 50);
    await c.check(id, 'up', at(`${day}T10:10:00Z`), 'local', 900); // degraded inside the window
    clock.set(`${day}T10:20:00Z`);
    expect((await c.call('GET', `/api/v1/monitors/${id}`)).body.status).toBe('maintenance');
    expect((await c.call('GET', '/api/v1/monitors?status=degraded')).body.data).toEqual([]);
    await c.check(id, 'up', at(`${day}T11:10:00Z`), 'local', 50); // up after the window
    expect(await eventsOf(org.organizationId, 'degraded', 'degraded_recovered')).toEqual([]);
    expect(await delivered()).toEqual([]);

    // Degraded before the window and announced: its end inside the window is announced too (closes the alert).
    await c.check(id, 'up', at(`${day}T11:20:00Z`), 'local', 900);
    expect((await eventsOf(org.organizationId, 'degraded')).length).toBe(1);
  });

  it('a real slow HTTP target makes the monitor degraded through the local runner', async () => {
    clock.set('2026-04-06T09:00:00Z');
    const org = await t.createOrg();
    const c = clientOf(t, org);
    let delayMs = 400;
    const target: RunningTarget = await startHttpTarget((_req, res) => {
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('ok');
      }, delayMs);
    });
    try {
      const id = await c.createMonitor({
        target: target.url,
        interval_seconds: 30,
        config: { degraded_latency_ms: 150, failure_threshold: 1 },
      });
      const round = async () => {
        clock.advance(30_000);
        return t.tocsin.services.checks.localRunner.runOnce();
      };
      // Other organizations' monitors of this app are due too: whatever the count, this one was checked.
      expect(await round()).toBeGreaterThanOrEqual(1);
      const m = await c.call('GET', `/api/v1/monitors/${id}`);
      expect(m.body.status).toBe('degraded');
      const exe = await c.call('GET', `/api/v1/monitors/${id}/executions`);
      expect(exe.body.data[0].status).toBe('up');
      expect(exe.body.data[0].duration_ms).toBeGreaterThan(150);
      delayMs = 0;
    } finally {
      await target.close();
    }
  });

  it('refuses a degraded_latency_ms that is not positive or not below timeout_ms (422 naming the field)', async () => {
    const org = await t.createOrg();
    const c = clientOf(t, org);
    const bad: Array<[Json, string]> = [
      [{ degraded_latency_ms: 0 }, 'config.degraded_latency_ms'],
      [{ degraded_latency_ms: -5 }, 'config.degraded_latency_ms'],
      [{ degraded_latency_ms: 10_000 }, 'config.degraded_latency_ms'], // = the default timeout
      [{ degraded_latency_ms: 3_000, timeout_ms: 2_000 }, 'config.degraded_latency_ms'],
      [{ degraded_latency_ms: 'slow' }, 'config.degraded_latency_ms'],
    ];
    for (const [config, field] of bad) {
      const res = await c.call('POST', '/api/v1/monitors', { target: 'https://x.example.com/', config });
      expect(res.status, JSON.stringify(config)).toBe(422);
      expect(res.body.error.code).toBe('validation_failed');
      expect((res.body.error.details as Json[]).map((d) => d.field)).toContain(field);
    }
    expect((await c.call('GET', '/api/v1/monitors')).body.data).toEqual([]);
    const id = await c.createMonitor({ config: { degraded_latency_ms: 800 } });
    const patch = await c.call('PATCH', `/api/v1/monitors/${id}`, { config: { timeout_ms: 500 } });
    expect(patch.status).toBe(422);
    expect((patch.body.error.details as Json[]).map((d) => d.field)).toEqual(['config.degraded_latency_ms']);
    const kept = await c.call('GET', `/api/v1/monitors/${id}`);
    expect(kept.body.config).toMatchObject({ degraded_latency_ms: 800, timeout_ms: 10_000 });
  });
});
