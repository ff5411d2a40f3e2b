/**
 * `duration_seconds` means one thing everywhere (DECISIONS §6, §11): the outage, from the first failing check to the
 * recovery. Scenario (failure threshold 2, checks every 30 s): down at 10:00:00 and 10:00:30 (the incident opens at
 * the second), up at 10:01:30. The outage lasted 90 s; the incident was open 60 s (`time_to_resolve_seconds`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ManualClock, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../fakes/index.ts';
import { at, clientOf } from '../reports/reports.helpers.ts';
import { WEBHOOKS } from '../alerting/helpers.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are inspected loosely in tests
type Json = Record<string, any>;

describe.each(testDialects())('duration_seconds: one meaning (%s)', (dialect) => {
  let t: TestApp;
  let org: TestOrg;
  let c: ReturnType<typeof clientOf>;
  let receiver: WebhookReceiver;
  let monitorId = '';
  let incident: Json = {};
  const slug = `durations-${dialect}`;

  beforeAll(async () => {
    const clock = new ManualClock('2026-11-20T09:00:00.000Z');
    t = await createTestApp({ dialect, clock });
    org = await t.createOrg();
    c = clientOf(t, org);
    receiver = await startWebhookReceiver({ secret: 'unused' });
    const hook = await c.call('POST', WEBHOOKS, {
      type: 'generic_webhook',
      name: 'Hook',
      config: { url: receiver.webhookUrl },
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    monitorId = await c.createMonitor({
      name: 'Shop',
      interval_seconds: 30,
      config: { failure_threshold: 2, alert_destination_ids: [hook.body.id] },
    });
    await c.check(monitorId, 'up', at('2026-11-20T09:59:30Z'));
    clock.set('2026-11-20T10:00:00Z');
    await c.check(monitorId, 'down', at('2026-11-20T10:00:00Z'));
    clock.set('2026-11-20T10:00:30Z');
    await c.check(monitorId, 'down', at('2026-11-20T10:00:30Z'));
    clock.set('2026-11-20T10:01:30Z');
    await c.check(monitorId, 'up', at('2026-11-20T10:01:30Z'));
    await t.tocsin.services.alerting.pipeline.runUntilIdle();
    clock.set('2026-11-20T12:00:00Z');
    const list = await c.call('GET', `/api/v1/incidents?monitor_id=${monitorId}`);
    incident = list.body.data[0] as Json;
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  it('the incident record: duration_seconds from down_since, time_to_resolve_seconds from opened_at', async () => {
    expect(incident).toMatchObject({
      opened_at: '2026-11-20T10:00:30.000Z',
      down_since: '2026-11-20T10:00:00.000Z',
      resolved_at: '2026-11-20T10:01:30.000Z',
      duration_seconds: 90,
      time_to_acknowledge_seconds: null,
      time_to_resolve_seconds: 60,
    });
    const one = await c.call('GET', `/api/v1/incidents/${incident.id as string}`);
    expect(one.body).toMatchObject({ duration_seconds: 90, time_to_resolve_seconds: 60 });
  });

  it('the reports and the public page give the same figure', async () => {
    const range = 'from=2026-11-20T00:00:00Z&to=2026-11-21T00:00:00Z';
    const incidents = await c.call('GET', `/api/v1/reports/incidents?${range}`);
    expect(incidents.status, JSON.stringify(incidents.body)).toBe(200);
    expect(incidents.body.incidents[0]).toMatchObject({ duration_seconds: 90, time_to_resolve_seconds: 60 });
    const availability = await c.call('GET', `/api/v1/reports/availability?monitor_ids=${monitorId}&${range}`);
    expect(availability.body.monitors[0].incidents[0]).toMatchObject({ duration_seconds: 90 });
    const page = await c.call('POST', '/api/v1/status-pages', { slug, title: 'Shop', monitor_ids: [monitorId] });
    expect(page.status, JSON.stringify(page.body)).toBe(201);
    const pub = (await t.tocsin.app.inject({ method: 'GET', url: `/status/${slug}.json` })).json() as Json;
    expect(pub.past_incidents[0]).toMatchObject({ started_at: incident.down_since, duration_seconds: 90 });
  });

  it('the alerts say the same: down since the first failing check, recovered after 1m 30s', async () => {
    const events = receiver.requests.map((r) => r.json as Json);
    expect(events.map((e) => e.event)).toEqual(['down', 'recovered']);
    expect(events[0]!.message).toContain('(since 2026-11-20T10:00:00Z)');
    expect(events[1]!.message).toContain('Recovered after 1m 30s of downtime (down since 2026-11-20T10:00:00Z)');
  });
});
