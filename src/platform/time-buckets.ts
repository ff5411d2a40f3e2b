import { validationFailed } from './errors.ts';

/** The bucket sizes of a history or a count over time: UTC minutes, hours and days. */
export type BucketResolution = 'minute' | 'hour' | 'day';

export const BUCKET_MS: Record<BucketResolution, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };

/** Longest range per resolution (minute: 24 h; hour: 93 days; day: about 3 years), so no answer grows unbounded. */
export const MAX_RANGE_MS: Record<BucketResolution, number> = {
  minute: BUCKET_MS.day,
  hour: 93 * BUCKET_MS.day,
  day: 1100 * BUCKET_MS.day,
};

export interface BucketQuery {
  from?: number;
  to?: number;
  resolution?: BucketResolution;
}

export interface BucketedRange {
  /** The first bucket's start (from rounded down to the bucket). */
  start: number;
  /** The last bucket's end (to rounded up to the bucket). */
  end: number;
  step: number;
  resolution: BucketResolution;
}

/**
 * The buckets a query over time covers: `to` defaults to now, `from` to 24 hours before `to`, `resolution` to hour;
 * `from` must be before `to` and the range at most MAX_RANGE_MS of its resolution (422 naming the field otherwise).
 */
export function bucketedRange(query: BucketQuery, now: number): BucketedRange {
  const resolution = query.resolution ?? 'hour';
  const to = query.to ?? now;
  const from = query.from ?? to - BUCKET_MS.day;
  const step = BUCKET_MS[resolution];
  if (from >= to) throw validationFailed([{ field: 'from', issue: 'must be before to' }]);
  if (to - from > MAX_RANGE_MS[resolution]) {
    throw validationFailed([
      {
        field: 'resolution',
        issue: `a ${resolution} history covers at most ${MAX_RANGE_MS[resolution] / BUCKET_MS.day} days; use a coarser resolution or a shorter range`,
      },
    ]);
  }
  return { start: Math.floor(from / step) * step, end: Math.ceil(to / step) * step, step, resolution };
}
