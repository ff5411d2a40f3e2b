/**
 * DECISIONS §16: no intelligence alert for what happens inside a maintenance window that suppresses alerts. Checks
 * go through the real engine; intelligence reads each committed batch (its analytics); the alert pipeline delivers
 * to a real local HTTP receiver with a signed generic webhook. On SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../fakes/index.ts';
import { api, WEBHOOKS } from '../alerting/helpers.ts';
import { createTestApp, ManualClock, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

const STEP = 20_000;

for (const dialect of testDialects()) {
  describe(`intelligence alerts inside maintenance windows (${dialect})`, () => {
    let t: TestApp;
    let org: TestOrg;
    let receiver: WebhookReceiver;
    const clock = new ManualClock(Date.parse('2026-05-04T08:00:00.000Z'));
    const secret = { value: '' };

    beforeAll(async () => {
      receiver = await startWebhookReceiver({
        get secret() {
          return secret.value;
        },
        now: () => clock.now(),
      } as { secret: string });
      t = await createTestApp({ dialect, clock });
    });
    beforeEach(async () => {
      org = await t.createOrg();
      receiver.reset();
    });
    afterAll(async () => {
      await t.close();
      await receiver.close();
    });

    /** A monitor with a 300 ms latency threshold (three slow checks in a row: performance_anomaly) and its hook. */
    async function setup(name: string): Promise<Json> {
      const hook = await api(t, org.apiKey, 'POST', WEBHOOKS, {
        type: 'generic_webhook',
        name: `${name} hook`,
        events: ['performance_anomaly', 'performance_recovered', 'incident_opened', 'down'],
        config: { url: receiver.webhookUrl },
      });
      expect(hook.status, JSON.stringify(hook.body)).toBe(201);
      secret.value = (hook.body as Json).signing_secret as string;
      const m = await api(t, org.apiKey, 'POST', '/api/v1/monitors', {
        name,
        target: `https://${name.toLowerCase().replace(/[^a-z]/g, '')}.example.com/`,
        interval_seconds: 20,
        config: {
          alert_latency_ms: 300,
          intelligence_incidents: true,
          alert_destination_ids: [(hook.body as Json).id],
        },
      });
      expect(m.status, JSON.stringify(m.body)).toBe(201);
      return m.body as Json;
    }

    async function window(monitorId: string, from: number, to: number, suppress = true): Promise<void> {
      const res = await api(t, org.apiKey, 'POST', '/api/v1/maintenance-windows', {
        name: 'Cache rebuild',
        monitor_ids: [monitorId],
        suppress_alerts: suppress,
        schedule: { type: 'once', starts_at: new Date(from).toISOString(), ends_at: new Date(to).toISOString() },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }

    /** `count` passing checks of `latencyMs` each, one per batch, 20 s apart, each read by intelligence. */
    async function checks(m: Json, count: number, latencyMs: number): Promise<void> {
      const engine = t.tocsin.services.checks.engine;
      for (let k = 0; k < count; k++) {
        clock.advance(STEP);
        await engine.applyResults('test', [
          {
            monitorId: m.id as string,
            regionCode: m.region_codes[0] as string,
            dueAt: clock.now(),
            observation: {
              status: 'up',
              started_at: clock.now(),
              duration_ms: latencyMs,
              timings: {
                dns_ms: null,
                connect_ms: null,
                tls_ms: null,
                ttfb_ms: null,
                download_ms: null,
                total_ms: latencyMs,
              },
              http_status: 200,
              assertions: [],
              error: null,
            },
          },
        ]);
        await engine.analyticsSettled();
      }
    }

    async function delivered(): Promise<string[]> {
      await t.tocsin.services.alerting.pipeline.runUntilIdle();
      return receiver.verified().map((r) => (JSON.parse(r.rawBody) as Json).event as string);
    }

    async function storedKinds(monitorId: string): Promise<string[]> {
      const res = await api(t, org.apiKey, 'GET', `/api/v1/intelligence/events?monitor_id=${monitorId}`);
      return ((res.body as Json).data as Json[]).map((e) => e.kind as string);
    }

    async function incidents(monitorId: string): Promise<Json[]> {
      const res = await api(t, org.apiKey, 'GET', `/api/v1/incidents?monitor_id=${monitorId}`);
      return (res.body as Json).data as Json[];
    }

    it('an anomaly found inside a window is stored, not alerted and opens no incident; nor is its end, after the window', async () => {
      const m = await setup('Search');
      await checks(m, 3, 50);
      const start = clock.now();
      await window(m.id as string, start, start + 10 * 60_000);
      await checks(m, 4, 650); // slow inside the window: performance_anomaly found at the third
      expect(await storedKinds(m.id as string)).toEqual(['performance_anomaly']);
      expect(await delivered()).toEqual([]);
      expect(await incidents(m.id as string)).toEqual([]);
      clock.set(start + 11 * 60_000); // the window is over; the anomaly found inside ends now
      await checks(m, 3, 50);
      expect(await storedKinds(m.id as string)).toEqual(['performance_recovered', 'performance_anomaly']);
      expect(await delivered()).toEqual([]);
      expect(
        (await t.tocsin.services.events.readAfter(0, 100_000)).filter(
          (e) => e.monitorId === m.id && e.type !== 'monitor_status_changed',
        ),
      ).toEqual([]);

      // The same monitor slow again after the window: alerted as usual, with its incident.
      await checks(m, 3, 650);
      expect(await delivered()).toEqual(['incident_opened', 'performance_anomaly']);
      expect(await incidents(m.id as string)).toHaveLength(1);
    });

    it('an anomaly alerted before a window still has its end told when it ends inside the window', async () => {
      const m = await setup('Catalog');
      await checks(m, 3, 50);
      await checks(m, 3, 650);
      expect(await delivered()).toEqual(['incident_opened', 'performance_anomaly']);
      const start = clock.now() + 1;
      await window(m.id as string, start, start + 10 * 60_000);
      await checks(m, 3, 50);
      expect(await delivered()).toEqual(['incident_opened', 'performance_anomaly', 'performance_recovered']);
      expect((await incidents(m.id as string))[0]).toMatchObject({ status: 'resolved' });
    });

    it('a window with suppress_alerts false leaves intelligence alerts as they are', async () => {
      const m = await setup('Checkout');
      await checks(m, 3, 50);
      const start = clock.now();
      await window(m.id as string, start, start + 10 * 60_000, false);
      await checks(m, 3, 650);
      expect(await delivered()).toEqual(['incident_opened', 'performance_anomaly']);
    });
  });
}
