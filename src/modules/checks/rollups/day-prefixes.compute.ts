import { LatencySketch } from './latency.sketch.ts';
import { DAY_MS, HOUR_MS, type RollupDelta } from './rollups.compute.ts';

/**
 * The prefix sums of a UTC day (docs/reports.md "Reading cost"): element k − 1 holds the day's hours
 * [0, k) summed, for k = 1…23 (the whole day is the daily row itself). A report in a zone whose days start at UTC
 * hour k takes `prefix k` from one UTC day and adds it to the other: one row per UTC day instead of the edge hours.
 */
export const PREFIX_COUNT = 23;

export interface DayPrefixes {
  checks: number[];
  failures: number[];
  /** Encoded sketches of the prefixes' successful latencies; null where a prefix has none. */
  sketches: Array<Uint8Array | null>;
}

/** An hourly rollup as the prefixes read it. */
export interface PrefixHour {
  hour_start: number;
  checks: number;
  failures: number;
  sketch: Uint8Array | null;
}

/** The prefixes of the UTC day starting at `dayStart` from its hourly rows (any order; hours of other days ignored). */
export function prefixesOfHours(dayStart: number, hours: readonly PrefixHour[]): DayPrefixes {
  const byIndex = new Array<PrefixHour | undefined>(24);
  for (const h of hours) {
    const i = (Number(h.hour_start) - dayStart) / HOUR_MS;
    if (i >= 0 && i < 24 && Number.isInteger(i)) byIndex[i] = h;
  }
  const out: DayPrefixes = { checks: [], failures: [], sketches: [] };
  const sketch = new LatencySketch();
  let checks = 0;
  let failures = 0;
  let withSketch = false;
  for (let k = 1; k <= PREFIX_COUNT; k++) {
    const h = byIndex[k - 1];
    if (h) {
      checks += h.checks;
      failures += h.failures;
      if (h.sketch && h.sketch.length > 0) {
        sketch.mergeEncoded(h.sketch);
        withSketch = true;
      }
    }
    out.checks.push(checks);
    out.failures.push(failures);
    // An unchanged prefix shares the bytes of the one before (they are written, never mutated).
    out.sketches.push(!withSketch ? null : h?.sketch && h.sketch.length > 0 ? sketch.encode() : out.sketches[k - 2]!);
  }
  return out;
}

/**
 * The prefixes after hourly deltas of the same (monitor, day, region) were added (a result recorded after its day
 * was given prefixes): a delta at hour index j adds to every prefix k > j.
 */
export function addToPrefixes(dayStart: number, prefixes: DayPrefixes, deltas: readonly RollupDelta[]): DayPrefixes {
  const out: DayPrefixes = {
    checks: [...prefixes.checks],
    failures: [...prefixes.failures],
    sketches: [...prefixes.sketches],
  };
  for (const d of deltas) {
    if (d.hourStart < dayStart || d.hourStart >= dayStart + DAY_MS) continue;
    const j = (d.hourStart - dayStart) / HOUR_MS;
    for (let k = j + 1; k <= PREFIX_COUNT; k++) {
      out.checks[k - 1]! += d.checks;
      out.failures[k - 1]! += d.failures;
      if (d.sketch.count > 0) {
        const merged = LatencySketch.decode(out.sketches[k - 1]);
        merged.merge(d.sketch);
        out.sketches[k - 1] = merged.encode();
      }
    }
  }
  return out;
}
