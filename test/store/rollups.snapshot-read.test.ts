import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDaysAndHours } from '../../src/modules/checks/rollups/rollups.repository.ts';
import type { RollupRow, RollupsTables } from '../../src/modules/checks/rollups/rollups.tables.ts';
import { createTestDatabase, testDialects, type TestDatabase } from '../support/databases.ts';

const H = 3_600_000;
const DAY = 86_400_000;
const T0 = Date.parse('2026-03-01T00:00:00.000Z');

function row(monitor: number, start: number, sketch: Uint8Array | null, checks = 5, failures = 2): RollupRow {
  return { monitor_key: monitor, hour_start: start, region_key: 1, checks, failures, downtime_ms: 7, sketch };
}

for (const dialect of testDialects()) {
  describe(`rollup snapshot read on ${dialect}`, () => {
    let db: TestDatabase;
    beforeAll(async () => {
      db = await createTestDatabase(dialect);
      const tables = db.database.tables<RollupsTables>();
      // A sketch with bytes, an empty one and none: each must come back as it was stored (hex, '' and null).
      await tables
        .insertInto('execution_rollup_day')
        .values([
          row(1, T0, Uint8Array.from([0x0a, 0xff, 0x00])),
          row(1, T0 + DAY, new Uint8Array(0), 3, 3),
          row(2, T0, null, 4, 4),
          row(3, T0, Uint8Array.from([1])),
        ])
        .execute();
      await tables
        .insertInto('execution_rollup')
        .values([row(1, T0 + 2 * H, Uint8Array.from([0xab]), 1, 0), row(2, T0 + 3 * H, null, 2_000_000_000, 0)])
        .execute();
    });
    afterAll(async () => db.drop());

    const sorted = <T extends { monitor_key: number; hour_start: number }>(rows: T[]) =>
      [...rows].sort((a, b) => a.monitor_key - b.monitor_key || a.hour_start - b.hour_start);

    // SQLite's hex(NULL) is '': both mean "no sketch" to the fold; PostgreSQL keeps null.
    const none = dialect === 'sqlite' ? '' : null;

    it('reads days and hours with numbers as numbers and sketches as hex, null or empty', async () => {
      const read = await readDaysAndHours(db.database, [1, 2], { from: T0, to: T0 + 2 * DAY }, [
        T0 + 2 * H,
        T0 + 3 * H,
      ]);
      expect(sorted(read.days).map((r) => ({ ...r, sketch: r.sketch?.toLowerCase() ?? r.sketch }))).toEqual([
        { monitor_key: 1, hour_start: T0, checks: 5, failures: 2, sketch: '0aff00' },
        { monitor_key: 1, hour_start: T0 + DAY, checks: 3, failures: 3, sketch: '' },
        { monitor_key: 2, hour_start: T0, checks: 4, failures: 4, sketch: none },
      ]);
      expect(sorted(read.hours).map((r) => ({ ...r, sketch: r.sketch?.toLowerCase() ?? r.sketch }))).toEqual([
        { monitor_key: 1, hour_start: T0 + 2 * H, checks: 1, failures: 0, sketch: 'ab' },
        { monitor_key: 2, hour_start: T0 + 3 * H, checks: 2_000_000_000, failures: 0, sketch: none },
      ]);
    });

    it('reads days alone (one statement) and nothing for no monitors', async () => {
      const read = await readDaysAndHours(db.database, [3], { from: T0, to: T0 + DAY }, []);
      expect(read.days.map((r) => r.sketch?.toLowerCase())).toEqual(['01']);
      expect(read.hours).toEqual([]);
      expect(await readDaysAndHours(db.database, [], { from: T0, to: T0 + DAY }, [T0])).toEqual({
        days: [],
        hours: [],
      });
    });

    it('readTextArrays is PostgreSQL only and refuses inside a transaction', async () => {
      if (dialect === 'sqlite') {
        await expect(db.database.readTextArrays([{ sql: 'select 1', parameters: [] }])).rejects.toThrow(
          /PostgreSQL only/,
        );
        return;
      }
      const [first, second] = await db.database.readTextArrays([
        { sql: 'select $1::int as a, null::text as b', parameters: [42] },
        { sql: "select '2026'::bigint", parameters: [] },
      ]);
      expect(first).toEqual([['42', null]]);
      expect(second).toEqual([['2026']]);
      await expect(
        db.database.transaction((tx) => tx.readTextArrays([{ sql: 'select 1', parameters: [] }])),
      ).rejects.toThrow(/outside a transaction/);
      // A failing statement inside the snapshot rolls it back and the connection stays usable.
      await expect(
        db.database.readTextArrays([
          { sql: 'select 1', parameters: [] },
          { sql: 'select * from no_such_table', parameters: [] },
        ]),
      ).rejects.toThrow();
      expect(await db.database.readTextArrays([{ sql: 'select 1', parameters: [] }])).toEqual([[['1']]]);
    });
  });
}
