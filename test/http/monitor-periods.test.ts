/**
 * GET /monitors/{id}/periods: what the monitor page's latency chart shades. A real outage (a local target that starts
 * answering 503, through the real engine) gives one down period starting at the first failing check and one
 * incident; a maintenance window covering the monitor gives a maintenance period; bad ranges are 422 and another
 * organization's monitor 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../alerting/helpers.ts';
import { createTestApp, ManualClock, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { startHttpTarget, type RunningTarget } from '../support/targets/index.ts';

const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const MIN = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe.each(testDialects())('GET /monitors/{id}/periods (%s)', (dialect) => {
  let t: TestApp;
  let clock: ManualClock;
  let org: TestOrg;
  let target: RunningTarget;
  let status = 200;
  let id = '';

  beforeAll(async () => {
    clock = new ManualClock(T0);
    t = await createTestApp({ dialect, clock });
    target = await startHttpTarget((_req, res) => {
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(status === 200 ? 'ok' : 'unavailable');
    });
    org = await t.createOrg();
    const created = await api(t, org.apiKey, 'POST', '/api/v1/monitors', {
      name: 'Checkout',
      target: target.url,
      interval_seconds: 30,
      config: { failure_threshold: 2, success_threshold: 1, assertions: [{ type: 'status', equals: 200 }] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    id = created.body.id as string;
    const window = await api(t, org.apiKey, 'POST', '/api/v1/maintenance-windows', {
      name: 'Upgrade',
      monitor_ids: [id],
      exclude_from_sla: false,
      schedule: { type: 'once', starts_at: iso(T0 + 20 * MIN), ends_at: iso(T0 + 30 * MIN) },
    });
    expect(window.status, JSON.stringify(window.body)).toBe(201);
    const round = async () => {
      clock.advance(30_000);
      await t.tocsin.services.checks.localRunner.runOnce();
    };
    for (let i = 0; i < 4; i++) await round(); // up
    status = 503;
    for (let i = 0; i < 6; i++) await round(); // down after 2 failures, incident opens
    status = 200;
    for (let i = 0; i < 4; i++) await round(); // up again, incident resolves
    clock.set(T0 + 40 * MIN);
  });
  afterAll(async () => {
    await t.close();
    await target.close();
  });

  it('answers the down period from the first failing check, the maintenance window and the incident', async () => {
    const res = await api(
      t,
      org.apiKey,
      'GET',
      `/api/v1/monitors/${id}/periods?from=${iso(T0)}&to=${iso(T0 + 60 * MIN)}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.from).toBe(iso(T0));
    expect(res.body.to).toBe(iso(T0 + 60 * MIN));
    const incidents = res.body.incidents as Array<Record<string, string | null>>;
    expect(incidents).toHaveLength(1);
    const incident = incidents[0]!;
    expect(incident).toMatchObject({ status: 'resolved', number: 1 });
    const periods = res.body.periods as Array<{ state: string; start: string; end: string }>;
    const down = periods.filter((p) => p.state === 'down');
    expect(down).toHaveLength(1);
    // The outage began at the first failing check (before the verdict that opened the incident) and ended at recovery.
    expect(down[0]!.start).toBe(incident.down_since);
    expect(Date.parse(down[0]!.start)).toBeLessThan(Date.parse(incident.opened_at!));
    expect(down[0]!.end).toBe(incident.resolved_at);
    expect(periods.filter((p) => p.state === 'maintenance')).toEqual([
      { state: 'maintenance', start: iso(T0 + 20 * MIN), end: iso(T0 + 30 * MIN) },
    ]);
    // Nothing after now (T0 + 40 min): the future has no state.
    for (const p of periods) expect(Date.parse(p.end)).toBeLessThanOrEqual(T0 + 40 * MIN);
  });

  it('clips periods to the range and leaves out incidents outside it', async () => {
    const res = await api(
      t,
      org.apiKey,
      'GET',
      `/api/v1/monitors/${id}/periods?from=${iso(T0 + 25 * MIN)}&to=${iso(T0 + 35 * MIN)}`,
    );
    expect(res.status).toBe(200);
    expect(res.body.periods).toEqual([{ state: 'maintenance', start: iso(T0 + 25 * MIN), end: iso(T0 + 30 * MIN) }]);
    expect(res.body.incidents).toEqual([]);
  });

  it('refuses bad ranges (422) and hides other organizations’ monitors (404)', async () => {
    const backwards = await api(t, org.apiKey, 'GET', `/api/v1/monitors/${id}/periods?from=${iso(T0)}&to=${iso(T0)}`);
    expect(backwards.status).toBe(422);
    expect(backwards.body.error.details).toEqual([expect.objectContaining({ field: 'from' })]);
    const long = await api(
      t,
      org.apiKey,
      'GET',
      `/api/v1/monitors/${id}/periods?from=${iso(T0 - 401 * 86_400_000)}&to=${iso(T0)}`,
    );
    expect(long.status).toBe(422);
    expect(long.body.error.details).toEqual([expect.objectContaining({ field: 'to' })]);
    const garbage = await api(t, org.apiKey, 'GET', `/api/v1/monitors/${id}/periods?from=yesterday`);
    expect(garbage.status).toBe(422);
    const stranger = await t.createOrg();
    const foreign = await api(t, stranger.apiKey, 'GET', `/api/v1/monitors/${id}/periods`);
    expect(foreign.status).toBe(404);
    const missing = await api(t, org.apiKey, 'GET', '/api/v1/monitors/mon_nope/periods');
    expect(missing.status).toBe(404);
  });
});
