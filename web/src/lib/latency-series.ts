/** One region's p95 line of the latency chart. */
export interface LatencySeries {
  label: string;
  /** Seconds since the epoch, ascending. */
  times: number[];
  /** null: a gap in the line; undefined: no value, the line goes straight on (latency-buckets.ts lineValues). */
  values: (number | null | undefined)[];
  /** Default: the chart's palette by position. */
  colour?: string;
  dash?: number[];
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
 * bucket width. The chart draws them as dots. `undefined` is not a gap (the line spans it), so the neighbours looked
 * at are the nearest values that are not undefined.
 */
export function lonePoints(values: ReadonlyArray<number | null | undefined>): number[] {
  const out: number[] = [];
  const near = (from: number, dir: 1 | -1): number | null => {
    for (let j = from + dir; j >= 0 && j < values.length; j += dir) {
      const v = values[j];
      if (v !== undefined) return v;
    }
    return null;
  };
  values.forEach((v, i) => {
    if (v === null || v === undefined) return;
    if (near(i, -1) === null && near(i, 1) === null) out.push(i);
  });
  return out;
}
