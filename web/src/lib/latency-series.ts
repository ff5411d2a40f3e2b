/** One region's p95 line of the latency chart. */
export interface LatencySeries {
  label: string;
  /** Seconds since the epoch, ascending. */
  times: number[];
  values: (number | null)[];
}

/** The chart's series from the history buckets of each region (p95 per bucket; null where a bucket has no check). */
export function latencySeriesOf(
  perRegion: ReadonlyArray<{ region: string; data: ReadonlyArray<{ start: string; p95_ms: number | null }> }>,
): LatencySeries[] {
  return perRegion.map((r) => ({
    label: r.region,
    times: r.data.map((b) => Date.parse(b.start) / 1000),
    values: r.data.map((b) => b.p95_ms),
  }));
}

/**
 * The indices of values with no value on either side. A line needs two neighbouring points, so these would not be
 * drawn at all: a monitor's first checks, the current (partial) bucket after an empty one, checks rarer than the
 * bucket width. The chart draws them as dots.
 */
export function lonePoints(values: ReadonlyArray<number | null>): number[] {
  const out: number[] = [];
  values.forEach((v, i) => {
    if (v === null) return;
    const before = i > 0 ? values[i - 1] : null;
    const after = i < values.length - 1 ? values[i + 1] : null;
    if ((before ?? null) === null && (after ?? null) === null) out.push(i);
  });
  return out;
}
