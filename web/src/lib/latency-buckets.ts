/**
 * Buckets of the monitor page's latency chart: the history's minute or hour buckets merged into buckets sized to the
 * period and to the monitor's interval, so that a 24 h chart of a 5-minute monitor is a connected line of 288 points,
 * not 1,440 minutes of which one in five has a check (drawn as dots).
 */

/** More points than this per line are not readable on a page-wide chart (and cost drawing time). */
export const MAX_POINTS = 300;

export interface SourceBucket {
  start: string;
  checks: number;
  failures: number;
  p50_ms: number | null;
  p95_ms: number | null;
  p99_ms: number | null;
}

export interface ChartBucket {
  /** Epoch ms of the bucket's start. */
  start: number;
  checks: number;
  failures: number;
  /** Successful checks' latency; null: no successful check in the bucket. */
  p50: number | null;
  p95: number | null;
}

/**
 * The width of a chart bucket: a whole number of the history's `stepMs`, at least one check interval (a bucket
 * narrower than the interval is empty most of the time) and wide enough that the period has at most MAX_POINTS.
 */
export function bucketWidthMs(periodMs: number, intervalSeconds: number, stepMs: number): number {
  const atLeast = Math.max(stepMs, intervalSeconds * 1000, periodMs / MAX_POINTS);
  return Math.ceil(atLeast / stepMs) * stepMs;
}

/**
 * The history's buckets merged into buckets of `widthMs` (aligned to multiples of it since the epoch). Percentiles of
 * merged buckets cannot be recomputed from the parts: p50 is the parts' p50 weighted by their successful checks,
 * p95 the highest part's p95 (a slow minute stays visible). A bucket with one part keeps its exact values.
 */
export function mergeBuckets(buckets: readonly SourceBucket[], widthMs: number): ChartBucket[] {
  const out: ChartBucket[] = [];
  let weight = 0;
  let p50Sum = 0;
  for (const b of buckets) {
    const at = Date.parse(b.start);
    const start = Math.floor(at / widthMs) * widthMs;
    let last = out[out.length - 1];
    if (!last || last.start !== start) {
      if (last) finish(last, weight, p50Sum);
      weight = 0;
      p50Sum = 0;
      last = { start, checks: 0, failures: 0, p50: null, p95: null };
      out.push(last);
    }
    last.checks += b.checks;
    last.failures += b.failures;
    const ok = b.checks - b.failures;
    if (b.p50_ms !== null && ok > 0) {
      weight += ok;
      p50Sum += b.p50_ms * ok;
    }
    if (b.p95_ms !== null) last.p95 = last.p95 === null ? b.p95_ms : Math.max(last.p95, b.p95_ms);
  }
  const tail = out[out.length - 1];
  if (tail) finish(tail, weight, p50Sum);
  return out;
}

function finish(b: ChartBucket, weight: number, p50Sum: number): void {
  b.p50 = weight > 0 ? Math.round((p50Sum / weight) * 10) / 10 : null;
}

/**
 * A line's values: null (a gap in the line) where checks stopped for longer than `maxQuietMs`, undefined (the line
 * goes straight on) for an empty bucket inside a shorter quiet time: a check that ran a little late leaves its own
 * bucket empty and the next one with two checks, which is not an outage of data.
 */
export function lineValues(
  buckets: readonly ChartBucket[],
  value: (b: ChartBucket) => number | null,
  widthMs: number,
  maxQuietMs: number,
): (number | null | undefined)[] {
  const out: (number | null | undefined)[] = buckets.map((b) => (b.checks > 0 ? value(b) : null));
  let i = 0;
  while (i < out.length) {
    if (buckets[i]!.checks > 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < out.length && buckets[j]!.checks === 0) j++;
    const bounded = i > 0 && j < out.length;
    if (bounded && (j - i) * widthMs < maxQuietMs) for (let k = i; k < j; k++) out[k] = undefined;
    i = j;
  }
  return out;
}
