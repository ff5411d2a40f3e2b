import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExecutionsService, ExecutionsStore, type ExecutionRecord } from '../../src/modules/checks/executions/index.ts';
import { LatencySketch, RollupsRepository, RollupsService } from '../../src/modules/checks/rollups/index.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { createTestDatabase, testDialects, type TestDatabase } from '../support/databases.ts';
import { MON, MON2, actorOf, execution, fakeMonitors } from './executions.fixtures.ts';

const H = 3_600_000;
const DAY = 86_400_000;
const T0 = Date.parse('2026-03-01T00:00:00.000Z');

function exactQuantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]!;
}

describe('latency sketch encoding', () => {
  it('round-trips, merges exactly and stays within 1% relative error', () => {
    const values: number[] = [];
    const a = new LatencySketch();
    const b = new LatencySketch();
    let seed = 7;
    const rnd = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (let i = 0; i < 5000; i++) {
      const v = i % 50 === 0 ? 0 : 20 + rnd() * 400 + (i % 97 === 0 ? 5000 : 0);
      values.push(v);
      (i % 2 === 0 ? a : b).add(v);
    }
    const merged = LatencySketch.decode(a.encode());
    merged.mergeEncoded(b.encode());
    expect(merged.count).toBe(5000);
    for (const q of [0.5, 0.95, 0.99]) {
      const exact = exactQuantile(values, q);
      expect(Math.abs(merged.quantile(q)! - exact) / exact).toBeLessThanOrEqual(0.0101);
    }
    expect(a.encode().length).toBeLessThan(700);
  });
});

