/**
 * The intelligence and monitor-health reports through the real app, on SQLite and PostgreSQL: which events a
 * period holds (changes, anomalies still open at its start), counts, correlations, environments of the key; each
 * monitor-health rule firing on a monitor whose history was played through CheckEngine.applyResults; CSV rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Observation } from '../../src/modules/checks/index.ts';
import type { IntelligenceEvent, StoredCorrelation } from '../../src/modules/intelligence/index.ts';
import { IntelligenceRepository } from '../../src/modules/intelligence/intelligence.repository.ts';
import { newId } from '../../src/platform/ids.ts';
import { createTestApp, ManualClock, type TestApp } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { parseCsv } from './csv.parse.ts';
import { at, clientOf } from './reports.helpers.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies in assertions

const MIN = 60_000;

describe.each(testDialects())('intelligence and monitor-health reports on %s', (dialect) => {
  let t: TestApp;
  const clock = new ManualClock('2026-05-01T00:00:00.000Z');

  beforeAll(async () => {
    t = await createTestApp({
      dialect,
      clock,
      configFile: { plans: { enterprise: { interval_floor_seconds: 1 }, team: { reports: false } } },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('intelligence: events of the period by category, severity and monitor; correlations; environments', async () => {
    const org = await t.createOrg();
    const c = clientOf(t, org);
    clock.set('2026-04-01T00:00:00Z');
    const shop = await c.createMonitor({ name: 'Shop' });
    const api = await c.createMonitor({ name: 'API', environment: 'staging' });
    const repo = new IntelligenceRepository(t.tocsin.database);
    const event = async (
      name: string,
      monitorId: string,
      o: Pick<IntelligenceEvent, 'category' | 'kind'> & { started: string; ended?: string },
    ) => {
      const startedAt = at(o.started);
      const id = newId('ine', startedAt);
      await repo.insertEvent(
        {
          id,
          organizationId: org.organizationId,
          monitorId,
          regionCode: 'local',
          category: o.category,
          kind: o.kind,
          severity: o.kind === 'security_grade_downgraded' ? 'critical' : 'warning',
          summary: `${name}: "quoted", with comma`,
          before: { value: 'a' },
          after: { value: 'b' },
          startedAt,
          endedAt: o.ended === undefined ? null : at(o.ended),
          incidentId: null,
          createdAt: startedAt,
        },
        null,
      );
      return id;
    };
    const change = { category: 'dns', kind: 'significant_change' } as const;
    const anomaly = { category: 'performance', kind: 'anomaly_alert' } as const;
    const e1 = await event('dns changed', shop, { ...change, started: '2026-05-01T01:00:00Z' });
    await event('old change', shop, { ...change, category: 'headers', started: '2026-04-30T12:00:00Z' });
    const e3 = await event('open anomaly', shop, { ...anomaly, started: '2026-04-30T23:00:00Z' });
    await event('ended anomaly', shop, { ...anomaly, started: '2026-04-30T20:00:00Z', ended: '2026-04-30T22:00:00Z' });
    const e5 = await event('grade', api, {
      category: 'security',
      kind: 'security_grade_downgraded',
      started: '2026-05-01T03:00:00Z',
    });
    const e6 = await event('flapping', shop, {
      category: 'performance',
      kind: 'anomaly_flapping',
      started: '2026-05-01T10:00:00Z',
      ended: '2026-05-01T11:00:00Z',
    });
    await event('at the end', shop, { ...change, started: '2026-05-02T00:00:00Z' });
    const correlation = {
      id: newId('cor', at('2026-05-01T02:55:00Z')),
      organizationId: org.organizationId,
      attribute: 'address',
      value: '203.0.113.7',
      monitorIds: [shop, api],
      coverage: 1,
      summary: 'Shop and API failed together; both resolve to 203.0.113.7.',
      startedAt: at('2026-05-01T02:55:00Z'),
      lastSeenAt: at('2026-05-01T03:05:00Z'),
    } as StoredCorrelation;
    await repo.saveCorrelation(correlation, true);
    clock.set('2026-05-02T01:00:00Z');

    const q = 'from=2026-05-01T00:00:00Z&to=2026-05-02T00:00:00Z';
    const r = await c.call('GET', `/api/v1/reports/intelligence?${q}`);
    expect(r.status).toBe(200);
    // The anomaly still open at the start, the change and the grade drop inside, the flapping inside; not the
    // change before, the anomaly that ended before, nor the change at `to`.
    expect(r.body.events.map((e: Json) => e.id)).toEqual([e3, e1, e5, e6]);
    expect(r.body.summary).toEqual({
      events: 4,
      by_category: { dns: 1, tls: 0, headers: 0, content: 0, infrastructure: 0, performance: 2, security: 1 },
      by_severity: { info: 0, warning: 3, critical: 1 },
      by_monitor: { [shop]: 3, [api]: 1 },
    });
    expect(r.body.events[1]).toMatchObject({
      id: e1,
      monitor_id: shop,
      monitor_name: 'Shop',
      category: 'dns',
      kind: 'significant_change',
      before: { value: 'a' },
      after: { value: 'b' },
      started_at: '2026-05-01T01:00:00.000Z',
      ended_at: null,
    });
    expect(r.body.correlations).toEqual([
      {
        id: correlation.id,
        monitor_ids: [shop, api],
        shared: { attribute: 'address', value: '203.0.113.7' },
        window: { from: '2026-05-01T02:55:00.000Z', to: '2026-05-01T03:05:00.000Z' },
        events: [e3, e5], // the anomaly open through the window, the grade drop inside it
        coverage: 1,
        summary: correlation.summary,
      },
    ]);

    // CSV: one row per event, before/after as JSON text, the same ids.
    const csv = await c.call('GET', `/api/v1/reports/intelligence?${q}&format=csv`);
    const text = csv.raw.rawPayload.toString('utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    const table = parseCsv(text.slice(1));
    expect(table[0]!.slice(0, 14)).toEqual([
      'id',
      'monitor_id',
      'monitor_name',
      'region_code',
      'category',
      'kind',
      'severity',
      'summary',
      'before',
      'after',
      'started_at',
      'ended_at',
      'incident_id',
      'created_at',
    ]);
    expect(table.slice(1).map((row) => row[0])).toEqual([e3, e1, e5, e6]);
    expect(table[2]![7]).toBe('dns changed: "quoted", with comma');
    expect(JSON.parse(table[2]![8]!)).toEqual({ value: 'a' });

    // A key limited to production: the staging monitor's events never appear, nor in the correlation.
    const key = await c.call('POST', '/api/v1/api-keys', {
      name: 'prod',
      scopes: ['reports:read'],
      environments: ['production'],
    });
    const prod = clientOf(t, { ...org, apiKey: key.body.key as string });
    const p = await prod.call('GET', `/api/v1/reports/intelligence?${q}`);
    expect(p.body.events.map((e: Json) => e.id)).toEqual([e3, e1, e6]);
    expect(p.body.summary.by_monitor).toEqual({ [shop]: 3 });
    expect(p.body.correlations.map((x: Json) => [x.monitor_ids, x.events])).toEqual([[[shop], [e3]]]);
    // Filters: monitor_ids keeps that monitor's events; another environment's id is 422.
    const only = await c.call('GET', `/api/v1/reports/intelligence?${q}&monitor_ids=${api}`);
    expect(only.body.events.map((e: Json) => e.id)).toEqual([e5]);
    const refused = await prod.call('GET', `/api/v1/reports/intelligence?${q}&monitor_ids=${api}`);
    expect(refused.status).toBe(422);
    expect(refused.body.error.details[0].field).toBe('monitor_ids[0]');
  });

  it('monitor health: each rule fires on a monitor played through the check engine, with reasons and figures', async () => {
    const org = await t.createOrg();
    const c = clientOf(t, org);
    const apply = async (monitorId: string, when: number, o: Partial<Observation> & { status: 'up' | 'down' }) => {
      await t.tocsin.services.checks.engine.applyResults('test', [
        {
          monitorId,
          regionCode: 'local',
          dueAt: when,
          observation: {
            started_at: when,
            duration_ms: 120,
            timings: { dns_ms: null, connect_ms: 1, tls_ms: null, ttfb_ms: null, download_ms: null, total_ms: 120 },
            http_status: o.status === 'up' ? 200 : 503,
            assertions: [],
            error: null,
            ...o,
          },
        },
      ]);
      // Its intelligence (anomalies) runs after the commit: done before the test reads on.
      await t.tocsin.services.checks.engine.analyticsSettled();
    };
    // Paused since 2026-02-01: 96 days before the end of the window.
    clock.set('2026-02-01T00:00:00Z');
    const paused = await c.createMonitor({ name: 'Paused' });
    expect((await c.call('POST', `/api/v1/monitors/${paused}/pause`)).status).toBe(200);
    clock.set('2026-05-01T00:00:00Z');
    const oneFailure = { failure_threshold: 1 };
    const flappy = await c.createMonitor({ name: 'Flappy', config: oneFailure });
    const missing = await c.createMonitor({ name: 'Missing page', config: oneFailure });
    const never = await c.createMonitor({ name: 'Never' });
    const healthy = await c.createMonitor({ name: 'Healthy' });
    const tight = await c.createMonitor({ name: 'Tight timeout', config: { timeout_ms: 1000 } });
    const t0 = at('2026-05-01T00:00:00Z');
    // Flappy: 15 minutes up, then down/up every minute 3 times (a one-failure threshold makes each a verdict).
    for (let m = 0; m < 15; m++) await apply(flappy, t0 + m * MIN, { status: 'up' });
    for (let m = 15; m < 21; m++) await apply(flappy, t0 + m * MIN, { status: m % 2 === 1 ? 'down' : 'up' });
    // Missing page: one hour of 404s.
    await apply(missing, t0 + 10 * 60 * MIN, {
      status: 'down',
      http_status: 404,
      error: { code: 'http_status', message: 'HTTP 404' },
    });
    await apply(missing, t0 + 11 * 60 * MIN, { status: 'up' });
    for (let m = 0; m < 3; m++) await apply(never, t0 + m * MIN, { status: 'down' });
    await apply(healthy, t0, { status: 'up' });
    for (let m = 0; m < 20; m++) await apply(tight, t0 + m * MIN, { status: 'up', duration_ms: 900 });
    // Every monitor but the paused one alerts a destination.
    const destination = await c.call('POST', '/api/v1/auth/organization/webhooks', {
      type: 'email',
      config: { address: 'ops@example.com' },
      monitor_ids: [flappy, missing, never, healthy, tight],
    });
    expect(destination.status).toBe(201);
    clock.set('2026-05-08T00:00:00Z');

    const q = 'from=2026-05-01T00:00:00Z&to=2026-05-08T00:00:00Z';
    const r = await c.call('GET', `/api/v1/reports/monitor-health?${q}`);
    expect(r.status).toBe(200);
    const found = r.body.monitors.map((m: Json) => [m.name, m.findings.map((f: Json) => f.kind)]);
    expect(found).toEqual([
      ['Flappy', ['noisy', 'flapping']],
      ['Paused', ['misconfigured', 'misconfigured']],
      ['Missing page', ['misconfigured']],
      ['Never', ['never_succeeded']],
      ['Tight timeout', ['misconfigured']],
      ['Healthy', []],
    ]);
    const byName = new Map(r.body.monitors.map((m: Json) => [m.name, m.findings]));
    const flapping = (byName.get('Flappy') as Json[])[1]!;
    // 15 up states, then 6 changes in the newest slots: 35.5 % (worked out in monitor-health.rules.test.ts).
    expect(flapping.evidence).toMatchObject({ max_percent_state_change: 35.5, episodes: 1, interval_seconds: 60 });
    expect((byName.get('Flappy') as Json[])[0]!.evidence).toMatchObject({
      incidents: 3,
      transient_incidents: 3,
      transient_percent: 100,
    });
    expect((byName.get('Missing page') as Json[])[0]!.evidence).toMatchObject({
      rule: 'not_found',
      cause: 'HTTP 404 (expected 2xx or 3xx)',
    });
    expect((byName.get('Never') as Json[])[0]!.evidence).toMatchObject({ checks: 3, successful_checks: 0 });
    expect((byName.get('Paused') as Json[])[0]!).toMatchObject({
      reason: 'Paused for 96 days (more than 60): resume it or delete it.',
      evidence: { rule: 'paused_too_long', paused_days: 96 },
    });
    expect((byName.get('Paused') as Json[])[1]!).toMatchObject({
      reason: 'No alert destination is linked to it: its outages reach nobody.',
      evidence: { rule: 'no_notification_channel', destinations: 0 },
    });
    const timeout = (byName.get('Tight timeout') as Json[])[0]!;
    expect(timeout.evidence.rule).toBe('timeout_below_latency');
    expect(Math.abs(timeout.evidence.p95_ms - 900)).toBeLessThanOrEqual(9); // the sketch: within 1 %
    expect(r.body.summary).toEqual({
      monitors: 6,
      flagged: 5,
      findings: { noisy: 1, flapping: 1, misconfigured: 4, never_succeeded: 1 },
    });

    // CSV: one row per finding, evidence as JSON text.
    const csv = await c.call('GET', `/api/v1/reports/monitor-health?${q}&format=csv`);
    const table = parseCsv(csv.raw.rawPayload.toString('utf8').slice(1));
    expect(table[0]).toEqual([
      'monitor_id',
      'name',
      'kind',
      'reason',
      'evidence',
      'period_from',
      'period_to',
      'timezone',
    ]);
    expect(table.slice(1).map((row) => [row[1], row[2]])).toEqual([
      ['Flappy', 'noisy'],
      ['Flappy', 'flapping'],
      ['Paused', 'misconfigured'],
      ['Paused', 'misconfigured'],
      ['Missing page', 'misconfigured'],
      ['Never', 'never_succeeded'],
      ['Tight timeout', 'misconfigured'],
    ]);
    expect(JSON.parse(table[2]![4]!)).toEqual(flapping.evidence);

    // Bad input and filters as for every report.
    expect((await c.call('GET', '/api/v1/reports/monitor-health?timezone=Nowhere/City')).status).toBe(422);
    const tagged = await c.call('GET', `/api/v1/reports/monitor-health?${q}&monitor_ids=${never},${paused}`);
    expect(tagged.body.monitors.map((m: Json) => m.name)).toEqual(['Paused', 'Never']); // 2 findings, then 1
  });

  it('bad input answers 422 naming the field; plan gate and scope', async () => {
    const c = clientOf(t, await t.createOrg());
    const foreign = await clientOf(t, await t.createOrg()).createMonitor({ name: 'Other' });
    const cases: Array<[string, string]> = [
      ['format=xml', 'format'],
      ['period=last_year', 'period'],
      ['timezone=Mars/Olympus', 'timezone'],
      ['from=2026-05-02T00:00:00Z&to=2026-05-01T00:00:00Z', 'from'],
      ['from=2025-01-01T00:00:00Z&to=2026-05-01T00:00:00Z', 'to'],
      [`monitor_ids=${foreign}`, 'monitor_ids[0]'],
    ];
    for (const path of ['intelligence', 'monitor-health']) {
      for (const [query, field] of cases) {
        const r = await c.call('GET', `/api/v1/reports/${path}?${query}`);
        expect([path, query, r.status]).toEqual([path, query, 422]);
        expect(r.body.error.details.map((d: Json) => d.field)).toContain(field);
      }
    }
    const team = clientOf(t, await t.createOrg({ plan: 'team' }));
    const noScope = clientOf(t, await t.createOrg({ scopes: ['intelligence:read'] }));
    for (const path of ['intelligence', 'monitor-health']) {
      expect((await team.call('GET', `/api/v1/reports/${path}`)).body.error.code).toBe('plan_upgrade_required');
      expect((await noScope.call('GET', `/api/v1/reports/${path}`)).body.error.code).toBe('insufficient_scope');
    }
  });

  it('PDF of the three reports comes from the report renderer', async () => {
    const c = clientOf(t, await t.createOrg());
    for (const kind of ['incidents', 'intelligence', 'monitor-health']) {
      const r = await c.call('GET', `/api/v1/reports/${kind}?period=last_7_days&format=pdf`);
      expect([kind, r.status, r.raw.headers['content-type']]).toEqual([kind, 200, 'application/pdf']);
      expect(r.raw.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    }
  });
});
