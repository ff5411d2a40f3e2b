/**
 * The accounting of DECISIONS §11, scenario by scenario, through the real write paths (monitors API, pause and
 * resume, CheckEngine.applyResults with the state machine and incidents) and the reports API, on SQLite and
 * PostgreSQL. Every expected figure is worked out by hand in the comments.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ManualClock, type TestApp } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { at, clientOf } from './reports.helpers.ts';

const H = 3600;
const DAY = 24 * H;

describe.each(testDialects())('report accounting scenarios on %s', (dialect) => {
  let t: TestApp;
  const clock = new ManualClock('2026-01-01T00:00:00.000Z');

  beforeAll(async () => {
    t = await createTestApp({ dialect, clock, configFile: { regions: ['local', 'eu', 'us'] } });
  });
  afterAll(async () => {
    await t.close();
  });

  async function newClient() {
    return clientOf(t, await t.createOrg());
  }

  it('an outage across a period boundary is split at the boundary, counted from its first failing check', async () => {
    const c = await newClient();
    clock.set('2026-09-30T00:00:00Z');
    const id = await c.createMonitor({ name: 'Boundary' });
    await c.check(id, 'up', at('2026-09-30T00:00:00Z'));
    await c.check(id, 'down', at('2026-09-30T23:50:00Z')); // first failure of the run
    await c.check(id, 'down', at('2026-09-30T23:51:00Z')); // failure_threshold 2 reached: down, dated back to 23:50
    await c.check(id, 'up', at('2026-10-01T00:20:00Z')); // the check that resolved it
    clock.set('2026-10-03T00:00:00Z');

    // Oct 1: down 00:00 → 00:20 = 1 200 s of 86 400 monitored → 100 × 85 200 / 86 400 = 98.61111 %.
    const oct = await c.call(
      'GET',
      `/api/v1/reports/availability?from=2026-10-01T00:00:00Z&to=2026-10-02T00:00:00Z&monitor_ids=${id}`,
    );
    expect(oct.status).toBe(200);
    const m = oct.body.monitors[0];
    expect(m.downtime_seconds).toBe(1200);
    expect(m.monitored_seconds).toBe(DAY);
    expect(m.uptime_percent).toBeCloseTo((100 * 85_200) / 86_400, 4);
    // The incident overlaps the window: from its first failure (23:50) to its resolution (00:20) = 1 800 s.
    expect(m.incident_count).toBe(1);
    expect(m.incidents[0]).toMatchObject({
      down_since: '2026-09-30T23:50:00.000Z',
      opened_at: '2026-09-30T23:51:00.000Z',
      resolved_at: '2026-10-01T00:20:00.000Z',
      duration_seconds: 1800,
    });
    expect(m.longest_incident_seconds).toBe(1800);

    // Sep 30: down 23:50 → 24:00 = 600 s → 100 × 85 800 / 86 400 = 99.30556 %.
    const sep = await c.call('GET', `/api/v1/reports/availability?from=2026-09-30T00:00:00Z&to=2026-10-01T00:00:00Z`);
    expect(sep.body.monitors[0].downtime_seconds).toBe(600);
    expect(sep.body.monitors[0].uptime_percent).toBeCloseTo((100 * 85_800) / 86_400, 4);
    expect(sep.body.summary).toMatchObject({ monitors: 1, downtime_seconds: 600, incidents: 1 });
    // Both days together: 1 800 s, the incident's whole duration.
    const both = await c.call('GET', `/api/v1/reports/availability?from=2026-09-30T00:00:00Z&to=2026-10-02T00:00:00Z`);
    expect(both.body.monitors[0].downtime_seconds).toBe(1800);
    expect(both.body.monitors[0].daily.map((d: { downtime_seconds: number }) => d.downtime_seconds)).toEqual([
      600, 1200,
    ]);
  });

  it('a DST month in Europe/Berlin is 743 hours; the spring-forward day is 23 hours', async () => {
    const c = await newClient();
    clock.set('2027-02-20T00:00:00Z');
    const id = await c.createMonitor({ name: 'Berlin' });
    await c.check(id, 'up', at('2027-02-20T00:00:00Z'));
    await c.check(id, 'down', at('2027-03-10T10:00:00Z'));
    await c.check(id, 'down', at('2027-03-10T10:01:00Z'));
    await c.check(id, 'up', at('2027-03-10T10:31:00Z')); // down 10:00 → 10:31 = 1 860 s
    clock.set('2027-04-10T12:00:00Z');

    const r = await c.call('GET', '/api/v1/reports/availability?period=previous_month&timezone=Europe/Berlin');
    expect(r.status).toBe(200);
    // March 2027 in Berlin: 1 Mar 00:00 CET = 28 Feb 23:00Z → 1 Apr 00:00 CEST = 31 Mar 22:00Z: 743 h = 2 674 800 s.
    expect(r.body.period).toMatchObject({
      from: '2027-02-28T23:00:00.000Z',
      to: '2027-03-31T22:00:00.000Z',
      timezone: 'Europe/Berlin',
      preset: 'previous_month',
    });
    const m = r.body.monitors[0];
    expect(m.monitored_seconds).toBe(743 * H);
    expect(m.downtime_seconds).toBe(1860);
    // 100 × (2 674 800 − 1 860) / 2 674 800 = 99.93046 %.
    expect(m.uptime_percent).toBeCloseTo((100 * (2_674_800 - 1860)) / 2_674_800, 4);
    expect(m.daily).toHaveLength(31);
    expect(m.daily[9]).toMatchObject({ date: '2027-03-10', downtime_seconds: 1860 });
    expect(m.daily[27]).toMatchObject({ date: '2027-03-28', downtime_seconds: 0, uptime_percent: 100 });
  });

  it('a DST month in America/New_York is 721 hours; the fall-back day is 25 hours', async () => {
    const c = await newClient();
    clock.set('2026-10-15T00:00:00Z');
    const id = await c.createMonitor({ name: 'New York' });
    await c.check(id, 'up', at('2026-10-15T00:00:00Z'));
    await c.check(id, 'down', at('2026-11-01T05:30:00Z')); // 01:30 EDT (first 01:30)
    await c.check(id, 'down', at('2026-11-01T05:31:00Z'));
    await c.check(id, 'up', at('2026-11-01T06:30:00Z')); // 01:30 EST (second 01:30): down 3 600 s
    clock.set('2026-12-05T12:00:00Z');

    const r = await c.call('GET', '/api/v1/reports/availability?period=previous_month&timezone=America/New_York');
    // November 2026: 1 Nov 00:00 EDT = 04:00Z → 1 Dec 00:00 EST = 05:00Z: 30 × 24 + 1 = 721 h.
    expect(r.body.period).toMatchObject({ from: '2026-11-01T04:00:00.000Z', to: '2026-12-01T05:00:00.000Z' });
    const m = r.body.monitors[0];
    expect(m.monitored_seconds).toBe(721 * H);
    expect(m.downtime_seconds).toBe(3600);
    // The 25-hour first day: 100 × (90 000 − 3 600) / 90 000 = 96 %.
    expect(m.daily[0]).toMatchObject({ date: '2026-11-01', downtime_seconds: 3600 });
    expect(m.daily[0].uptime_percent).toBeCloseTo(96, 6);
    expect(m.daily).toHaveLength(30);
  });

  it('a paused stretch and the wait for the first verdict after the resume are not monitored', async () => {
    const c = await newClient();
    clock.set('2026-06-01T00:00:00Z');
    const id = await c.createMonitor({ name: 'Paused' });
    await c.check(id, 'up', at('2026-06-01T00:00:00Z'));
    clock.set('2026-06-02T06:00:00Z');
    expect((await c.call('POST', `/api/v1/monitors/${id}/pause`)).status).toBe(200);
    clock.set('2026-06-02T12:00:00Z');
    expect((await c.call('POST', `/api/v1/monitors/${id}/resume`)).status).toBe(200);
    await c.check(id, 'up', at('2026-06-02T12:05:00Z')); // first verdict after the resume
    await c.check(id, 'down', at('2026-06-02T18:00:00Z'));
    await c.check(id, 'down', at('2026-06-02T18:01:00Z'));
    await c.check(id, 'up', at('2026-06-02T18:10:00Z')); // down 600 s
    clock.set('2026-06-05T00:00:00Z');

    const r = await c.call('GET', '/api/v1/reports/availability?from=2026-06-02T00:00:00Z&to=2026-06-03T00:00:00Z');
    const m = r.body.monitors[0];
    // paused 06:00 → 12:00 = 21 600 s; no verdict 12:00 → 12:05 = 300 s; monitored 86 400 − 21 600 − 300 = 64 500 s.
    expect(m.paused_seconds).toBe(21_600);
    expect(m.no_data_seconds).toBe(300);
    expect(m.monitored_seconds).toBe(64_500);
    expect(m.downtime_seconds).toBe(600);
    // uptime 100 × 63 900 / 64 500 = 99.06977 %; coverage 100 × 64 500 / 86 400 = 74.65278 %.
    expect(m.uptime_percent).toBeCloseTo((100 * 63_900) / 64_500, 4);
    expect(m.coverage_percent).toBeCloseTo((100 * 64_500) / 86_400, 4);

    // Windows that start inside the pause, or between the resume and the first verdict: the state at `from` comes
    // from the entries before it. 08:00 → 12:02: paused 4 h = 14 400 s, no verdict 120 s, nothing monitored.
    const inside = await c.call(
      'GET',
      '/api/v1/reports/availability?from=2026-06-02T08:00:00Z&to=2026-06-02T12:02:00Z',
    );
    expect(inside.body.monitors[0]).toMatchObject({
      paused_seconds: 14_400,
      no_data_seconds: 120,
      monitored_seconds: 0,
      uptime_percent: null,
    });
    // 12:03 → 13:00: no verdict until 12:05 (120 s), then up 55 min (3 300 s).
    const after = await c.call('GET', '/api/v1/reports/availability?from=2026-06-02T12:03:00Z&to=2026-06-02T13:00:00Z');
    expect(after.body.monitors[0]).toMatchObject({ paused_seconds: 0, no_data_seconds: 120, monitored_seconds: 3300 });
  });

  it('a monitor created mid-period counts from its creation (and from its first verdict)', async () => {
    const c = await newClient();
    clock.set('2026-07-15T12:00:00Z');
    const id = await c.createMonitor({ name: 'Newcomer' });
    await c.check(id, 'up', at('2026-07-15T12:00:30Z'));
    clock.set('2026-07-20T00:00:00Z');

    const r = await c.call('GET', '/api/v1/reports/availability?from=2026-07-15T00:00:00Z&to=2026-07-16T00:00:00Z');
    const m = r.body.monitors[0];
    // Before creation: 12 h = 43 200 s unmonitored; 30 s without a verdict; monitored 43 200 − 30 = 43 170 s.
    expect(m.unmonitored_seconds).toBe(43_200);
    expect(m.no_data_seconds).toBe(30);
    expect(m.monitored_seconds).toBe(43_170);
    expect(m.uptime_percent).toBe(100);
    expect(m.coverage_percent).toBeCloseTo((100 * 43_170) / 86_400, 4);
    // A window entirely before the creation: nothing monitored, uptime null (not 100).
    const before = await c.call(
      'GET',
      `/api/v1/reports/availability?from=2026-07-14T00:00:00Z&to=2026-07-15T00:00:00Z&monitor_ids=${id}`,
    );
    expect(before.body.monitors[0]).toMatchObject({ uptime_percent: null, monitored_seconds: 0, coverage_percent: 0 });
  });

  it('a monitor deleted mid-period stays in the report until its deletion; its outage ends there', async () => {
    const c = await newClient();
    clock.set('2026-04-01T00:00:00Z');
    const id = await c.createMonitor({ name: 'Retired' });
    await c.check(id, 'up', at('2026-04-01T00:00:00Z'));
    await c.check(id, 'down', at('2026-04-01T10:00:00Z'));
    await c.check(id, 'down', at('2026-04-01T10:01:00Z'));
    clock.set('2026-04-01T12:00:00Z');
    expect((await c.call('DELETE', `/api/v1/monitors/${id}`)).status).toBe(204);
    clock.set('2026-04-03T00:00:00Z');

    const r = await c.call('GET', '/api/v1/reports/availability?from=2026-04-01T00:00:00Z&to=2026-04-02T00:00:00Z');
    expect(r.body.monitors.map((m: { name: string }) => m.name)).toEqual(['Retired']);
    const m = r.body.monitors[0];
    // Existed 00:00 → 12:00 (43 200 s), down 10:00 → 12:00 (7 200 s): 100 × 36 000 / 43 200 = 83.33333 %;
    // after the deletion 43 200 s unmonitored.
    expect(m).toMatchObject({ monitored_seconds: 43_200, downtime_seconds: 7200, unmonitored_seconds: 43_200 });
    expect(m.uptime_percent).toBeCloseTo((100 * 36_000) / 43_200, 4);
    // A later window does not list it at all.
    const later = await c.call('GET', '/api/v1/reports/availability?from=2026-04-02T00:00:00Z&to=2026-04-03T00:00:00Z');
    expect(later.body.monitors).toEqual([]);
  });

  it('several regions with confirm_regions 2: down from when the second region began failing, not from one region alone', async () => {
    const c = await newClient();
    clock.set('2026-08-01T00:00:00Z');
    const id = await c.createMonitor({
      name: 'Regions',
      region_codes: ['local', 'eu', 'us'],
      config: { confirm_regions: 2, failure_threshold: 2 },
    });
    await c.check(id, 'up', at('2026-08-01T00:00:00Z'), 'local');
    // Every minute from 09:55 to 10:14: local at :00 s, eu at :10 s, us at :20 s.
    // local fails 10:00–10:09, eu fails 10:02–10:07, us never fails.
    for (let minute = 0; minute < 20; minute++) {
      const base = at('2026-08-01T09:55:00Z') + minute * 60_000;
      const hhmm = 955 + minute + (minute >= 5 ? 40 : 0); // 09:55 … 09:59, 10:00 … 10:14
      const localDown = hhmm >= 1000 && hhmm < 1010;
      const euDown = hhmm >= 1002 && hhmm < 1008;
      await c.check(id, localDown ? 'down' : 'up', base, 'local');
      await c.check(id, euDown ? 'down' : 'up', base + 10_000, 'eu');
      await c.check(id, 'up', base + 20_000, 'us');
    }
    clock.set('2026-08-03T00:00:00Z');
    // local alone failing from 10:00 is not the monitor's failure; at 10:03:10 eu's second failure makes two
    // regions failing (local since 10:00:00, eu since 10:02:10): down dated back to 10:02:10. At 10:08:10 eu
    // succeeds: one region failing, two passing → up. Down 10:02:10 → 10:08:10 = 360 s.
    const r = await c.call('GET', '/api/v1/reports/availability?from=2026-08-01T00:00:00Z&to=2026-08-02T00:00:00Z');
    const m = r.body.monitors[0];
    expect(m.downtime_seconds).toBe(360);
    expect(m.monitored_seconds).toBe(DAY);
    expect(m.uptime_percent).toBeCloseTo((100 * (DAY - 360)) / DAY, 4);
    expect(m.incidents[0]).toMatchObject({
      down_since: '2026-08-01T10:02:10.000Z',
      opened_at: '2026-08-01T10:03:10.000Z',
    });
    // Checks are counted from rollups: 1 + 20 × 3 = 61 checks, of which local 10 + eu 6 = 16 failed.
    expect(m.checks).toBe(61);
    expect(m.failed_checks).toBe(16);
  });

  it('an SLA target of two monitors with overlapping outages: union of downtime, overspent budget, a period without data', async () => {
    const c = await newClient();
    clock.set('2026-08-01T00:00:00Z');
    const a = await c.createMonitor({ name: 'API' });
    const b = await c.createMonitor({ name: 'Web' });
    await c.check(a, 'up', at('2026-08-01T00:00:00Z'));
    await c.check(b, 'up', at('2026-08-01T00:00:00Z'));
    // API down 10:00 → 10:30 (1 800 s); Web down 10:20 → 10:50 (1 800 s); union 10:00 → 10:50 = 3 000 s.
    await c.check(a, 'down', at('2026-09-10T10:00:00Z'));
    await c.check(a, 'down', at('2026-09-10T10:01:00Z'));
    await c.check(b, 'down', at('2026-09-10T10:20:00Z'));
    await c.check(b, 'down', at('2026-09-10T10:21:00Z'));
    await c.check(a, 'up', at('2026-09-10T10:30:00Z'));
    await c.check(b, 'up', at('2026-09-10T10:50:00Z'));
    clock.set('2026-09-16T00:00:00Z');
    const created = await c.call('POST', '/api/v1/sla-targets', {
      name: 'Checkout',
      monitor_ids: [a, b],
      target_percent: 99.9,
      period: 'monthly',
    });
    expect(created.status).toBe(201);

    const r = await c.call('GET', '/api/v1/reports/sla?from=2026-07-01T00:00:00Z&to=2026-09-16T00:00:00Z');
    expect(r.status).toBe(200);
    const target = r.body.targets[0];
    expect(target).toMatchObject({ sla_target_id: created.body.id, combine: 'any_down', target_percent: 99.9 });
    // Current period: September (30 days = 2 592 000 s); 15 days elapsed = 1 296 000 s monitored so far.
    const cur = target.current;
    expect(cur).toMatchObject({ from: '2026-09-01T00:00:00.000Z', to: '2026-10-01T00:00:00.000Z' });
    expect(cur.monitored_seconds).toBe(1_296_000);
    expect(cur.downtime_seconds).toBe(3000);
    // Budget: (1 − 0.999) × the whole period's 2 592 000 s = 2 592 s; remaining 2 592 − 3 000 = −408 s (overspent),
    // −408 / 2 592 = −15.74074 %; 3 000 / 2 592 = 115.74074 % of the budget used: exhausted. The period is not over:
    // met is null (neither met nor missed), status in_progress.
    expect(cur.error_budget_seconds).toBeCloseTo(2592, 6);
    expect(cur.error_budget_used_seconds).toBe(3000);
    expect(cur.error_budget_remaining_seconds).toBeCloseTo(-408, 6);
    expect(cur.error_budget_remaining_percent).toBeCloseTo((-100 * 408) / 2592, 4);
    expect(cur.met).toBeNull();
    expect(cur.status).toBe('in_progress');
    expect(cur.error_budget_used_percent).toBeCloseTo((100 * 3000) / 2592, 4);
    expect(cur.error_budget_exhausted).toBe(true);
    // Achieved 100 × (1 296 000 − 3 000) / 1 296 000 = 99.76852 %; burn rate (3 000 / 1 296 000) / 0.001 = 2.31481.
    expect(cur.achieved_percent).toBeCloseTo((100 * 1_293_000) / 1_296_000, 4);
    expect(cur.burn_rate).toBeCloseTo(3000 / 1_296_000 / 0.001, 4);
    // Each monitor alone: 1 800 s → 100 × 1 294 200 / 1 296 000 = 99.86111 %.
    expect(target.monitors).toHaveLength(2);
    for (const m of target.monitors) {
      expect(m.downtime_seconds).toBe(1800);
      expect(m.achieved_percent).toBeCloseTo((100 * 1_294_200) / 1_296_000, 4);
    }
    // Earlier periods in the range: July (the monitors did not exist: no data, met null), August (100 %, met).
    expect(target.periods).toEqual([
      {
        from: '2026-07-01T00:00:00.000Z',
        to: '2026-08-01T00:00:00.000Z',
        monitored_seconds: 0,
        downtime_seconds: 0,
        achieved_percent: null,
        met: null,
        status: 'no_data',
      },
      {
        from: '2026-08-01T00:00:00.000Z',
        to: '2026-09-01T00:00:00.000Z',
        monitored_seconds: 31 * DAY,
        downtime_seconds: 0,
        achieved_percent: 100,
        met: true,
        status: 'met',
      },
    ]);
    // The current period in progress with its budget exhausted; of the finished periods, August met.
    expect(r.body.summary).toEqual({ targets: 1, in_progress: 1, budget_exhausted: 1, no_data: 0, met: 1, missed: 0 });
  });
});
