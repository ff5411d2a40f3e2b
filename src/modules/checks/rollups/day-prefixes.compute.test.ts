import { describe, expect, it } from 'vitest';
import { addToPrefixes, PREFIX_COUNT, prefixesOfHours, type PrefixHour } from './day-prefixes.compute.ts';
import { LatencySketch } from './latency.sketch.ts';
import { DAY_MS, HOUR_MS, type RollupDelta } from './rollups.compute.ts';

const DAY = Date.parse('2026-03-08T00:00:00Z');

function hour(index: number, latencies: number[], failures = 0): PrefixHour {
  const sketch = new LatencySketch();
  for (const v of latencies) sketch.add(v);
  return {
    hour_start: DAY + index * HOUR_MS,
    checks: latencies.length + failures,
    failures,
    sketch: sketch.count > 0 ? sketch.encode() : null,
  };
}

const hex = (bytes: Uint8Array | null) => (bytes ? Buffer.from(bytes).toString('hex') : null);

describe('prefix sums of a UTC day', () => {
  it('holds the hours [0, k) for k = 1…23, null sketches until the first latency, the last hour left out', () => {
    const hours = [hour(2, [10, 20], 1), hour(0, [], 2), hour(5, [300]), hour(23, [5000]), hour(24, [1])];
    const p = prefixesOfHours(DAY, hours);
    expect(p.checks).toHaveLength(PREFIX_COUNT);
    expect(p.checks.slice(0, 6)).toEqual([2, 2, 5, 5, 5, 6]);
    expect(p.failures.slice(0, 6)).toEqual([2, 2, 3, 3, 3, 3]);
    // Hour 23 belongs to the whole day only; hour 24 is the next day's.
    expect(p.checks[PREFIX_COUNT - 1]).toBe(6);
    expect(p.sketches.slice(0, 2)).toEqual([null, null]);
    const upTo5 = new LatencySketch();
    for (const v of [10, 20]) upTo5.add(v);
    expect(hex(p.sketches[2]!)).toBe(hex(upTo5.encode()));
    upTo5.add(300);
    expect(hex(p.sketches[5]!)).toBe(hex(upTo5.encode()));
    expect(hex(p.sketches[22]!)).toBe(hex(upTo5.encode()));
  });

  it('adds a later hour delta to the prefixes that contain its hour, as if it had been there from the start', () => {
    const before = [hour(1, [40]), hour(7, [90, 95], 1)];
    const late = new LatencySketch();
    late.add(1234);
    const delta: RollupDelta = {
      monitorKey: 1,
      hourStart: DAY + 3 * HOUR_MS,
      regionKey: 1,
      checks: 2,
      failures: 1,
      downtimeMs: 0,
      sketch: late,
    };
    const otherDay: RollupDelta = { ...delta, hourStart: DAY + DAY_MS + HOUR_MS };
    const updated = addToPrefixes(DAY, prefixesOfHours(DAY, before), [delta, otherDay]);
    const rebuilt = prefixesOfHours(DAY, [...before, hour(3, [1234], 1)]);
    expect(updated.checks).toEqual(rebuilt.checks);
    expect(updated.failures).toEqual(rebuilt.failures);
    expect(updated.sketches.map(hex)).toEqual(rebuilt.sketches.map(hex));
  });
});
