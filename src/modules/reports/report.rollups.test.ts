import { describe, expect, it } from 'vitest';
import { LatencySketch } from '../checks/index.ts';
import { localDays } from './report.period.ts';
import { DAY_QUANTILES, figuresFromRollups } from './report.rollups.ts';
import type { ReportRollupRow, ReportRollups } from './report.sources.ts';

const H = 3_600_000;
const DAY = 24 * H;
const at = (iso: string) => Date.parse(iso);

/**
 * Hourly rows of one monitor (key 1), and what the executions store keeps beside them: the daily rows (their sums)
 * and, every day here being closed, each day's prefix sums (its first k hours). Hour blocks are read only for the days
 * without prefixes (none here; the store tests read them on both databases).
 */
function store(hourly: ReportRollupRow[]): ReportRollups & { reads: string[] } {
  const daily = new Map<number, { checks: number; failures: number; sketch: LatencySketch }>();
  for (const r of hourly) {
    const day = Math.floor(r.hour_start / DAY) * DAY;
    const d = daily.get(day) ?? { checks: 0, failures: 0, sketch: new LatencySketch() };
    d.checks += r.checks;
    d.failures += r.failures;
    d.sketch.mergeEncoded(r.sketch);
    daily.set(day, d);
  }
  const days: ReportRollupRow[] = [...daily].map(([day, d]) => ({
    monitor_key: 1,
    hour_start: day,
    region_key: 1,
    checks: d.checks,
    failures: d.failures,
    downtime_ms: 0,
    sketch: d.sketch.encode(),
  }));
  const reads: string[] = [];
  return {
    reads,
    monitorKeys: async (ids) => new Map(ids.map((id, i) => [id, i + 1])),
    rollupRows: async () => {
      throw new Error('reports read days and hours in one snapshot');
    },
    rollupSnapshot: async (_keys, range, blocks, prefixes) => {
      const prefixRows = prefixes.days.flatMap((day, i) => {
        if (!daily.has(day)) return [];
        const inPrefix = hourly.filter((r) => r.hour_start >= day && r.hour_start < day + prefixes.ks[i]! * H);
        const sketch = new LatencySketch();
        for (const r of inPrefix) sketch.mergeEncoded(r.sketch);
        return [
          {
            monitor_key: 1,
            hour_start: i,
            checks: inPrefix.reduce((n, r) => n + r.checks, 0),
            failures: inPrefix.reduce((n, r) => n + r.failures, 0),
            sketch: sketch.encode(),
          },
        ];
      });
      const unprefixed = (hour: number) => !daily.has(Math.floor(hour / DAY) * DAY);
      reads.push(
        `${range ? `days ${new Date(range.from).toISOString()} ${new Date(range.to).toISOString()}` : 'no days'}, prefixes ${prefixRows.length}, hours ${blocks.flat().filter(unprefixed).length}`,
      );
      // Each block summed, as the databases do: its sketches as hex, each preceded by its length (4 bytes).
      const blockRows = blocks.flatMap((starts, block) => {
        const rows = hourly.filter((r) => starts.includes(r.hour_start) && unprefixed(r.hour_start));
        if (rows.length === 0) return [];
        const framed = (s: ReportRollupRow['sketch']) => {
          const bytes = typeof s === 'string' ? Buffer.from(s, 'hex') : Buffer.from(s ?? []);
          const length = Buffer.alloc(4);
          length.writeUInt32BE(bytes.length);
          return Buffer.concat([length, bytes]).toString('hex');
        };
        return [
          {
            monitor_key: 1,
            block,
            checks: rows.reduce((n, r) => n + r.checks, 0),
            failures: rows.reduce((n, r) => n + r.failures, 0),
            sketches: rows.map((r) => framed(r.sketch)).join(''),
          },
        ];
      });
      return {
        days: range ? days.filter((r) => r.hour_start >= range.from && r.hour_start < range.to) : [],
        blocks: blockRows,
        prefixes: prefixRows,
      };
    },
  };
}

function row(hourStart: number, latencies: number[]): ReportRollupRow {
  const sketch = new LatencySketch();
  for (const l of latencies) sketch.add(l);
  return {
    monitor_key: 1,
    hour_start: hourStart,
    region_key: 1,
    checks: latencies.length,
    failures: 0,
    downtime_ms: 0,
    sketch: sketch.encode(),
  };
}

function hours(from: string, to: string, latencies: (h: number) => number[]): ReportRollupRow[] {
  const out: ReportRollupRow[] = [];
  for (let h = at(from); h < at(to); h += H) out.push(row(h, latencies(h)));
  return out;
}