for (const dialect of testDialects()) {
  describe(`rollups and history (${dialect})`, () => {
    let db: TestDatabase;
    let clock: ManualClock;
    let rollups: RollupsService;
    const latencies: number[] = [];
    const batchHours = 3;

    beforeAll(async () => {
      db = await createTestDatabase(dialect);
      clock = new ManualClock(T0 + 2 * DAY);
      const store = new ExecutionsStore();
      const executions = new ExecutionsService({ database: db.database, monitors: fakeMonitors() });
      rollups = new RollupsService({
        database: db.database,
        clock,
        retentionDays: 30,
        monitors: fakeMonitors(),
        executions,
      });
      // MON: 3 hours of checks every 30 s in two regions, starting at T0 + 1 day. Region eu-west is down
      // from 01:00 to 01:10 (20 failed checks): 20 × 30 s of downtime.
      const start = T0 + DAY;
      const all: ExecutionRecord[] = [];
      for (let t = start; t < start + batchHours * H; t += 30_000) {
        for (const region of ['eu-west', 'us-east']) {
          const down = region === 'eu-west' && t >= start + H && t < start + H + 10 * 60_000;
          const duration = 50 + ((t / 30_000) % 17) * 13 + (region === 'us-east' ? 100 : 0);
          if (!down) latencies.push(duration);
          all.push(
            execution({
              startedAt: t,
              regionCode: region,
              status: down ? 'down' : 'up',
              durationMs: down ? 10_000 : duration,
              intervalSeconds: 30,
            }),
          );
        }
      }
      // Batches of 100, as the engine sends them.
      for (let i = 0; i < all.length; i += 100) {
        await db.database.transaction((tx) => store.recordBatch(tx, all.slice(i, i + 100)));
      }
      // MON2: a single day-old failure without interval information, then a success.
      await store.recordBatch(db.database, [execution({ monitorId: MON2, startedAt: T0 + 10 * H, status: 'down' })]);
      await store.recordBatch(db.database, [execution({ monitorId: MON2, startedAt: T0 + 10 * H + 60_000 })]);
    });
    afterAll(async () => {
      await db.drop();
    });

    it('keeps one rollup row per monitor, region and hour with counts and downtime', async () => {
      const repo = new RollupsRepository(db.database);
      const monitorKeys = await new ExecutionsService({ database: db.database, monitors: fakeMonitors() }).monitorKeys([
        MON,
      ]);
      const rows = await repo.range([monitorKeys.get(MON)!], T0, T0 + 3 * DAY);
      expect(rows).toHaveLength(batchHours * 2);
      expect(rows.every((r) => r.checks === 120)).toBe(true);
      expect(rows.reduce((s, r) => s + r.failures, 0)).toBe(20);
      expect(rows.reduce((s, r) => s + Number(r.downtime_ms), 0)).toBe(20 * 30_000);
    });

    it('serves hour and day history with percentiles within 1% of exact', async () => {
      const hours = await rollups.history(actorOf(), MON, {
        from: T0 + DAY,
        to: T0 + DAY + batchHours * H,
        resolution: 'hour',
      });
      expect(hours.map((b) => b.checks)).toEqual([240, 240, 240]);
      expect(hours[1]!.failures).toBe(20);
      expect(hours[1]!.uptimePercent).toBeCloseTo((100 * 220) / 240, 2);
      const days = await rollups.history(actorOf(), MON, { from: T0, to: T0 + 2 * DAY, resolution: 'day' });
      expect(days).toHaveLength(2);
      expect(days[0]).toMatchObject({ checks: 0, uptimePercent: null, p50Ms: null });
      expect(days[1]!.checks).toBe(720);
      for (const [q, got] of [
        [0.5, days[1]!.p50Ms],
        [0.95, days[1]!.p95Ms],
        [0.99, days[1]!.p99Ms],
      ] as const) {
        const exact = exactQuantile(latencies, q);
        expect(Math.abs(got! - exact) / exact).toBeLessThanOrEqual(0.011);
      }
      const eu = await rollups.history(actorOf(), MON, {
        from: T0 + DAY,
        to: T0 + 2 * DAY,
        resolution: 'day',
        regionCode: 'eu-west',
      });
      expect(eu[0]).toMatchObject({ checks: 360, failures: 20 });
      const nowhere = await rollups.history(actorOf(), MON, {
        from: T0 + DAY,
        to: T0 + 2 * DAY,
        resolution: 'day',
        regionCode: 'mars',
      });
      expect(nowhere[0]!.checks).toBe(0);
    });

    it('serves minute history from raw executions with exact percentiles', async () => {
      const from = T0 + DAY + H;
      const minutes = await rollups.history(actorOf(), MON, { from, to: from + 15 * 60_000, resolution: 'minute' });
      expect(minutes).toHaveLength(15);
      expect(minutes[0]).toMatchObject({ start: from, end: from + 60_000, checks: 4, failures: 2, uptimePercent: 50 });
      expect(minutes[14]).toMatchObject({ checks: 4, failures: 0 });
      expect(minutes[0]!.p50Ms).not.toBeNull();
    });

    it('defaults to the last 24 hours by hour and rejects bad ranges', async () => {
      const def = await rollups.history(actorOf(), MON, {});
      expect(def).toHaveLength(24);
      expect(def.reduce((s, b) => s + b.checks, 0)).toBe(720);
      await expect(
        rollups.history(actorOf(), MON, { from: T0 + DAY, to: T0, resolution: 'hour' }),
      ).rejects.toMatchObject({ code: 'validation_failed' });
      await expect(
        rollups.history(actorOf(), MON, { from: T0, to: T0 + 2 * DAY, resolution: 'minute' }),
      ).rejects.toMatchObject({ code: 'validation_failed' });
      await expect(
        rollups.history(actorOf(), MON, {
          from: clock.now() - 40 * DAY,
          to: clock.now() - 40 * DAY + H,
          resolution: 'minute',
        }),
      ).rejects.toMatchObject({ code: 'validation_failed' });
      await expect(
        rollups.history(actorOf(), MON, { from: T0 - 200 * DAY, to: T0, resolution: 'hour' }),
      ).rejects.toMatchObject({ code: 'validation_failed' });
      await expect(rollups.history(actorOf('org_01kzzzzzzzzzzzzzzzzzzzzzzz'), MON, {})).rejects.toMatchObject({
        code: 'not_found',
      });
    });

    it('reports daily uptime per monitor including days without data', async () => {
      const byMonitor = await rollups.dailyUptime(
        [MON, MON2, 'mon_01kcccccccccccccccccccccccc'],
        T0 - DAY,
        T0 + 2 * DAY,
      );
      const mon = byMonitor.get(MON)!;
      expect(mon.map((d) => d.day)).toEqual(['2026-02-28', '2026-03-01', '2026-03-02']);
      expect(mon[0]).toEqual({ day: '2026-02-28', checks: 0, failures: 0, downtime_seconds: 0, uptime_percent: null });
      expect(mon[2]).toEqual({
        day: '2026-03-02',
        checks: 720,
        failures: 20,
        downtime_seconds: 600,
        uptime_percent: 97.222,
      });
      // No interval given, no previous gap: the failure accounts for the time to the next check (60 s).
      expect(byMonitor.get(MON2)![1]).toMatchObject({
        checks: 2,
        failures: 1,
        downtime_seconds: 60,
        uptime_percent: 50,
      });
      expect(byMonitor.get('mon_01kcccccccccccccccccccccccc')!.every((d) => d.uptime_percent === null)).toBe(true);
      // In a zone behind UTC, MON's checks (00:00–03:00 UTC on 03-02) fall on 03-01.
      const ny = (await rollups.dailyUptime([MON], T0, T0 + 2 * DAY, 'America/New_York')).get(MON)!;
      expect(ny.find((d) => d.day === '2026-03-01')!.checks).toBe(720);
      await expect(rollups.dailyUptime([MON], T0, T0 + DAY, 'Not/AZone')).rejects.toMatchObject({
        code: 'validation_failed',
      });
    });
  });
}
