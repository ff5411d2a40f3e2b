/** Bucket `i` holds lateness in (GROWTH^(i-1), GROWTH^i] ms, bucket 0 up to 1 ms: quantiles within 10 %. */
const GROWTH = 1.1;
const LOG_GROWTH = Math.log(GROWTH);
/** 1.1^200 ms is about 53 hours: anything later lands in the last bucket. */
const BUCKETS = 200;

export interface LatenessSummary {
  /** Checks claimed in the window. */
  count: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

function bucketOf(ms: number): number {
  if (ms <= 1) return 0;
  return Math.min(BUCKETS - 1, Math.ceil(Math.log(ms) / LOG_GROWTH));
}

/**
 * The lateness of the checks claimed over the last `windowMs` (claimed-at minus due-at), for `/readyz` and logs.
 * Fixed memory whatever the rate: one row of log-spaced bucket counts per second of the window, reused as the
 * window moves on, so recording is one increment and a summary reads `window / slot × 200` counters.
 */
export class LatenessWindow {
  private readonly slotMs: number;
  private readonly slots: number;
  private readonly counts: Uint32Array;
  /** Which slot-long period each row holds (`floor(at / slotMs)`); a row of another period is stale. */
  private readonly periods: Float64Array;
  private readonly max: Float64Array;

  constructor(windowMs = 60_000, slotMs = 1_000) {
    this.slotMs = slotMs;
    this.slots = Math.max(1, Math.ceil(windowMs / slotMs));
    this.counts = new Uint32Array(this.slots * BUCKETS);
    this.periods = new Float64Array(this.slots).fill(-1);
    this.max = new Float64Array(this.slots);
  }

  record(at: number, latenessMs: number): void {
    const period = Math.floor(at / this.slotMs);
    const row = period % this.slots;
    if (this.periods[row] !== period) {
      this.counts.fill(0, row * BUCKETS, (row + 1) * BUCKETS);
      this.periods[row] = period;
      this.max[row] = 0;
    }
    const ms = Math.max(0, latenessMs);
    this.counts[row * BUCKETS + bucketOf(ms)]! += 1;
    if (ms > this.max[row]!) this.max[row] = ms;
  }

  /** The window ending at `now`; null when nothing was claimed in it. Quantiles are bucket upper bounds (≤ max). */
  summary(now: number): LatenessSummary | null {
    const current = Math.floor(now / this.slotMs);
    const merged = new Float64Array(BUCKETS);
    let count = 0;
    let maxMs = 0;
    for (let row = 0; row < this.slots; row++) {
      const period = this.periods[row]!;
      if (period < 0 || period > current || period <= current - this.slots) continue;
      for (let b = 0; b < BUCKETS; b++) merged[b]! += this.counts[row * BUCKETS + b]!;
      maxMs = Math.max(maxMs, this.max[row]!);
    }
    for (const n of merged) count += n;
    if (count === 0) return null;
    const quantile = (q: number): number => {
      const rank = Math.ceil(q * count);
      let seen = 0;
      for (let b = 0; b < BUCKETS; b++) {
        seen += merged[b]!;
        if (seen < rank) continue;
        // The last bucket has no upper bound: what is in it is at most the maximum.
        if (b === BUCKETS - 1) return maxMs;
        return Math.min(maxMs, b === 0 ? 1 : Math.ceil(GROWTH ** b));
      }
      return maxMs;
    };
    return { count, p50Ms: quantile(0.5), p99Ms: quantile(0.99), maxMs };
  }
}
