/**
 * Check counts of reports are those of the window `[from, to)` to the check, not of the whole hours its edges fall
 * in (DECISIONS §11): a 30-minute range at a 5-minute interval holds 6 checks, 30 days at most 8,640. The expected
 * counts are those of the check times this test generated; on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExecutionsRetention } from '../../src/modules/checks/index.ts';
import { createTestApp, ManualClock, type TestApp } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { at, clientOf, observation } from './reports.helpers.ts';

const MIN = 60_000;
const DAY = 86_400_000;
const START = at('2026-04-30T00:00:00Z');
const NOW = at('2026-05-31T12:17:30Z');

describe.each(testDialects())('exact check counts on %s', (dialect) => {
  let t: TestApp;
  const clock = new ManualClock('2026-04-30T00:00:00.000Z');
  let c: ReturnType<typeof clientOf>;
  let monitor: string;
  // Every 5 minutes from START to NOW; the check at minute 10 of each hour fails (one failure never opens an
  // incident with the default threshold, so no downtime is in the way).
  const times: number[] = [];
  for (let ts = START; ts < NOW; ts += 5 * MIN) times.push(ts);
  const failed = (ts: number) => new Date(ts).getUTCMinutes() === 10;
  const expected = (from: number, to: number) => {
    const inside = times.filter((ts) => ts >= from && ts < to);
    return { checks: inside.length, failed: inside.filter(failed).length };
  };

  beforeAll(async () => {
    t = await createTestApp({ dialect, clock, configFile: { plans: { enterprise: { interval_floor_seconds: 1 } } } });
    const org = await t.createOrg();
    c = clientOf(t, org);
    monitor = await c.createMonitor({ name: 'Every five minutes', interval_seconds: 300 });
    for (let i = 0; i < times.length; i += 288) {
      await t.tocsin.services.checks.engine.applyResults(
        'test',
        times.slice(i, i + 288).map((ts) => ({
          monitorId: monitor,
          regionCode: 'local',
          dueAt: ts,
          observation: observation(failed(ts) ? 'down' : 'up', ts, 100 + (ts % 7)),
        })),
      );
    }
    clock.set(new Date(NOW).toISOString());
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  async function counts(query: string) {
    const a = await c.call('GET', `/api/v1/reports/availability?${query}`);
    const p = await c.call('GET', `/api/v1/reports/performance?${query}`);
    expect(a.status).toBe(200);
    expect(p.status).toBe(200);
    const m = a.body.monitors[0];
    const perf = p.body.monitors[0];
    expect(perf.checks).toBe(m.checks);
    expect(perf.successful_checks).toBe(m.checks - m.failed_checks);
    return { checks: m.checks as number, failed: m.failed_checks as number };
  }

  it('a 30-minute range at a 5-minute interval: 6 checks, inside one hour and across two', async () => {
    expect(await counts('from=2026-05-31T10:10:00Z&to=2026-05-31T10:40:00Z')).toEqual({ checks: 6, failed: 1 });
    expect(await counts('from=2026-05-31T10:45:00Z&to=2026-05-31T11:15:00Z')).toEqual({ checks: 6, failed: 1 });
    expect(await counts('from=2026-05-31T10:12:30Z&to=2026-05-31T10:42:30Z')).toEqual({ checks: 6, failed: 0 });
  });

  it('last_30_days: exactly the 8,640 checks of 30 days, not the edge hours whole', async () => {
    const window = expected(NOW - 30 * DAY, NOW);
    expect(window.checks).toBe(8640);
    expect(await counts('period=last_30_days')).toEqual(window);
    // In a zone with its own days (the edge hours belong to the first and the last local day).
    expect(await counts('period=last_30_days&timezone=America/New_York')).toEqual(window);
  });

  it('any from/to within the executions’ retention, to the millisecond', async () => {
    for (const [from, to] of [
      ['2026-05-02T03:07:01.500Z', '2026-05-20T22:59:59.999Z'],
      ['2026-05-10T00:00:00Z', '2026-05-10T00:05:00Z'],
      ['2026-05-10T00:00:00.001Z', '2026-05-10T00:05:00.001Z'],
      ['2026-05-31T12:00:00Z', '2026-05-31T12:17:30Z'],
    ] as const) {
      expect(await counts(`from=${from}&to=${to}`)).toEqual(expected(Date.parse(from), Date.parse(to)));
    }
  });

  it('edges older than the retention: exact while the executions are there, in proportion once deleted', async () => {
    // 2026-04-30 is beyond the 30 days of retention of NOW; its executions are still stored (no purge yet).
    const from = '2026-04-30T05:17:30Z';
    const to = '2026-04-30T07:42:30Z';
    const q = `from=${from}&to=${to}`;
    expect(await counts(q)).toEqual(expected(Date.parse(from), Date.parse(to)));
    await new ExecutionsRetention({
      database: t.tocsin.database,
      clock,
      retentionDays: 30,
      sleep: async () => {},
    }).purgeOnce();
    // The single checks of those hours are gone: each edge hour's 12 checks count for the 42.5 minutes inside
    // (round(12 × 42.5 / 60) = 9; failures round(1 × 42.5 / 60) = 1), the whole hour between them as it is.
    expect(await counts(q)).toEqual({ checks: 9 + 12 + 9, failed: 1 + 1 + 1 });
    // The window of the last 30 days is unaffected: its own checks are all kept.
    expect(await counts('period=last_30_days')).toEqual(expected(NOW - 30 * DAY, NOW));
  });
});
