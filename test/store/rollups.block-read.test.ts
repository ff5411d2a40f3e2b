import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DayPrefixesCompactor } from '../../src/modules/checks/rollups/index.ts';
import { readDaysAndHourBlocks } from '../../src/modules/checks/rollups/rollups.repository.ts';
import type { RollupRow, RollupsTables } from '../../src/modules/checks/rollups/rollups.tables.ts';
import { DAY_QUANTILES, figuresFromRollups } from '../../src/modules/reports/report.rollups.ts';
import type { ReportRollups } from '../../src/modules/reports/report.sources.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { createTestDatabase, testDialects, type TestDatabase } from '../support/databases.ts';
import { at, H, history, MONITORS, reference, WINDOW, ZONES } from '../support/rollup-history.ts';

/** Days that ended 15 minutes or more before this have prefix sums in these tests (the first half of the window). */
const MIDDLE = at('2026-03-18T00:15:00Z');

for (const dialect of testDialects()) {
  describe(`report figures from days, prefixes and hours on ${dialect}`, () => {
    let db: TestDatabase;
    let hourly: RollupRow[];
    beforeAll(async () => {
      db = await createTestDatabase(dialect);
      const tables = db.database.tables<RollupsTables>();
      const h = history();
      hourly = h.hourly;
      for (let i = 0; i < h.hourly.length; i += 500)
        await tables
          .insertInto('execution_rollup')
          .values(h.hourly.slice(i, i + 500))
          .execute();
      for (let i = 0; i < h.daily.length; i += 500)
        await tables
          .insertInto('execution_rollup_day')
          .values(h.daily.slice(i, i + 500))
          .execute();
      // The days before the middle of the window get their prefixes; later ones are read from their hours.
      const compactor = new DayPrefixesCompactor({ database: db.database, clock: new ManualClock(MIDDLE) });
      expect(await compactor.compactOnce()).toBeGreaterThan(0);
    });
    afterAll(async () => db.drop());

    /** The reports' port on this database: with prefix sums (as the app reads), or every hour a row of its own. */
    const port = (withPrefixes: boolean, reads: number[] = []): ReportRollups => ({
      monitorKeys: async (ids) => new Map(ids.map((id) => [id, Number(id)])),
      rollupRows: async () => {
        throw new Error('reports read days and hours in one snapshot');
      },
      rollupSnapshot: async (keys, days, blocks, prefixes) => {
        const read = await readDaysAndHourBlocks(db.database, keys, days, blocks, withPrefixes ? { prefixes } : {});
        reads.push(read.prefixes.length);
        return read;
      },
    });
    const ids = MONITORS.map(String);

    for (const timezone of ZONES) {
      it(`${timezone}: the same figures per local day and window with prefixes as per hour and as the hours themselves`, async () => {
        const prefixReads: number[] = [];
        const hourReads: number[] = [];
        const byBlock = await figuresFromRollups(port(true, prefixReads), ids, WINDOW, timezone);
        const byHour = await figuresFromRollups(port(false, hourReads), ids, WINDOW, timezone);
        const expected = reference(hourly, timezone);
        for (const id of ids) {
          const b = byBlock.get(id)!;
          const h = byHour.get(id)!;
          expect([...b.days]).toEqual([...h.days]);
          expect(b.total.checks).toBe(h.total.checks);
          expect(b.total.failures).toBe(h.total.failures);
          expect(b.total.sketch.encode()).toEqual(h.total.sketch.encode());
          const want = expected.get(Number(id))!;
          expect([...b.days.keys()]).toEqual([...want.keys()]);
          for (const [date, d] of want)
            expect(b.days.get(date)).toEqual({
              checks: d.checks,
              failures: d.failures,
              latencies: d.sketch.count,
              quantiles: d.sketch.quantiles(DAY_QUANTILES),
            });
        }
        // The window's days: 33 or 34 (the zone's dates of the window).
        expect(byBlock.get('1')!.days.size).toBeGreaterThan(32);
        // The first half of the window was read from prefixes (the window's first edge is one even in UTC), the
        // second half from hours; without prefixes, hours only.
        expect(prefixReads.reduce((a, n) => a + n, 0)).toBeGreaterThan(0);
        expect(hourReads.reduce((a, n) => a + n, 0)).toBe(0);
      });

      it(`${timezone}: the window's totals alone (no days) agree too`, async () => {
        const byBlock = await figuresFromRollups(port(true), ids, WINDOW, timezone, { days: false });
        const byHour = await figuresFromRollups(port(false), ids, WINDOW, timezone, { days: false });
        for (const id of ids) {
          const b = byBlock.get(id)!.total;
          const h = byHour.get(id)!.total;
          expect([b.checks, b.failures, b.sketch.encode()]).toEqual([h.checks, h.failures, h.sketch.encode()]);
        }
      });
    }

    it('hours of a day without prefixes: a block row sums them (PostgreSQL: one row per monitor and block); empty blocks and monitors read nothing', async () => {
      const h0 = at('2026-03-30T01:00:00Z');
      expect(h0).toBeGreaterThan(MIDDLE);
      const noPrefixes = { prefixes: { days: [], ks: [] } };
      const read = await readDaysAndHourBlocks(
        db.database,
        [2, 99],
        null,
        [[h0, h0 + H], [at('2030-01-01T00:00:00Z')]],
        noPrefixes,
      );
      const rows = hourly.filter((r) => r.monitor_key === 2 && (r.hour_start === h0 || r.hour_start === h0 + H));
      expect(read.days).toEqual([]);
      expect(read.blocks.length).toBe(dialect === 'postgres' ? 1 : rows.length);
      expect(new Set(read.blocks.map((r) => `${r.monitor_key} ${r.block}`))).toEqual(new Set(['2 0']));
      expect(read.blocks.reduce((n, r) => n + r.checks, 0)).toBe(rows.reduce((n, r) => n + r.checks, 0));
      expect(read.blocks.reduce((n, r) => n + r.failures, 0)).toBe(rows.reduce((n, r) => n + r.failures, 0));
      // Each sketch preceded by its length in bytes (4 bytes, big-endian).
      const pieces = read.blocks.flatMap((r) => {
        const bytes = Buffer.from(r.sketches ?? '', 'hex');
        const out: string[] = [];
        for (let at = 0; at < bytes.length; at += 4 + bytes.readUInt32BE(at))
          out.push(bytes.subarray(at + 4, at + 4 + bytes.readUInt32BE(at)).toString('hex'));
        return out.filter((p) => p !== '');
      });
      const stored = rows.filter((r) => r.sketch).map((r) => Buffer.from(r.sketch!).toString('hex'));
      expect(pieces.map((p) => p.toLowerCase()).sort()).toEqual(stored.sort());
      expect(await readDaysAndHourBlocks(db.database, [], null, [[h0]])).toEqual({
        days: [],
        blocks: [],
        prefixes: [],
      });
    });
  });
}
