/**
 * What a runner remembers of each (monitor, region)'s recent results, to tell which result may change the monitor's
 * verdict (and so should be sent at once) from the steady ones that can wait for the batch timer.
 *
 * Two runs are followed, as the state machine counts them (monitor-state.machine.ts): failures (down, or the
 * recovery from it) and impairment (slow or failed: degraded, or the recovery from it). A result is urgent when
 * - it fails and is within the first `failureThreshold` consecutive failures after a success or nothing known (it may
 *   reach the threshold and open an incident; counting from nothing known covers a runner that took the monitor over
 *   in the middle of a run);
 * - it succeeds and is within the first `successThreshold` consecutive successes after failures (it may resolve);
 * - the same for slow results (a success over `degraded_latency_ms`) and the fast ones after them: degraded and back.
 *
 * Only (monitor, region)s in a run that matters are kept: a steady success answers exactly like nothing known, so
 * its entry is dropped. What stays (failing or recovering monitors) is bounded twice: an entry not seen for its
 * `forgetAfterMs` is dropped (a deleted monitor, one claimed elsewhere since) by a sweep at most once a minute, and
 * past `maxEntries` the least recently seen goes first. A dropped entry costs only latency, never a verdict: the
 * engine decides from its own counters, this decides only how soon a result is sent.
 */

import { DEFAULT_FAILURE_THRESHOLD, DEFAULT_SUCCESS_THRESHOLD } from '../state/monitor-state.machine.ts';

export interface RunThresholds {
  failureThreshold: number;
  successThreshold: number;
}

/**
 * A claimed check's thresholds: its monitor's config travels with it (in process and on the runner wire, `config`),
 * so the runner reads the same `failure_threshold` / `success_threshold` the engine judges with, and the same defaults.
 */
export function runThresholdsOf(config: Readonly<Record<string, unknown>>): RunThresholds {
  return {
    failureThreshold: positiveInt(config.failure_threshold) ?? DEFAULT_FAILURE_THRESHOLD,
    successThreshold: positiveInt(config.success_threshold) ?? DEFAULT_SUCCESS_THRESHOLD,
  };
}

function positiveInt(v: unknown): number | null {
  return typeof v === 'number' && Number.isInteger(v) && v >= 1 ? v : null;
}

export interface OutcomeRunsOptions {
  now: () => number;
  /** The most (monitor, region)s remembered; beyond, the least recently seen is forgotten. */
  maxEntries?: number;
  /** How often expired entries are looked for (each sweep reads every entry). */
  sweepEveryMs?: number;
}

/** One run: `bad` consecutive bad results, or `good` good ones since the last bad; both 0 = steady good (or unknown). */
interface Run {
  bad: number;
  good: number;
}

interface Entry {
  failing: Run;
  impaired: Run;
  expiresAt: number;
}

export type Outcome = 'up' | 'slow' | 'down';

export class OutcomeRuns {
  private readonly entries = new Map<string, Entry>();
  private readonly now: () => number;
  private readonly maxEntries: number;
  private readonly sweepEveryMs: number;
  private nextSweepAt: number;

  constructor(o: OutcomeRunsOptions) {
    this.now = o.now;
    this.maxEntries = o.maxEntries ?? 50_000;
    this.sweepEveryMs = o.sweepEveryMs ?? 60_000;
    this.nextSweepAt = this.now() + this.sweepEveryMs;
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * Counts a result of (monitorId, regionCode) and answers whether it may change the monitor's verdict.
   * `forgetAfterMs`: how long the entry is kept without a new result (a few of the monitor's intervals).
   */
  record(monitorId: string, regionCode: string, outcome: Outcome, t: RunThresholds, forgetAfterMs: number): boolean {
    const now = this.now();
    if (now >= this.nextSweepAt) this.sweep(now);
    const key = `${monitorId}\u0000${regionCode}`;
    const known = this.entries.get(key);
    if (!known && outcome === 'up') return false; // the common case, a steady success: nothing to count or keep
    const entry = known ?? {
      failing: { bad: 0, good: 0 },
      impaired: { bad: 0, good: 0 },
      expiresAt: 0,
    };
    const urgentFailing = step(entry.failing, outcome === 'down', t);
    const urgentImpaired = step(entry.impaired, outcome !== 'up', t);
    // Re-inserted so the map's order is least recently seen first (what the cap drops).
    this.entries.delete(key);
    if (!steady(entry.failing) || !steady(entry.impaired)) {
      entry.expiresAt = now + forgetAfterMs;
      this.entries.set(key, entry);
      if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    }
    return urgentFailing || urgentImpaired;
  }

  private sweep(now: number): void {
    this.nextSweepAt = now + this.sweepEveryMs;
    for (const [key, e] of this.entries) if (e.expiresAt <= now) this.entries.delete(key);
  }
}

function steady(r: Run): boolean {
  return r.bad === 0 && r.good === 0;
}

/** Moves one run by a result; true when the result is among the first ones that may flip the verdict. */
function step(r: Run, bad: boolean, t: RunThresholds): boolean {
  if (bad) {
    r.bad += 1;
    r.good = 0;
    return r.bad <= t.failureThreshold;
  }
  if (steady(r)) return false; // steady good: nothing to resolve
  r.bad = 0;
  r.good += 1;
  // The threshold reached: the verdict is decided by this result; the next good one is steady.
  if (r.good >= t.successThreshold) r.good = 0;
  return true;
}
