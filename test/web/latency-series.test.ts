import { describe, expect, it } from 'vitest';
import { latencySeriesOf, lonePoints } from '../../web/src/lib/latency-series.ts';

const MINUTE = 60_000;

/** 24 h of minute buckets ending with the current one, with a p95 only where `values` says so. */
function day(values: Record<number, number>, now = Date.parse('2026-11-24T10:00:30.000Z')) {
  const end = Math.ceil(now / MINUTE) * MINUTE;
  const data = Array.from({ length: 1440 }, (_, i) => {
    const start = end - (1440 - i) * MINUTE;
    return { start: new Date(start).toISOString(), p95_ms: values[i] ?? null };
  });
  return latencySeriesOf([{ region: 'local', data }]);
}

describe('the latency chart series', () => {
  it('a monitor minutes old: its only values, the current partial bucket included, are drawn as dots', () => {
    const [s] = day({ 1437: 120, 1439: 95 });
    expect(s!.times).toHaveLength(1440);
    expect(s!.times.at(-1)).toBe(Date.parse('2026-11-24T10:00:00.000Z') / 1000);
    expect(s!.values.at(-1)).toBe(95);
    expect(lonePoints(s!.values)).toEqual([1437, 1439]);
  });

  it('values with a neighbour make a line; only the lonely ones are dots', () => {
    expect(lonePoints([null, 5, null, 3, 4, null, 7])).toEqual([1, 6]);
    expect(lonePoints([8])).toEqual([0]);
    expect(lonePoints([1, 2, 3])).toEqual([]);
    expect(lonePoints([null, null])).toEqual([]);
  });
});
