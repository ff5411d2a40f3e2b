/** Median of a non-empty list (the list is not modified). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Median absolute deviation around `centre`. */
export function medianAbsoluteDeviation(values: readonly number[], centre: number): number {
  return median(values.map((v) => Math.abs(v - centre)));
}

/**
 * Iglewicz & Hoaglin's modified z-score, `0.6745 · (x − median) / MAD`; an outlier when above 3.5.
 * The MAD is floored (reference §4.3: max(MAD, 1 ms, 2 % of the median)) so a perfectly steady series
 * does not turn every millisecond of jitter into an outlier.
 */
export function robustZ(x: number, centre: number, mad: number): number {
  const floor = Math.max(mad, 1, 0.02 * centre);
  return (0.6745 * (x - centre)) / floor;
}
