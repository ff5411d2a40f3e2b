import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IntelligenceCheck } from '../../src/modules/intelligence/index.ts';
import { bearer, createTestApp, ManualClock, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are inspected loosely in tests
type Json = Record<string, any>;

for (const dialect of testDialects()) {
  describe(`${dialect}: intelligence API`, () => {
    let t: TestApp;
    let org: TestOrg;
    let clock: ManualClock;

    beforeAll(async () => {
      clock = new ManualClock('2026-04-01T08:00:00.000Z');
      t = await createTestApp({ dialect, clock });
      org = await t.createOrg();
    });
    afterAll(async () => t.close());

    async function get(url: string, key = org.apiKey) {
      const res = await t.tocsin.app.inject({ method: 'GET', url, headers: bearer(key) });
      return { status: res.statusCode, body: res.json() as Json };
    }

    async function monitor(environment = 'production'): Promise<Json> {
      clock.advance(1);
      const res = await t.tocsin.app.inject({
        method: 'POST',
        url: '/api/v1/monitors',
        headers: bearer(org.apiKey),
        payload: { name: `Site ${environment}`, target: 'https://example.com', environment },
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json() as Json;
    }

    /** Three slow checks then three fast ones against alert_latency_ms 300. */
    async function slowThenFast(m: Json, openIncidents: boolean): Promise<void> {
      const start = clock.now();
      const checks: IntelligenceCheck[] = [900, 900, 900, 40, 40, 40].map((latencyMs, i) => ({
        organizationId: org.organizationId,
        monitorId: m.id as string,
        monitorName: m.name as string,
        target: m.target as string,
        type: 'http',
        regionCode: 'local',
        at: start + i * 20_000,
        up: true,
        latencyMs,
        alertLatencyMs: 300,
        openIncidents,
      }));
      await t.tocsin.database.transaction((tx) => t.tocsin.services.intelligence.applyChecks(tx, checks));
      clock.advance(10 * 20_000);
    }

    it('lists and reads events with the §13 record, opening and resolving an intelligence incident', async () => {
      const m = await monitor();
      await slowThenFast(m, true);
      const list = await get(`/api/v1/intelligence/events?monitor_id=${m.id}`);
      expect(list.status).toBe(200);
      expect(list.body.next_cursor).toBeNull();
      const [recovered, slow] = list.body.data as Json[];
      expect(slow).toMatchObject({
        monitor_id: m.id,
        region_code: 'local',
        category: 'performance',
        kind: 'performance_anomaly',
        severity: 'warning',
        summary: 'Response time 900 ms is above alert_latency_ms 300 ms (3 checks in a row).',
        before: { threshold_ms: 300 },
        after: { latency_ms: 900, threshold_ms: 300 },
        incident_id: expect.stringMatching(/^inc_/),
      });
      expect(slow.id).toMatch(/^ine_/);
      expect(slow.ended_at).toBe(recovered.ended_at);
      expect(recovered).toMatchObject({ kind: 'performance_recovered', started_at: slow.started_at });
      const one = await get(`/api/v1/intelligence/events/${slow.id}`);
      expect(one).toMatchObject({ status: 200, body: slow });
      const incident = await get(`/api/v1/incidents/${slow.incident_id}`);
      expect(incident.body).toMatchObject({
        source: 'intelligence',
        monitor_id: m.id,
        status: 'resolved',
        resolved_by: 'auto',
      });
      expect(incident.body.title).toBe(`Slow responses: ${m.name}`);
    });

    it('pages with a cursor and filters by category and kind', async () => {
      const m = await monitor();
      await slowThenFast(m, false);
      await slowThenFast(m, false);
      const first = await get(`/api/v1/intelligence/events?monitor_id=${m.id}&kind=performance_anomaly&limit=1`);
      expect(first.body.data).toHaveLength(1);
      const second = await get(
        `/api/v1/intelligence/events?monitor_id=${m.id}&kind=performance_anomaly&limit=1&cursor=${first.body.next_cursor}`,
      );
      expect(second.body.data).toHaveLength(1);
      expect(second.body.data[0].id < first.body.data[0].id).toBe(true);
      expect(second.body.next_cursor).toBeNull();
      const dns = await get(`/api/v1/intelligence/events?monitor_id=${m.id}&category=dns`);
      expect(dns.body.data).toEqual([]);
    });

    it('answers 422 for bad filters, 403 without intelligence:read, 404 across environments and organizations', async () => {
      expect((await get('/api/v1/intelligence/events?category=weather')).status).toBe(422);
      const badCursor = await get('/api/v1/intelligence/events?cursor=nope');
      expect(badCursor.status).toBe(422);
      expect(badCursor.body.error.details[0].field).toBe('cursor');
      expect((await get('/api/v1/intelligence/events?from=2026-05-01T00:00:00Z&to=2026-04-01T00:00:00Z')).status).toBe(
        422,
      );

      const staging = await monitor('staging');
      await slowThenFast(staging, false);
      const all = await get(`/api/v1/intelligence/events?monitor_id=${staging.id}`);
      const id = all.body.data[0].id as string;
      const prodOnly = await t.createOrg({ environments: ['production'] });
      // another organization's key (production only) sees neither the list entry nor the event
      expect((await get(`/api/v1/intelligence/events/${id}`, prodOnly.apiKey)).status).toBe(404);
      const noScope = await t.createOrg({ scopes: ['monitors:read'] });
      const denied = await get('/api/v1/intelligence/events', noScope.apiKey);
      expect(denied.status).toBe(403);
      expect(denied.body.error.code).toBe('insufficient_scope');
    });

    it('hides events of monitors in environments the key does not have', async () => {
      const staging = await monitor('staging');
      await slowThenFast(staging, false);
      const key = await t.tocsin.services.auth.issueKey({
        organizationId: org.organizationId,
        name: 'prod only',
        scopes: ['intelligence:read'],
        environments: ['production'],
        userId: org.userId,
        createdBy: org.userId,
      });
      const list = await get(`/api/v1/intelligence/events?monitor_id=${staging.id}`, key.key);
      expect(list.body.data).toEqual([]);
      const everything = await get(`/api/v1/intelligence/events?monitor_id=${staging.id}`);
      expect(everything.body.data.length).toBeGreaterThan(0);
      expect((await get(`/api/v1/intelligence/events/${everything.body.data[0].id}`, key.key)).status).toBe(404);
    });

    it('accepts config.intelligence_incidents and content_ignore_patterns, and rejects a broken pattern with 422', async () => {
      const post = (config: Json) =>
        t.tocsin.app.inject({
          method: 'POST',
          url: '/api/v1/monitors',
          headers: bearer(org.apiKey),
          payload: { target: 'https://example.com', config },
        });
      const ok = await post({ intelligence_incidents: true, content_ignore_patterns: ['Generated at \\d+'] });
      expect(ok.statusCode, ok.body).toBe(201);
      expect((ok.json() as Json).config).toMatchObject({
        intelligence_incidents: true,
        content_ignore_patterns: ['Generated at \\d+'],
      });
      const bad = await post({ content_ignore_patterns: ['(unclosed'] });
      expect(bad.statusCode).toBe(422);
      expect((bad.json() as Json).error.details).toEqual([
        { field: 'config.content_ignore_patterns[0]', issue: 'must be a regular expression of 1 to 200 characters' },
      ]);
      const notBool = await post({ intelligence_incidents: 'yes' });
      expect(notBool.statusCode).toBe(422);
      expect((notBool.json() as Json).error.details[0].field).toBe('config.intelligence_incidents');
    });

    it('lists correlations: two monitors on one address failing together', async () => {
      const [a, b] = [await monitor(), await monitor()];
      const at = clock.now();
      const base = (m: Json, when: number, up: boolean): IntelligenceCheck => ({
        organizationId: org.organizationId,
        monitorId: m.id as string,
        monitorName: m.name as string,
        target: m.target as string,
        type: 'http',
        regionCode: 'local',
        at: when,
        up,
        latencyMs: 40,
        alertLatencyMs: null,
        openIncidents: false,
        details: { headers: {}, remote_address: '203.0.113.80' },
      });
      const svc = t.tocsin.services.intelligence;
      await t.tocsin.database.transaction((tx) => svc.applyChecks(tx, [base(a, at, true), base(b, at, true)]));
      await t.tocsin.database.transaction((tx) =>
        svc.applyChecks(tx, [base(a, at + 60_000, false), base(b, at + 90_000, false)]),
      );
      clock.advance(5 * 60_000);
      const res = await get('/api/v1/intelligence/correlations');
      expect(res.status).toBe(200);
      const mine = (res.body.data as Json[]).filter((c) => c.value === '203.0.113.80');
      expect(mine).toMatchObject([{ attribute: 'address', monitor_ids: [a.id, b.id].sort(), coverage: 1 }]);
      expect(mine[0]!.id).toMatch(/^cor_/);
      expect((await get('/api/v1/intelligence/correlations?from=nope')).status).toBe(422);
    });

    it('shows a monitor’s current grades and history', async () => {
      const m = await monitor();
      const svc = t.tocsin.services.intelligence;
      const subject = {
        organizationId: org.organizationId,
        id: m.id as string,
        name: m.name as string,
        target: m.target as string,
        openIncidents: false,
      };
      await t.tocsin.database.transaction((tx) =>
        svc.recordGrade(
          tx,
          subject,
          'tls',
          {
            grade: 'A',
            score: 93,
            reasons: ['no Strict-Transport-Security header'],
            not_tested: ['TLS_FALLBACK_SCSV'],
          },
          clock.now(),
        ),
      );
      const grades = await get(`/api/v1/monitors/${m.id}/grades`);
      expect(grades.status).toBe(200);
      expect(grades.body).toMatchObject({
        monitor_id: m.id,
        current: [
          {
            kind: 'tls',
            grade: 'A',
            score: 93,
            reasons: ['no Strict-Transport-Security header'],
            not_tested: ['TLS_FALLBACK_SCSV'],
          },
        ],
      });
      expect(grades.body.history).toHaveLength(1);
      expect((await get('/api/v1/monitors/mon_01kaaaaaaaaaaaaaaaaaaaaaaa/grades')).status).toBe(404);
    });
  });
}
