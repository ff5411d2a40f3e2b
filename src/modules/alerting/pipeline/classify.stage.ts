import type { SendResult } from '../destinations/index.ts';
import type { AttemptEnd } from '../deliveries.repository.ts';
import type { AttemptRecord } from '../destinations.repository.ts';
import { MAX_ATTEMPTS, nextAttemptAt } from './retry.schedule.ts';

/** What one attempt means for the delivery and for the destination's record. */
export interface AttemptVerdict {
  delivery: AttemptEnd;
  /** null when the destination's record is left as it was (nothing was sent, nothing failed). */
  destination: AttemptRecord | null;
}

/**
 * Classify (pure): ok → delivered; retry → next slot of the schedule (or Retry-After), failed once exhausted;
 * payload_rejected / destination_broken / reauthorize → failed at once. Every outcome is recorded on the destination.
 */
export function classifyAttempt(
  result: SendResult,
  attempts: number,
  now: number,
  random: () => number,
): AttemptVerdict {
  if (result.outcome === 'ok' && result.not_sent !== undefined)
    return { delivery: { status: 'logged', at: now, note: result.not_sent }, destination: null };
  if (result.outcome === 'ok') {
    return {
      delivery: { status: 'delivered', at: now, providerReference: result.provider_reference ?? null },
      destination: { ok: true, at: now },
    };
  }
  const reason = result.reason;
  const failure = { ok: false as const, at: now, reason, needsReauthorization: result.outcome === 'reauthorize' };
  if (result.outcome === 'retry') {
    const at = nextAttemptAt(attempts, now, random, result.retry_after_ms);
    if (at !== null)
      return { delivery: { status: 'pending', at: now, nextAttemptAt: at, error: reason }, destination: failure };
    return {
      delivery: { status: 'failed', at: now, error: `gave up after ${MAX_ATTEMPTS} attempts: ${reason}` },
      destination: failure,
    };
  }
  const label = {
    payload_rejected: 'payload rejected',
    destination_broken: 'destination broken',
    reauthorize: 'needs re-authorisation',
  }[result.outcome];
  return {
    delivery: { status: 'failed', at: now, error: `${label}: ${reason}` },
    destination: { ...failure, reason: `${label}: ${reason}` },
  };
}
