/**
 * The reports and SLA-target API: formats (JSON, CSV with the same totals), bad input (422 naming the field, nothing
 * changed), plan gate and scopes, environments and organizations of the key; on SQLite and PostgreSQL.
 */
import fastJson from 'fast-json-stringify';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createTocsin } from '../../src/main.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { simplifyForSerializing } from '../../src/http/plugins/serialization.plugin.ts';
import { bearer, createTestApp, ManualClock, type TestApp } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { at, clientOf } from './reports.helpers.ts';
import { parseCsv } from './csv.parse.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies in assertions

describe.each(testDialects())('reports API on %s', (dialect) => {
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

  async function orgWithHistory() {
    const org = await t.createOrg();
    const c = clientOf(t, org);
    clock.set('2026-05-01T00:00:00Z');
    const shop = await c.createMonitor({ name: 'Zürich "shop", main', tags: ['shop'] });
    const api = await c.createMonitor({ name: 'API', tags: ['api'], environment: 'staging' });
    await c.check(shop, 'up', at('2026-05-01T00:00:00Z'), 'local', 100);
    await c.check(api, 'up', at('2026-05-01T00:00:00Z'), 'local', 300);
    await c.check(shop, 'up', at('2026-05-01T01:00:00Z'), 'local', 200);
    await c.check(shop, 'down', at('2026-05-01T02:00:00Z'));
    await c.check(shop, 'down', at('2026-05-01T02:01:00Z'));
    await c.check(shop, 'up', at('2026-05-01T02:10:00Z'), 'local', 150);
    clock.set('2026-05-02T00:00:00Z');
    return { org, c, shop, api };
  }

  it('availability as CSV: BOM, RFC 4180 quoting, one row per monitor, the same figures as the JSON', async () => {
    const { c } = await orgWithHistory();
    const q = 'from=2026-05-01T00:00:00Z&to=2026-05-02T00:00:00Z';
    const json = await c.call('GET', `/api/v1/reports/availability?${q}`);
    const csv = await c.call('GET', `/api/v1/reports/availability?${q}&format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.raw.headers['content-type']).toBe('text/csv; charset=utf-8');
    const body = csv.raw.rawPayload.toString('utf8');
    expect(body.startsWith('\uFEFF')).toBe(true);
    expect(body).toContain('"Zürich ""shop"", main"');
    const rows = parseCsv(body.slice(1));
    const header = rows[0]!;
    expect(new Set(rows.map((r) => r.length))).toEqual(new Set([header.length]));
    expect(rows).toHaveLength(1 + json.body.monitors.length);
    for (const m of json.body.monitors as Json[]) {
      const row = rows.find((r) => r[header.indexOf('monitor_id')] === m.monitor_id)!;
      for (const col of [
        'name',
        'uptime_percent',
        'downtime_seconds',
        'monitored_seconds',
        'checks',
        'failed_checks',
      ]) {
        expect(row[header.indexOf(col)]).toBe(m[col] === null ? '' : String(m[col]));
      }
    }
    const shopRow = json.body.monitors.find((m: Json) => m.name.startsWith('Zürich'));
    expect(shopRow).toMatchObject({ downtime_seconds: 600, checks: 5, failed_checks: 2, incident_count: 1 });
    const sum = (json.body.monitors as Json[]).reduce((s, m) => s + m.downtime_seconds, 0);
    expect(json.body.summary.downtime_seconds).toBe(sum);
  });

  it('CSV formula injection: user text starting with =, +, -, @ is neutralised in reports and the export', async () => {
    const org = await t.createOrg();
    const c = clientOf(t, org);
    clock.set('2026-05-01T00:00:00Z');
    const name = '=HYPERLINK("http://evil.test","click")';
    const id = await c.createMonitor({ name, config: { failure_threshold: 1 } });
    await c.check(id, 'up', at('2026-05-01T00:00:00Z'));
    await c.check(id, 'down', at('2026-05-01T00:01:00Z'));
    await c.check(id, 'up', at('2026-05-01T00:02:00Z'));
    clock.set('2026-05-02T00:00:00Z');
    const q = 'from=2026-05-01T00:00:00Z&to=2026-05-02T00:00:00Z';
    const csv = await c.call('GET', `/api/v1/reports/availability?${q}&format=csv`);
    const body = csv.raw.rawPayload.toString('utf8');
    expect(body).toContain(`"'=HYPERLINK(""http://evil.test"",""click"")"`);
    const rows = parseCsv(body.slice(1));
    const header = rows[0]!;
    expect(rows[1]![header.indexOf('name')]).toBe(`'${name}`);
    expect(rows[1]![header.indexOf('checks')]).toBe('3');

    const exported = await c.call('GET', `/api/v1/reports/incidents/export?${q}&format=csv`);
    const incidents = parseCsv(exported.raw.rawPayload.toString('utf8').slice(1));
    const title = incidents[1]![incidents[0]!.indexOf('title')]!;
    expect(incidents).toHaveLength(2);
    expect(title).toContain(name);
    // Whatever the title's wording, no text cell of the export starts like a formula.
    for (const cell of incidents[1]!) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('performance: percentiles from the merged sketches (≤ 1 % error), CSV with the same figures', async () => {
    const { c, shop } = await orgWithHistory();
    const q = `from=2026-05-01T00:00:00Z&to=2026-05-02T00:00:00Z&monitor_ids=${shop}`;
    const r = await c.call('GET', `/api/v1/reports/performance?${q}`);
    expect(r.status).toBe(200);
    const m = r.body.monitors[0];
    // Successful latencies 100, 200, 150 ms: p50 = 150 (rank 0.5 × 2 = 1 → the 2nd smallest), max 200, min 100.
    expect(m.checks).toBe(5);
    expect(m.successful_checks).toBe(3);
    expect(Math.abs(m.p50_ms - 150) / 150).toBeLessThanOrEqual(0.01);
    expect(Math.abs(m.max_ms - 200) / 200).toBeLessThanOrEqual(0.01);
    expect(Math.abs(m.min_ms - 100) / 100).toBeLessThanOrEqual(0.01);
    expect(Math.abs(m.mean_ms - 150) / 150).toBeLessThanOrEqual(0.01);
    expect(m.previous).toEqual({ p50_ms: null, p95_ms: null, p99_ms: null });
    expect(m.trend_percent).toBeNull();
    expect(m.daily).toEqual([{ date: '2026-05-01', p50_ms: m.p50_ms, p95_ms: m.p95_ms, p99_ms: m.p99_ms }]);
    const csv = await c.call('GET', `/api/v1/reports/performance?${q}&format=csv`);
    const rows = parseCsv(csv.raw.rawPayload.toString('utf8').slice(1));
    expect(rows[1]![rows[0]!.indexOf('p50_ms')]).toBe(String(m.p50_ms));
  });

  it('availability and performance JSON of 130 monitors (built on the report thread) are the bytes of one serialization of the report built here', async () => {
    const org = await t.createOrg();
    const c = clientOf(t, org);
    clock.set('2026-05-01T00:00:00Z');
    for (let i = 0; i < 130; i++) {
      // a key's write budget is 120 a minute
      if (i === 60) clock.set('2026-05-01T00:02:00Z');
      const id = await c.createMonitor({ name: `m${i} "ü", ${'x'.repeat(i % 7)}` });
      if (i % 3 !== 0) await c.check(id, i % 5 === 0 ? 'down' : 'up', at('2026-05-01T01:00:00Z'), 'local', 50 + i);
    }
    clock.set('2026-05-03T00:00:00Z');
    const schemas = t.tocsin.app.getSchemas() as Record<string, fastJson.Schema>;
    const onMainThread = await createTocsin(
      { ...t.config, reports: { workers: 0, timeoutSeconds: 120, workerIdleSeconds: 300 } },
      { clock, migrate: false, background: false, logger: createLogger({ level: 'silent', pretty: false }) },
    );
    onTestFinished(() => onMainThread.close());
    for (const [kind, id] of [
      ['availability', 'AvailabilityReport'],
      ['performance', 'PerformanceReport'],
    ] as const) {
      const url = `/api/v1/reports/${kind}?from=2026-05-01T00:00:00Z&to=2026-05-03T00:00:00Z&timezone=Europe/Berlin`;
      const res = await c.call('GET', url);
      expect(res.status).toBe(200);
      expect(res.raw.headers['content-type']).toBe('application/json; charset=utf-8');
      const body = res.raw.rawPayload.toString('utf8');
      const external: Record<string, fastJson.Schema> = {};
      for (const [k, v] of Object.entries(schemas))
        if (k !== id) external[k] = simplifyForSerializing(v) as fastJson.Schema;
      const whole = fastJson(simplifyForSerializing(schemas[id]) as fastJson.Schema, { schema: external });
      const parsed = JSON.parse(body) as Json;
      expect(parsed.monitors).toHaveLength(130);
      expect(body).toBe(whole(parsed));
      // Built on a report worker thread with its own database handle: the bytes of the same report built here.
      const renderer = t.tocsin.services.reportRenderer;
      expect(renderer.isolates(kind)).toBe(true);
      const actor = (await t.tocsin.services.auth.authenticate(org.apiKey))!;
      const here = await renderer.build({ actor, db: t.tocsin.database, clock }, kind, {
        from: '2026-05-01T00:00:00Z',
        to: '2026-05-03T00:00:00Z',
        timezone: 'Europe/Berlin',
      });
      expect(body).toBe(whole(here));
      // The same request to a process building reports on its main thread (reports.workers 0, the chunked writer).
      const res0 = await onMainThread.app.inject({ method: 'GET', url, headers: bearer(org.apiKey) });
      expect(res0.statusCode).toBe(200);
      expect(res0.rawPayload.toString('utf8')).toBe(body);
    }
  });

  it('bad input answers 422 naming the field', async () => {
    const { c } = await orgWithHistory();
    const cases: Array<[string, string]> = [
      ['format=xml', 'format'],
      ['period=last_year', 'period'],
      ['timezone=Mars/Olympus', 'timezone'],
      ['from=2026-05-02T00:00:00Z&to=2026-05-01T00:00:00Z', 'from'],
      ['from=2026-05-01T00:00:00Z&to=2026-05-01T00:00:00Z', 'from'],
      ['from=2025-01-01T00:00:00Z&to=2026-05-01T00:00:00Z', 'to'],
      ['from=yesterday&to=2026-05-01T00:00:00Z', 'from'],
      ['from=2026-04-01T00:00:00Z', 'to'],
      ['period=last_7_days&from=2026-04-01T00:00:00Z&to=2026-04-02T00:00:00Z', 'period'],
      ['monitor_ids=mon_doesnotexist', 'monitor_ids[0]'],
    ];
    for (const [query, field] of cases) {
      for (const report of ['availability', 'performance', 'sla']) {
        const r = await c.call('GET', `/api/v1/reports/${report}?${query}`);
        expect([report, query, r.status]).toEqual([report, query, 422]);
        expect(r.body.error.code).toBe('validation_failed');
        expect(r.body.error.details.map((d: Json) => d.field)).toContain(field);
      }
    }
  });

  it("another organization's or another environment's monitor ids are 422 naming the field; the tags filter", async () => {
    const { org, c, shop, api } = await orgWithHistory();
    const other = await orgWithHistory();
    const foreign = await c.call('GET', `/api/v1/reports/availability?monitor_ids=${shop},${other.shop}`);
    expect(foreign.status).toBe(422);
    expect(foreign.body.error.details).toEqual([
      { field: 'monitor_ids[1]', issue: `monitor ${other.shop} does not exist in this organization` },
    ]);
    expect((await c.call('GET', '/api/v1/reports/availability')).body.monitors).toHaveLength(2);
    expect(
      (await c.call('GET', '/api/v1/reports/availability?tags=shop')).body.monitors.map((m: Json) => m.monitor_id),
    ).toEqual([shop]);

    // A key of the same organization limited to production does not see the staging monitor.
    const key = await c.call('POST', '/api/v1/api-keys', {
      name: 'prod only',
      scopes: ['reports:read', 'sla_targets:read', 'sla_targets:write'],
      environments: ['production'],
    });
    expect(key.status).toBe(201);
    const prod = clientOf(t, { ...org, apiKey: key.body.key as string });
    const all = await prod.call('GET', '/api/v1/reports/availability');
    expect(all.body.monitors.map((m: Json) => m.monitor_id)).toEqual([shop]);
    const staging = await prod.call('GET', `/api/v1/reports/availability?monitor_ids=${api}`);
    expect(staging.status).toBe(422);
    expect(staging.body.error.details[0].field).toBe('monitor_ids[0]');
    const sla = await prod.call('POST', '/api/v1/sla-targets', {
      name: 'x',
      monitor_ids: [shop, api],
      target_percent: 99,
      period: 'daily',
    });
    expect(sla.status).toBe(422);
    expect(sla.body.error.details.map((d: Json) => d.field)).toEqual(['monitor_ids[1]']);
  });

  it('plan gate and scopes: a plan without reports gets plan_upgrade_required, a key without reports:read insufficient_scope', async () => {
    const team = clientOf(t, await t.createOrg({ plan: 'team' }));
    const gated = await team.call('GET', '/api/v1/reports/availability');
    expect(gated.status).toBe(403);
    expect(gated.body.error.code).toBe('plan_upgrade_required');
    expect(gated.body.error.message).toMatch(/Reports need the/);
    const noScope = clientOf(t, await t.createOrg({ scopes: ['monitors:read', 'sla_targets:read'] }));
    for (const report of ['availability', 'performance', 'sla']) {
      const r = await noScope.call('GET', `/api/v1/reports/${report}`);
      expect(r.status).toBe(403);
      expect(r.body.error.code).toBe('insufficient_scope');
    }
    expect((await noScope.call('POST', '/api/v1/sla-targets', {})).body.error.code).toBe('insufficient_scope');
  });

  it('SLA targets CRUD; target_percent strictly between 0 and 100 with at most 3 decimals; bad input changes nothing', async () => {
    const { c, shop } = await orgWithHistory();
    const good = { name: 'Shop', monitor_ids: [shop], target_percent: 99.95, period: 'weekly' };
    const bad: Array<[Json, string]> = [
      [{ ...good, target_percent: 100 }, 'target_percent'],
      [{ ...good, target_percent: 0 }, 'target_percent'],
      [{ ...good, target_percent: 99.9995 }, 'target_percent'],
      [{ ...good, target_percent: '99' }, 'target_percent'],
      [{ ...good, period: 'yearly' }, 'period'],
      [{ ...good, monitor_ids: [] }, 'monitor_ids'],
      [{ ...good, monitor_ids: [shop, shop] }, 'monitor_ids[1]'],
      [{ ...good, monitor_ids: ['mon_nope'] }, 'monitor_ids[0]'],
      [{ ...good, name: '' }, 'name'],
      [{ ...good, combine: 'any_down' }, 'combine'],
    ];
    for (const [body, field] of bad) {
      const r = await c.call('POST', '/api/v1/sla-targets', body);
      expect([field, r.status]).toEqual([field, 422]);
      expect(r.body.error.details.map((d: Json) => d.field)).toContain(field);
    }
    // One answer names every problem: the schema's (name, an unknown field) and the rules' (decimals, a monitor).
    const all = await c.call('POST', '/api/v1/sla-targets', {
      ...good,
      name: '',
      combine: 'any_down',
      target_percent: 99.9995,
      monitor_ids: [shop, 'mon_0000000000000000000000000a'],
    });
    expect(all.status).toBe(422);
    expect(all.body.error.details.map((d: Json) => d.field).sort()).toEqual([
      'combine',
      'monitor_ids[1]',
      'name',
      'target_percent',
    ]);
    expect((await c.call('GET', '/api/v1/sla-targets')).body.data).toEqual([]);

    const created = await c.call('POST', '/api/v1/sla-targets', { ...good, target_percent: 99.999 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Shop', monitor_ids: [shop], target_percent: 99.999, period: 'weekly' });
    const id = created.body.id as string;
    expect(id).toMatch(/^sla_/);
    expect((await c.call('GET', `/api/v1/sla-targets/${id}`)).body).toEqual(created.body);
    const patched = await c.call('PATCH', `/api/v1/sla-targets/${id}`, { target_percent: 99.5, period: 'quarterly' });
    expect(patched.body).toMatchObject({ target_percent: 99.5, period: 'quarterly', name: 'Shop' });
    const refused = await c.call('PATCH', `/api/v1/sla-targets/${id}`, { target_percent: 101 });
    expect(refused.status).toBe(422);
    expect((await c.call('GET', `/api/v1/sla-targets/${id}`)).body.target_percent).toBe(99.5);
    expect((await c.call('GET', '/api/v1/sla-targets')).body.data).toHaveLength(1);
    const other = clientOf(t, await t.createOrg());
    expect((await other.call('GET', `/api/v1/sla-targets/${id}`)).status).toBe(404);
    expect((await c.call('DELETE', `/api/v1/sla-targets/${id}`)).status).toBe(204);
    expect((await c.call('GET', `/api/v1/sla-targets/${id}`)).status).toBe(404);
  });

  it('the SLA report as CSV: one row per target period, the current one last with its budget', async () => {
    const { c, shop } = await orgWithHistory();
    const created = await c.call('POST', '/api/v1/sla-targets', {
      name: 'Shop, daily',
      monitor_ids: [shop],
      target_percent: 99,
      period: 'daily',
    });
    expect(created.status).toBe(201);
    const q = 'from=2026-05-01T00:00:00Z&to=2026-05-02T00:00:00Z';
    const json = await c.call('GET', `/api/v1/reports/sla?${q}`);
    const target = json.body.targets[0];
    // May 1: 600 s down of 86 400 → 99.30556 %, met (≥ 99). Current period May 2 (now = 00:00): nothing yet.
    expect(target.periods).toHaveLength(1);
    expect(target.periods[0].downtime_seconds).toBe(600);
    expect(target.periods[0].met).toBe(true);
    expect(target.current).toMatchObject({ monitored_seconds: 0, met: null, achieved_percent: null, burn_rate: null });
    // Budget of the whole current day: 1 % of 86 400 s = 864 s, nothing used.
    expect(target.current.error_budget_seconds).toBeCloseTo(864, 6);
    const rows = parseCsv(
      (await c.call('GET', `/api/v1/reports/sla?${q}&format=csv`)).raw.rawPayload.toString('utf8').slice(1),
    );
    const h = rows[0]!;
    expect(rows).toHaveLength(3);
    expect(rows[1]![h.indexOf('current')]).toBe('false');
    expect(rows[1]![h.indexOf('downtime_seconds')]).toBe('600');
    expect(rows[2]![h.indexOf('current')]).toBe('true');
    expect(rows[2]![h.indexOf('met')]).toBe('');
    expect(rows[2]![h.indexOf('name')]).toBe('Shop, daily');
  });
});