describe('figures from rollups', () => {
  it('UTC: whole days from the daily rollups, the edges from prefix sums', async () => {
    const s = store(hours('2026-04-30T00:00:00Z', '2026-05-06T00:00:00Z', () => [100]));
    const f = await figuresFromRollups(
      s,
      ['m'],
      { from: at('2026-05-01T22:00:00Z'), to: at('2026-05-04T02:00:00Z') },
      'UTC',
    );
    // May 1: 2 hours (its daily row less prefix 22); May 2 and 3 whole; May 4: 2 hours (prefix 2).
    expect(s.reads).toEqual(['days 2026-05-01T00:00:00.000Z 2026-05-04T00:00:00.000Z, prefixes 2, hours 0']);
    expect(f.get('m')!.total.checks).toBe(52);
    expect([...f.get('m')!.days].map(([d, x]) => [d, x.checks])).toEqual([
      ['2026-05-01', 2],
      ['2026-05-02', 24],
      ['2026-05-03', 24],
      ['2026-05-04', 2],
    ]);
  });

  it('another zone: a 25-hour day in New York is its UTC day less 4 hours plus 5 of the next', async () => {
    const s = store(hours('2026-10-30T00:00:00Z', '2026-11-04T00:00:00Z', () => [100]));
    const f = await figuresFromRollups(
      s,
      ['m'],
      { from: at('2026-11-01T04:00:00Z'), to: at('2026-11-02T05:00:00Z') },
      'America/New_York',
    );
    expect(f.get('m')!.days.get('2026-11-01')!.checks).toBe(25);
    expect(f.get('m')!.total.checks).toBe(25);
  });

  it('totals only (availability): whole UTC days from the daily rollups in any zone', async () => {
    const s = store(hours('2026-04-30T00:00:00Z', '2026-05-06T00:00:00Z', () => [100]));
    const window = { from: at('2026-05-01T22:00:00Z'), to: at('2026-05-04T02:00:00Z') };
    const f = await figuresFromRollups(s, ['m'], window, 'Europe/Berlin', { days: false });
    expect(s.reads).toEqual(['days 2026-05-01T00:00:00.000Z 2026-05-04T00:00:00.000Z, prefixes 2, hours 0']);
    expect(f.get('m')!.total.checks).toBe(52);
    expect(f.get('m')!.days.size).toBe(0);
  });

  it.each(['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kathmandu', 'Australia/Lord_Howe'])(
    'in %s every day and the total are exactly what grouping the hours one by one gives',
    async (timezone) => {
      let seed = 11;
      const rnd = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
      const hourly = hours('2026-02-20T00:00:00Z', '2026-04-10T00:00:00Z', () =>
        Array.from({ length: 1 + Math.floor(rnd() * 12) }, () => 5 + rnd() * rnd() * 2000),
      );
      const window = { from: at('2026-02-25T13:30:00Z'), to: at('2026-04-02T07:10:00Z') };
      const f = (await figuresFromRollups(store(hourly), ['m'], window, timezone)).get('m')!;
      // By hand: each hour that starts in the window's hours goes to the local day in which it starts.
      const days = localDays(window, timezone);
      const expected = new Map<string, { checks: number; sketch: LatencySketch }>();
      const total = new LatencySketch();
      for (const r of hourly) {
        if (r.hour_start < Math.floor(window.from / H) * H || r.hour_start >= window.to) continue;
        const when = Math.max(r.hour_start, window.from);
        const day = days.find((d) => when >= d.from && when < d.to)!;
        const e = expected.get(day.date) ?? { checks: 0, sketch: new LatencySketch() };
        e.checks += r.checks;
        e.sketch.mergeEncoded(r.sketch);
        expected.set(day.date, e);
        total.mergeEncoded(r.sketch);
      }
      expect([...f.days.keys()]).toEqual([...expected.keys()]);
      for (const [date, e] of expected) {
        expect(f.days.get(date)!.checks, date).toBe(e.checks);
        expect(f.days.get(date)!.latencies, date).toBe(e.sketch.count);
        expect(f.days.get(date)!.quantiles, date).toEqual(e.sketch.quantiles(DAY_QUANTILES));
      }
      expect(f.total.sketch.encode()).toEqual(total.encode());
    },
  );

  it('a Berlin day is its UTC day less its prefix 23 plus prefix 23 of the day before: 3 rows, not 24', async () => {
    const s = store(hours('2026-01-01T00:00:00Z', '2026-04-01T00:00:00Z', () => [100]));
    // January 2026 in Berlin (CET): 2025-12-31T23:00Z → 2026-01-31T23:00Z.
    const f = await figuresFromRollups(
      s,
      ['m'],
      { from: at('2025-12-31T23:00:00Z'), to: at('2026-01-31T23:00:00Z') },
      'Europe/Berlin',
    );
    // UTC days Dec 31 … Jan 30 less their prefix 23, and prefix 23 of Jan 1 … 31 added. Dec 31 has no rows in this
    // store: a day without prefixes, its 23 hours are asked for instead (and not there).
    expect(s.reads).toEqual(['days 2025-12-31T00:00:00.000Z 2026-01-31T00:00:00.000Z, prefixes 31, hours 23']);
    expect(f.get('m')!.days.get('2026-01-01')!.checks).toBe(23); // no row for Dec 31 23:00 in this store
    expect(f.get('m')!.days.get('2026-01-02')!.checks).toBe(24);
    expect(f.get('m')!.total.checks).toBe(743);
  });
});
