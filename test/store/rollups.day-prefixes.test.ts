import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExecutionsService, ExecutionsStore, type ExecutionRecord } from '../../src/modules/checks/executions/index.ts';
import { DayPrefixesCompactor, LatencySketch, RollupsService } from '../../src/modules/checks/rollups/index.ts';
import { PREFIX_COUNT, type DayPrefixes } from '../../src/modules/checks/rollups/day-prefixes.compute.ts';
import { DayPrefixesRepository } from '../../src/modules/checks/rollups/day-prefixes.repository.ts';
import type { RollupDayRow, RollupRow, RollupsTables } from '../../src/modules/checks/rollups/rollups.tables.ts';
import type { Window } from '../../src/modules/reports/report.period.ts';
import { figuresFromRollups } from '../../src/modules/reports/report.rollups.ts';
import type { ReportRollups } from '../../src/modules/reports/report.sources.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { createTestDatabase, testDialects, type TestDatabase } from '../support/databases.ts';
import { MON, MON2, execution, fakeMonitors } from './executions.fixtures.ts';

const H = 3_600_000;
const DAY = 24 * H;
/** Six days of checks every 20 minutes, across New York's change to summer time (2026-03-08 07:00Z). */
const START = Date.parse('2026-03-05T00:00:00Z');
const END = START + 6 * DAY;
const WINDOW: Window = { from: START + 3 * H + 17 * 60_000, to: END - 2 * H - 41_000 };
const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Asia/Kathmandu', 'Pacific/Chatham'];

/** Deterministic history: MON in two regions, MON2 in one; some checks down, latencies spread. */
function history(): ExecutionRecord[] {
  const out: ExecutionRecord[] = [];
  let seed = 11;
  const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  for (let t = START; t < END; t += 20 * 60_000) {
    for (const [monitorId, regionCode] of [
      [MON, 'eu-west'],
      [MON, 'us-east'],
      [MON2, 'eu-west'],
    ] as const) {
      const down = next() < 0.08;
      out.push(
        execution({
          monitorId,
          regionCode,
          startedAt: t + Math.floor(next() * 60_000),
          status: down ? 'down' : 'up',
          durationMs: down ? 10_000 : Math.round(15 + next() * 900),
          intervalSeconds: 1200,
        }),
      );
    }
  }
  return out;
}

