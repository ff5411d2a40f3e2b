import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProbeRegistry } from '../../src/modules/checks/index.ts';
import {
  startIncidentTool1Fake,
  startIncidentTool2Fake,
  type IncidentTool1Fake,
  type IncidentTool2Fake,
} from '../fakes/index.ts';
import { api, WEBHOOKS } from '../alerting/helpers.ts';
import { createTestApp, ManualClock, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { startHttpTarget, type RunningTarget } from '../support/targets/index.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- API bodies are inspected loosely
type Json = Record<string, any>;

/**
 * Incident tools only create incidents (interface spec). With `intelligence_incidents`, a slow period opens an incident
 * with source `intelligence`: its `incident_opened` creates one incident in incident.io and one in Rootly; the
 * intelligence events themselves and the automatic resolution send them nothing. Real probes, the engine's batch,
 * the outbox and the delivery pipeline against the providers' fakes on loopback.
 */
for (const dialect of testDialects()) {
  describe(`intelligence incidents reach incident tools (${dialect})`, () => {
    let t: TestApp;
    let org: TestOrg;
    let clock: ManualClock;
    let target: RunningTarget;
    let incidentIo: IncidentTool1Fake;
    let rootly: IncidentTool2Fake;
    let delayMs = 20;
    const registry = createProbeRegistry();

    beforeAll(async () => {
      clock = new ManualClock(Date.now());
      [incidentIo, rootly] = await Promise.all([startIncidentTool1Fake(), startIncidentTool2Fake()]);
      target = await startHttpTarget((_req, res) => {
        setTimeout(() => {
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.end('fine');
        }, delayMs);
      });
      t = await createTestApp({
        dialect,
        clock,
        configFile: {
          providers: { incident_tool1: { base_url: incidentIo.url }, incident_tool2: { base_url: rootly.url } },
        },
      });
      org = await t.createOrg();
    });
    afterAll(async () => {
      await t.close();
      await target.close();
      await incidentIo.close();
      await rootly.close();
    });

    async function check(m: Json): Promise<void> {
      clock.advance(20_000);
      const observation = await registry.run(
        { id: m.id, type: m.type, target: m.target, interval_seconds: m.interval_seconds, config: m.config },
        { now: () => clock.now(), allowPrivateTargets: true },
      );
      await t.tocsin.services.checks.engine.applyResults('e2e', [
        { monitorId: m.id as string, regionCode: m.region_codes[0] as string, dueAt: clock.now(), observation },
      ]);
      // Intelligence reads each batch after its commit (the engine's analytics).
      await t.tocsin.services.checks.engine.analyticsSettled();
      await t.tocsin.services.alerting.pipeline.runUntilIdle();
    }

    it('a slow period opens one incident in each tool (from incident_opened), nothing for the events or the recovery', async () => {
      const events = ['down', 'incident_opened', 'performance_anomaly', 'performance_recovered', 'incident_resolved'];
      const ids: string[] = [];
      for (const [type, config] of [
        ['incident_tool1', { api_key: incidentIo.apiKey, severity_id: incidentIo.severityIds[0] }],
        ['incident_tool2', { api_key: rootly.apiKey }],
      ] as const) {
        const res = await api(t, org.apiKey, 'POST', WEBHOOKS, { type, name: `Ops ${type}`, events, config });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        ids.push((res.body as Json).id as string);
      }
      const created = await api(t, org.apiKey, 'POST', '/api/v1/monitors', {
        name: 'Checkout',
        target: `${target.url}/`,
        interval_seconds: 20,
        config: { alert_latency_ms: 300, intelligence_incidents: true, alert_destination_ids: ids },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const m = created.body as Json;
      for (let i = 0; i < 2; i++) await check(m);
      delayMs = 600;
      for (let i = 0; i < 3; i++) await check(m);
      const incidents = await api(t, org.apiKey, 'GET', `/api/v1/incidents?monitor_id=${m.id}`);
      expect((incidents.body as Json).data).toMatchObject([{ source: 'intelligence', status: 'opened' }]);
      const number = (incidents.body as Json).data[0].number as number;
      expect(incidentIo.incidents.map((i) => i.body.name)).toEqual([
        `Incident #${number} opened: Slow responses: Checkout`,
      ]);
      expect(incidentIo.incidents[0]!.body.summary).toContain('alert_latency_ms');
      expect(rootly.incidents.map((i) => i.attributes.title)).toEqual([
        `Incident #${number} opened: Slow responses: Checkout`,
      ]);
      expect(rootly.incidents[0]!.attributes.labels).toMatchObject({ tocsin_incident_source: 'intelligence' });
      delayMs = 20;
      for (let i = 0; i < 3; i++) await check(m);
      const after = await api(t, org.apiKey, 'GET', `/api/v1/incidents?monitor_id=${m.id}`);
      expect((after.body as Json).data).toMatchObject([{ source: 'intelligence', status: 'resolved' }]);
      // Neither the recovery nor the resolution reaches the tools: their incidents are left for humans.
      expect(incidentIo.incidents).toHaveLength(1);
      expect(rootly.incidents).toHaveLength(1);
    });
  });
}
