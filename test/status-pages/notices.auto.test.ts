/**
 * auto_notices (DECISIONS §18) through the real check engine: results fed to `applyResults` as a runner reports them
 * open a monitor's incident, and in the same transaction every page that shows the monitor and asked for drafts gets
 * one unpublished incident notice with the facts (the monitor, since when, the regions that saw it, the cause). Pages
 * without auto_notices, pages not showing the monitor, an outage still open and an incident held by a down parent
 * draft nothing; the public page and the feeds show no draft.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckResult, Observation } from '../../src/modules/checks/index.ts';
import { bearer, createTestApp, ManualClock, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

function observation(status: 'up' | 'down', at: number): Observation {
  return {
    status,
    started_at: at,
    duration_ms: 12,
    timings: { dns_ms: 1, connect_ms: 2, tls_ms: 3, ttfb_ms: 5, download_ms: 1, total_ms: 12 },
    http_status: status === 'up' ? 200 : 503,
    assertions: [],
    error: status === 'up' ? null : { code: 'connect_refused', message: 'connection refused' },
  };
}

for (const dialect of testDialects()) {
  describe(`auto_notices drafts (${dialect})`, () => {
    let t: TestApp;
    let org: TestOrg;
    let clock: ManualClock;
    let n = 0;

    beforeAll(async () => {
      clock = new ManualClock(Date.parse('2026-06-01T08:00:00.000Z'));
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
    async function monitor(name: string, dependsOn?: string[]): Promise<string> {
      clock.advance(1);
      const res = await call('POST', '/api/v1/monitors', {
        name,
        target: `https://${name.toLowerCase().replace(/[^a-z0-9]/g, '-')}.example.com/health`,
        interval_seconds: 60,
        config: { failure_threshold: 2, ...(dependsOn && { depends_on: dependsOn }) },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.id as string;
    }
    async function page(monitorIds: string[], autoNotices: boolean): Promise<{ id: string; slug: string }> {
      const slug = `auto-${dialect}-${++n}`;
      const res = await call('POST', '/api/v1/status-pages', {
        slug,
        title: 'Auto',
        monitor_ids: monitorIds,
        auto_notices: autoNotices,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return { id: res.body.id as string, slug };
    }
    async function report(ids: readonly string[], status: 'up' | 'down', at: number): Promise<void> {
      const results: CheckResult[] = ids.map((monitorId, i) => ({
        monitorId,
        regionCode: 'local',
        dueAt: at + i,
        observation: observation(status, at + i),
      }));
      clock.set(Math.max(clock.now(), at + ids.length));
      await t.tocsin.services.checks.engine.applyResults('test', results);
    }
    const notices = async (pageId: string) =>
      (await call('GET', `/api/v1/status-pages/${pageId}/notices`)).body.data as Json[];

    it('an incident that opens drafts one notice per page showing the monitor with auto_notices; nothing else', async () => {
      const api = await monitor('Checkout API');
      const other = await monitor('Other');
      const auto = await page([other, api], true);
      const manual = await page([api], false);
      const elsewhere = await page([other], true);
      const t0 = Date.parse('2026-06-01T09:00:00.000Z');
      await report([api, other], 'up', t0);
      await report([api], 'down', t0 + 60_000);
      expect(await notices(auto.id)).toEqual([]); // one failure of failure_threshold 2: not down yet
      await report([api], 'down', t0 + 120_000);
      const incident = (await call('GET', `/api/v1/incidents?monitor_id=${api}`)).body.data[0] as Json;
      expect(incident.status).toBe('opened');

      const drafts = await notices(auto.id);
      expect(drafts).toHaveLength(1);
      expect(drafts[0]).toMatchObject({
        kind: 'incident',
        title: 'Checkout API is unavailable',
        impact: 'major',
        status: 'investigating',
        affected_monitor_ids: [api],
        incident_id: incident.id,
        published: false,
        automatic: true,
      });
      // The facts: the monitor, when the failure began (the first failing check), the region, the cause.
      expect(drafts[0]!.updates).toHaveLength(1);
      expect(drafts[0]!.updates[0].body).toBe(
        [
          'We are investigating a problem with **Checkout API**.',
          '',
          '- Since: 2026-06-01 09:01 UTC',
          '- Seen from: local',
          '- Check result: connection refused',
        ].join('\n'),
      );
      expect(await notices(manual.id)).toEqual([]);
      expect(await notices(elsewhere.id)).toEqual([]);
      // Recorded in the audit log as the system's.
      const audit = await t.tocsin.services.audit.list(
        org.organizationId,
        { action: 'status_page_notice.draft' },
        { limit: 10 },
      );
      expect(audit.data).toHaveLength(1);
      expect(audit.data[0]).toMatchObject({
        actor: { type: 'system', name: 'auto notices' },
        target: { type: 'status_page_notice', id: drafts[0]!.id },
      });
      // A draft is on no public page and in no feed.
      const html = await t.tocsin.app.inject({ method: 'GET', url: `/status/${auto.slug}` });
      expect(html.body).not.toContain('Checkout API is unavailable');
      const atom = await t.tocsin.app.inject({ method: 'GET', url: `/status/${auto.slug}/feed.atom` });
      expect(atom.body).not.toContain('<entry>');

      // Still down: the same incident, no second draft. Recovered and down again: a new incident, a new draft.
      await report([api], 'down', t0 + 180_000);
      expect(await notices(auto.id)).toHaveLength(1);
      await report([api], 'up', t0 + 240_000);
      await report([api], 'down', t0 + 300_000);
      await report([api], 'down', t0 + 360_000);
      const again = await notices(auto.id);
      expect(again).toHaveLength(2);
      expect(again[0]!.incident_id).not.toBe(incident.id);
    });

    it('a page that turns auto_notices on later drafts from the next incident; a held child drafts nothing', async () => {
      const router = await monitor('Router');
      const service = await monitor('Service', [router]);
      const p = await page([router, service], false);
      const t0 = Date.parse('2026-06-02T09:00:00.000Z');
      await report([router, service], 'up', t0);
      expect((await call('PATCH', `/api/v1/status-pages/${p.id}`, { auto_notices: true })).status).toBe(200);
      await report([router], 'down', t0 + 60_000);
      await report([router], 'down', t0 + 120_000);
      // The parent is down: the child's incident opens held (DECISIONS §17), alerting nobody, drafting nothing.
      await report([service], 'down', t0 + 130_000);
      await report([service], 'down', t0 + 190_000);
      const held = (await call('GET', `/api/v1/incidents?monitor_id=${service}`)).body.data[0] as Json;
      expect(held.blocked_by).toEqual([router]);
      const drafts = await notices(p.id);
      expect(drafts.map((d) => d.affected_monitor_ids)).toEqual([[router]]);
    });
  });
}
