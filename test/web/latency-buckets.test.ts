import { describe, expect, it } from 'vitest';
import {
  bucketWidthMs,
  lineValues,
  mergeBuckets,
  MAX_POINTS,
  type SourceBucket,
} from '../../web/src/lib/latency-buckets.ts';
import { lonePoints } from '../../web/src/lib/latency-series.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const T0 = Date.parse('2026-11-24T00:00:00.000Z');

/** `count` minute buckets from T0; `check(i)` says what minute i holds (null: no check). */
function minutes(count: number, check: (i: number) => { ms: number; failed?: boolean } | null): SourceBucket[] {
  return Array.from({ length: count }, (_, i) => {
    const c = check(i);
    const ok = c !== null && !c.failed;
    return {
      start: new Date(T0 + i * MIN).toISOString(),
      checks: c ? 1 : 0,
      failures: c?.failed ? 1 : 0,
      p50_ms: ok ? c.ms : null,
      p95_ms: ok ? c.ms : null,
      p99_ms: ok ? c.ms : null,
    };
  });
}

describe('latency chart buckets', () => {
  it('sizes buckets to the interval and the period, in whole history steps', () => {
    expect(bucketWidthMs(DAY, 300, MIN)).toBe(5 * MIN); // 24 h of a 5-minute monitor: 288 points
    expect(bucketWidthMs(DAY, 30, MIN)).toBe(5 * MIN); // 24 h of a 30 s monitor: at most 300 points
    expect(bucketWidthMs(HOUR, 30, MIN)).toBe(MIN); // never below the history's step
    expect(bucketWidthMs(HOUR, 90, MIN)).toBe(2 * MIN); // an interval between steps rounds up
    expect(bucketWidthMs(7 * DAY, 60, HOUR)).toBe(HOUR); // 168 points
    expect(bucketWidthMs(90 * DAY, 60, HOUR)).toBe(8 * HOUR); // 270 points, not 2,160
    for (const period of [HOUR, DAY, 7 * DAY, 30 * DAY, 90 * DAY]) {
      const step = period > DAY ? HOUR : MIN;
      expect(period / bucketWidthMs(period, 60, step)).toBeLessThanOrEqual(MAX_POINTS);
    }
  });

  it('24 h of a 5-minute monitor becomes one connected line of 288 points, not 1,440 lone dots', () => {
    const source = minutes(1440, (i) => (i % 5 === 2 ? { ms: 100 + (i % 7) } : null));
    const width = bucketWidthMs(DAY, 300, MIN);
    const merged = mergeBuckets(source, width);
    expect(merged).toHaveLength(288);
    expect(merged.every((b) => b.checks === 1)).toBe(true);
    const line = lineValues(merged, (b) => b.p95, width, 2 * 300_000);
    expect(line.every((v) => typeof v === 'number')).toBe(true);
    expect(lonePoints(line)).toEqual([]);
    // The same minutes drawn as they come: every value alone between empty minutes.
    const raw = source.map((b) => b.p95_ms);
    expect(lonePoints(raw)).toHaveLength(288);
  });

  it('merges counts, weights p50 by successful checks and keeps the highest p95', () => {
    const source: SourceBucket[] = [
      { start: new Date(T0).toISOString(), checks: 3, failures: 0, p50_ms: 100, p95_ms: 150, p99_ms: 150 },
      { start: new Date(T0 + MIN).toISOString(), checks: 2, failures: 1, p50_ms: 200, p95_ms: 400, p99_ms: 400 },
      { start: new Date(T0 + 2 * MIN).toISOString(), checks: 1, failures: 1, p50_ms: null, p95_ms: null, p99_ms: null },
    ];
    expect(mergeBuckets(source, 5 * MIN)).toEqual([{ start: T0, checks: 6, failures: 2, p50: 125, p95: 400 }]);
  });

  it('a late check does not break the line; a real silence does', () => {
    // Checks every 5 minutes; one ran late (its bucket empty, the next with two), then nothing for 40 minutes.
    const at = new Set([2, 7, 12, 21, 22, 27, 67, 72]);
    const width = 5 * MIN;
    const merged = mergeBuckets(
      minutes(80, (i) => (at.has(i) ? { ms: 100 } : null)),
      width,
    );
    const line = lineValues(merged, (b) => b.p95, width, 2 * 300_000);
    expect(line.slice(0, 6)).toEqual([100, 100, 100, undefined, 100, 100]);
    expect(line.slice(6, 13)).toEqual([null, null, null, null, null, null, null]); // 35 minutes without a check
    // The current bucket, still empty, ends the line: nothing after it to span to.
    expect(line.slice(13)).toEqual([100, 100, null]);
  });

  it('a failed bucket has no latency and is a gap in the line only while checks stopped', () => {
    const width = 5 * MIN;
    const merged = mergeBuckets(
      minutes(15, (i) => (i % 5 === 0 ? { ms: 100, failed: i === 5 } : null)),
      width,
    );
    expect(lineValues(merged, (b) => b.p95, width, 10 * MIN)).toEqual([100, null, 100]);
  });
});
