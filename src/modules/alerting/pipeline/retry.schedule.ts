/** DECISIONS §7: about 1 m, 5 m, 30 m, 2 h, 6 h between attempts, then failed. */
export const RETRY_DELAYS_MS: readonly number[] = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 6 * 3_600_000];

/** The first attempt plus one per retry delay. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** ± this fraction of the delay, so many deliveries failing together do not come back together. */
export const JITTER_FRACTION = 0.1;

/** A provider's Retry-After is honoured up to this long. */
export const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

/**
 * When to try again after failed attempt number `attempts` (1-based), or null when the schedule is exhausted.
 * `random` returns [0, 1); 0.5 means no jitter. A `retryAfterMs` from the provider (Retry-After) replaces the
 * schedule's delay for this attempt: the receiver said when it can take more.
 */
export function nextAttemptAt(
  attempts: number,
  now: number,
  random: () => number,
  retryAfterMs?: number,
): number | null {
  if (attempts >= MAX_ATTEMPTS) return null;
  if (retryAfterMs !== undefined && Number.isFinite(retryAfterMs) && retryAfterMs >= 0) {
    return now + Math.min(Math.max(retryAfterMs, 1000), MAX_RETRY_AFTER_MS);
  }
  const base = RETRY_DELAYS_MS[Math.max(0, attempts - 1)]!;
  const jitter = (random() * 2 - 1) * JITTER_FRACTION;
  return now + Math.round(base * (1 + jitter));
}
