/**
 * The reports' read of daily and hourly rollups, pinned per dialect on a recording database (test/support):
 * PostgreSQL reads each row as one text field (concat_ws, the sketch hex-encoded) in one snapshot; SQLite reads the
 * columns with the sketch as hex. A run with SQLite only still sees a change to the PostgreSQL text; the rollups and
 * reports tests run the statements on both databases. (The rollups' writes are pinned with the engine's result batch.)
 */
import { describe, expect, it } from 'vitest';
import { sqlPerDialect } from '../../../../test/support/recording-database.ts';
import { readDaysAndHours } from './rollups.repository.ts';

describe('rollups report read SQL per dialect', () => {
  it('days and hours in one snapshot', async () => {
    expect(
      await sqlPerDialect((db) =>
        readDaysAndHours(db, [1, 2], { from: 0, to: 86_400_000 }, [3_600_000], { framedHours: true }),
      ),
    ).toMatchInlineSnapshot(`
      {
        "postgres": [
          "select concat_ws(',', monitor_key, hour_start, checks, failures, encode(sketch, 'hex')) as "row" from "execution_rollup_day" where "monitor_key" in ($1, $2) and "hour_start" >= $3 and "hour_start" < $4",
          "select concat_ws(',', monitor_key, hour_start, checks, failures, lpad(to_hex(length(sketch)), 8, '0') || encode(sketch, 'hex')) as "row" from "execution_rollup" where "monitor_key" in ($1, $2) and "hour_start" in ($3)",
        ],
        "sqlite": [
          "select "monitor_key", "hour_start", "checks", "failures", hex(sketch) as "sketch" from "execution_rollup_day" where "monitor_key" in (?, ?) and "hour_start" >= ? and "hour_start" < ?",
          "select "monitor_key", "hour_start", "checks", "failures", case when length(sketch) > 0 then printf('%08X', length(sketch)) || hex(sketch) end as "sketch" from "execution_rollup" where "monitor_key" in (?, ?) and "hour_start" in (?)",
        ],
      }
    `);
  });
});
