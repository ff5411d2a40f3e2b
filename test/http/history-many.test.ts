import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../alerting/helpers.ts';
import { createTestApp, ManualClock, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { startHttpTarget, type RunningTarget } from '../support/targets/index.ts';

describe.each(testDialects())('GET /monitors/history: several monitors in one request (%s)', (dialect) => {
  let t: TestApp;
  let clock: ManualClock;
  let org: TestOrg;
  let target: RunningTarget;
  const ids: string[] = [];
  let foreignId = '';
  const from = '2026-11-23T10:00:00.000Z';
  const to = '2026-11-24T10:30:00.000Z';

  beforeAll(async () => {
    clock = new ManualClock(Date.parse('2026-11-24T10:00:00.000Z'));
    t = await createTestApp({ dialect, clock });
    target = await startHttpTarget((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    });
    org = await t.createOrg();
    for (const name of ['One', 'Two']) {
      const res = await api(t, org.apiKey, 'POST', '/api/v1/monitors', {
        name,
        target: target.url,
        interval_seconds: 30,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      ids.push(res.body.id as string);
    }
    const stranger = await t.createOrg();
    foreignId = (await api(t, stranger.apiKey, 'POST', '/api/v1/monitors', { target: target.url })).body.id as string;
    for (let i = 0; i < 3; i += 1) {
      clock.advance(30_000);
      await t.tocsin.services.checks.localRunner.runOnce();
    }
  });
  afterAll(async () => {
    await t.close();
    await target.close();
  });

  it('answers each visible monitor with the same buckets as its own history; others are left out', async () => {
    const query = `from=${from}&to=${to}&resolution=hour`;
    const many = await api(
      t,
      org.apiKey,
      'GET',
      `/api/v1/monitors/history?monitor_ids=${[ids[1], foreignId, ids[0], 'mon_nope'].join(',')}&${query}`,
    );
    expect(many.status, JSON.stringify(many.body)).toBe(200);
    expect(many.body.data.map((m: { monitor_id: string }) => m.monitor_id)).toEqual([ids[1], ids[0]]);
    for (const entry of many.body.data as Array<{ monitor_id: string; buckets: unknown[] }>) {
      const one = await api(t, org.apiKey, 'GET', `/api/v1/monitors/${entry.monitor_id}/history?${query}`);
      expect(entry.buckets).toEqual(one.body.data);
      expect((entry.buckets as Array<{ checks: number }>).reduce((n, b) => n + b.checks, 0)).toBeGreaterThan(0);
    }
  });

  it('refuses minute resolution, no ids and more than 100 ids', async () => {
    const minute = await api(t, org.apiKey, 'GET', `/api/v1/monitors/history?monitor_ids=${ids[0]}&resolution=minute`);
    expect(minute.status).toBe(422);
    const none = await api(t, org.apiKey, 'GET', '/api/v1/monitors/history?monitor_ids=,');
    expect(none.status).toBe(422);
    expect(none.body.error.details).toEqual([expect.objectContaining({ field: 'monitor_ids' })]);
    const many = Array.from({ length: 101 }, (_, i) => `mon_${i}`).join(',');
    const tooMany = await api(t, org.apiKey, 'GET', `/api/v1/monitors/history?monitor_ids=${many}`);
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.error.details).toEqual([expect.objectContaining({ field: 'monitor_ids' })]);
  });

  it('GET /monitors/history/total sums every monitor the caller sees, per bucket, and nothing of other organizations', async () => {
    const query = `from=${from}&to=${to}&resolution=hour`;
    const total = await api(t, org.apiKey, 'GET', `/api/v1/monitors/history/total?${query}`);
    expect(total.status, JSON.stringify(total.body)).toBe(200);
    expect(total.body.monitors).toBe(2);
    const own = await Promise.all(
      ids.map(async (id) => (await api(t, org.apiKey, 'GET', `/api/v1/monitors/${id}/history?${query}`)).body.data),
    );
    type Bucket = { start: string; end: string; checks: number; failures: number; uptime_percent: number | null };
    const expected = (own[0] as Bucket[]).map((bucket, i) => {
      const checks = own.reduce((n, series: Bucket[]) => n + series[i]!.checks, 0);
      const failures = own.reduce((n, series: Bucket[]) => n + series[i]!.failures, 0);
      return {
        start: bucket.start,
        end: bucket.end,
        checks,
        failures,
        uptime_percent: checks === 0 ? null : (100 * (checks - failures)) / checks,
      };
    });
    expect(total.body.data).toEqual(expected);
    // The stranger's monitor was checked too (three runs), and is not in the sum: 2 monitors × 3 checks.
    expect((total.body.data as Bucket[]).reduce((n, b) => n + b.checks, 0)).toBe(6);

    const days = await api(t, org.apiKey, 'GET', `/api/v1/monitors/history/total?${query.replace('hour', 'day')}`);
    expect(days.status, JSON.stringify(days.body)).toBe(200);
    expect((days.body.data as Bucket[]).map((b) => b.start)).toEqual([
      '2026-11-23T00:00:00.000Z',
      '2026-11-24T00:00:00.000Z',
    ]);
    expect((days.body.data as Bucket[]).reduce((n, b) => n + b.checks, 0)).toBe(6);

    const minute = await api(t, org.apiKey, 'GET', '/api/v1/monitors/history/total?resolution=minute');
    expect(minute.status).toBe(422);
    const backwards = await api(t, org.apiKey, 'GET', `/api/v1/monitors/history/total?from=${to}&to=${from}`);
    expect(backwards.status).toBe(422);
    expect(backwards.body.error.details).toEqual([expect.objectContaining({ field: 'from' })]);
  });
});