for (const dialect of testDialects()) {
  describe(`daily rollups with prefix sums (${dialect})`, () => {
    let db: TestDatabase;
    let clock: ManualClock;
    let store: ExecutionsStore;
    let rollups: RollupsService;
    let executions: ExecutionsService;
    const ids = [MON, MON2];

    beforeAll(async () => {
      db = await createTestDatabase(dialect);
      clock = new ManualClock(END + 30 * 60_000);
      store = new ExecutionsStore();
      executions = new ExecutionsService({ database: db.database, monitors: fakeMonitors() });
      rollups = new RollupsService({
        database: db.database,
        clock,
        retentionDays: 30,
        monitors: fakeMonitors(),
        executions,
      });
      const all = history();
      for (let i = 0; i < all.length; i += 60)
        await db.database.transaction((tx) => store.recordBatch(tx, all.slice(i, i + 60)));
    });
    afterAll(async () => db.drop());

    const tables = () => db.database.tables<RollupsTables>();
    const dayRows = async (): Promise<RollupDayRow[]> =>
      tables().selectFrom('execution_rollup_day').selectAll().orderBy('hour_start').execute();
    const hourRows = async (): Promise<RollupRow[]> => tables().selectFrom('execution_rollup').selectAll().execute();

    const hasPrefixes = (d: RollupDayRow) => (dialect === 'postgres' ? d.prefix_checks != null : d.prefixed === 1);
    /** A day's prefixes where its dialect keeps them (PostgreSQL: arrays on the row; SQLite: rows of their own). */
    const prefixesOf = async (d: RollupDayRow): Promise<DayPrefixes> =>
      dialect === 'postgres'
        ? { checks: d.prefix_checks!, failures: d.prefix_failures!, sketches: d.prefix_sketches! }
        : new DayPrefixesRepository(db.database).readSqlite({ ...d, hour_start: Number(d.hour_start) });

    /** Every day that has prefixes holds exactly the sums of its hours [0, k). */
    async function expectPrefixesAreSums(): Promise<number> {
      const hours = await hourRows();
      let withPrefixes = 0;
      for (const d of await dayRows()) {
        if (!hasPrefixes(d)) continue;
        withPrefixes++;
        const p = await prefixesOf(d);
        expect(p.checks).toHaveLength(PREFIX_COUNT);
        const dayStart = Number(d.hour_start);
        for (let k = 1; k <= PREFIX_COUNT; k++) {
          const inPrefix = hours.filter(
            (h) =>
              h.monitor_key === d.monitor_key &&
              h.region_key === d.region_key &&
              Number(h.hour_start) >= dayStart &&
              Number(h.hour_start) < dayStart + k * H,
          );
          const sketch = new LatencySketch();
          for (const h of inPrefix) sketch.mergeEncoded(h.sketch);
          expect(p.checks[k - 1]).toBe(inPrefix.reduce((n, h) => n + h.checks, 0));
          expect(p.failures[k - 1]).toBe(inPrefix.reduce((n, h) => n + h.failures, 0));
          const stored = p.sketches[k - 1];
          expect(stored ? Buffer.from(stored).toString('hex') : null).toBe(
            sketch.count > 0 ? Buffer.from(sketch.encode()).toString('hex') : null,
          );
        }
      }
      return withPrefixes;
    }

    /** The reports' port: with prefixes (as the app on PostgreSQL), or reading every hour (the reference). */
    const port = (withPrefixes: boolean, blockRows: number[] = []): ReportRollups => ({
      monitorKeys: (monitorIds) => executions.monitorKeys(monitorIds),
      rollupRows: async () => {
        throw new Error('reports read days and hours in one snapshot');
      },
      rollupSnapshot: async (keys, days, blocks, prefixes) => {
        const read = await rollups.rollupSnapshot(keys, days, blocks, withPrefixes ? { prefixes } : {});
        blockRows.push(read.blocks.length);
        return read;
      },
    });

    /** Figures per local day and for the window, in every zone, read with prefixes equal those read per hour. */
    async function expectSameFigures(): Promise<number> {
      let blocks = 0;
      for (const timezone of ZONES) {
        for (const options of [{ days: true }, { days: false }]) {
          const reads: number[] = [];
          const got = await figuresFromRollups(port(true, reads), ids, WINDOW, timezone, options);
          const want = await figuresFromRollups(port(false), ids, WINDOW, timezone, options);
          blocks += reads.reduce((a, n) => a + n, 0);
          for (const id of ids) {
            const g = got.get(id)!;
            const w = want.get(id)!;
            expect([...g.days], `${timezone} ${id}`).toEqual([...w.days]);
            expect([g.total.checks, g.total.failures, g.total.sketch.encode()]).toEqual([
              w.total.checks,
              w.total.failures,
              w.total.sketch.encode(),
            ]);
          }
          if (options.days) expect(got.get(MON)!.days.size).toBeGreaterThanOrEqual(6);
        }
      }
      return blocks;
    }

    it('reads the same figures before any day has prefixes (the hours of every prefix are read instead)', async () => {
      expect((await dayRows()).some(hasPrefixes)).toBe(false);
      expect(await expectSameFigures()).toBeGreaterThan(0);
    });

    it('gives the days closed for the grace their prefixes, the sums of their hours; the reads agree part-way too', async () => {
      // Part-way: only the first three days are closed.
      clock.set(START + 3 * DAY + 15 * 60_000);
      const compactor = new DayPrefixesCompactor({ database: db.database, clock, batchSize: 2 });
      expect(await compactor.compactOnce()).toBe(2 * 3 + 3); // MON's two regions and MON2, three days
      expect(await expectPrefixesAreSums()).toBe(9);
      await expectSameFigures();
      // All closed days; the last one ended 30 min ago, past the 15 min grace.
      clock.set(END + 30 * 60_000);
      expect(await compactor.compactOnce()).toBe(9);
      expect(await compactor.compactOnce()).toBe(0);
      expect(await expectPrefixesAreSums()).toBe(18);
      // No hourly row is read for closed days: every prefix is on its daily row.
      expect(await expectSameFigures()).toBe(0);
    });

    it('a result recorded after its day has prefixes adds to them (a new region there is read from its hours)', async () => {
      const late = [
        execution({ monitorId: MON, regionCode: 'eu-west', startedAt: START + DAY + 2 * H + 5_000, durationMs: 3_333 }),
        execution({ monitorId: MON, regionCode: 'us-east', startedAt: START + 2 * DAY + 20 * H, status: 'down' }),
        execution({ monitorId: MON2, regionCode: 'ap-south', startedAt: START + 3 * DAY + 7 * H, durationMs: 44 }),
      ];
      await db.database.transaction((tx) => store.recordBatch(tx, late));
      expect(await expectPrefixesAreSums()).toBe(18);
      const newRegion = (await dayRows()).filter((d) => !hasPrefixes(d));
      expect(newRegion).toHaveLength(1);
      expect(await expectSameFigures()).toBeGreaterThan(0);
      clock.set(END + 40 * 60_000);
      expect(await new DayPrefixesCompactor({ database: db.database, clock }).compactOnce()).toBe(1);
      expect(await expectPrefixesAreSums()).toBe(19);
      expect(await expectSameFigures()).toBe(0);
    });

    // PostgreSQL only: there a pass skips the rows a writer holds (SKIP LOCKED). SQLite transactions begin IMMEDIATE, so
    // a pass on a second connection waits for the writer; in one process (this test) that wait would block the thread
    // the writer needs to finish, and a server has one connection anyway. Across processes the wait is shown by
    // test/e2e/demo-beside-serve.test.ts.
    if (dialect === 'postgres')
      it('skips a day a writer holds and gives it its prefixes on the next pass, with the writer’s result', async () => {
        // A day with no prefixes yet: a region that first reports for a closed day.
        const late = [
          execution({ monitorId: MON2, regionCode: 'sa-east', startedAt: START + 4 * DAY + 9 * H, durationMs: 77 }),
        ];
        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        let recorded!: () => void;
        const inside = new Promise<void>((resolve) => (recorded = resolve));
        const writer = db.database.transaction(async (tx) => {
          await store.recordBatch(tx, late);
          recorded();
          await held;
        });
        await inside;
        const compactor = new DayPrefixesCompactor({ database: db.reopen(), clock });
        expect(await compactor.compactOnce()).toBe(0);
        release();
        await writer;
        expect(await compactor.compactOnce()).toBe(1);
        expect(await expectPrefixesAreSums()).toBe(20);
        await expectSameFigures();
      });
  });
}
