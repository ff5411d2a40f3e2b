import { describe, expect, it } from 'vitest';
import { LatencySketch } from '../checks/index.ts';
import { figuresFromRollups } from './report.rollups.ts';
import type { ReportRollupRow, ReportRollups } from './report.sources.ts';

const H = 3_600_000;
const at = (iso: string) => Date.parse(iso);

function source(rows: (resolution: 'hour' | 'day', from: number, to: number) => ReportRollupRow[]): ReportRollups & {
  reads: string[];
} {
  const reads: string[] = [];
  return {
    reads,
    monitorKeys: async (ids) => new Map(ids.map((id, i) => [id, i + 1])),
    rollupRows: async (_keys, from, to, resolution) => {
      reads.push(`${resolution} ${new Date(from).toISOString()} ${new Date(to).toISOString()}`);
      return rows(resolution, from, to);
    },
  };
}

function row(hourStart: number, checks: number, latency: number): ReportRollupRow {
  const sketch = new LatencySketch();
  for (let i = 0; i < checks; i++) sketch.add(latency);
  return {
    monitor_key: 1,
    hour_start: hourStart,
    region_key: 1,
    checks,
    failures: 0,
    downtime_ms: 0,
    sketch: sketch.encode(),
  };
}

describe('figures from rollups', () => {
  it('UTC: whole days from the daily rollups, the edges from the hourly ones', async () => {
    const s = source((resolution, from) => [row(from, resolution === 'day' ? 10 : 1, 100)]);
    const f = await figuresFromRollups(
      s,
      ['m'],
      { from: at('2026-05-01T22:00:00Z'), to: at('2026-05-04T02:00:00Z') },
      'UTC',
    );
    expect(s.reads).toEqual([
      'hour 2026-05-01T22:00:00.000Z 2026-05-02T00:00:00.000Z',
      'day 2026-05-02T00:00:00.000Z 2026-05-04T00:00:00.000Z',
      'hour 2026-05-04T00:00:00.000Z 2026-05-04T02:00:00.000Z',
    ]);
    expect(f.get('m')!.total.checks).toBe(12);
    expect([...f.get('m')!.days.keys()]).toEqual(['2026-05-01', '2026-05-02', '2026-05-04']);
  });

  it('another zone: hourly rollups grouped by the local day each hour starts in', async () => {
    const s = source((_r, from, to) => {
      const out: ReportRollupRow[] = [];
      for (let h = from; h < to; h += H) out.push(row(h, 1, 100));
      return out;
    });
    // 2026-11-01 in New York is 25 hours long.
    const f = await figuresFromRollups(
      s,
      ['m'],
      { from: at('2026-11-01T04:00:00Z'), to: at('2026-11-02T05:00:00Z') },
      'America/New_York',
    );
    expect(s.reads).toHaveLength(1);
    expect(f.get('m')!.days.get('2026-11-01')!.checks).toBe(25);
  });

  it('totals only (availability): whole UTC days from the daily rollups in any zone', async () => {
    const s = source((resolution, from) => [row(from, resolution === 'day' ? 10 : 1, 100)]);
    const window = { from: at('2026-05-01T22:00:00Z'), to: at('2026-05-04T02:00:00Z') };
    const f = await figuresFromRollups(s, ['m'], window, 'Europe/Berlin', { days: false });
    expect(s.reads.map((r) => r.split(' ')[0])).toEqual(['hour', 'day', 'hour']);
    expect(f.get('m')!.total.checks).toBe(12);
    expect(f.get('m')!.days.size).toBe(0);
  });

  it('folds any number of rows (90 days of hourly rows for many monitors) without holding them in one array', async () => {
    const many = Array.from({ length: 200_000 }, (_, i) => row(at('2026-01-01T00:00:00Z') + (i % 2000) * H, 1, 50));
    const s = source(() => many);
    const f = await figuresFromRollups(
      s,
      ['m'],
      { from: at('2026-01-01T00:00:00Z'), to: at('2026-04-01T00:00:00Z') },
      'Europe/Berlin',
    );
    expect(f.get('m')!.total.checks).toBe(200_000);
  });
});
