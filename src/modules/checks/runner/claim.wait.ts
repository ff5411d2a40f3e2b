import type { Clock } from '../../../platform/clock.ts';
import type { Timers } from '../../../platform/timers.ts';
import type { ClaimedCheck } from '../engine/check.types.ts';

export interface ClaimWaitDeps {
  /** The schedule's claim and its next due time (the check engine). */
  engine: {
    claim(owner: string, regions: readonly string[], limit: number): Promise<ClaimedCheck[]>;
    nextDueAt(regions: readonly string[]): Promise<number | null>;
  };
  clock: Clock;
  timers: Timers;
  /** Registers `listener` for every committed schedule change (`SCHEDULE_CHANGED`, this process's and others'). */
  onScheduleChanged(listener: () => void): void;
  /**
   * The longest wait between two reads when nothing signals a change (the change signals' safety poll): bounds how
   * late a change nobody signalled (a lost notification, a lease that ended) is seen.
   */
  safetyPollMs(): number;
  /**
   * The shortest wait between two claims that found nothing (default 100 ms, as the in-process runner): a check
   * already due but still leased to another runner is claimable only when its lease ends, which is not signalled.
   */
  minWaitMs?: number;
}

/**
 * A remote runner's long-poll claim: claims its region's due checks and, while there are none, waits on what can
 * make one due (a committed schedule change, the next due time, the safety poll) rather than on a fixed sleep; it
 * answers as soon as a claim finds checks, when the wait ends (one last claim), or at once with nothing when the
 * runner is gone (`abort`: what it would claim stays unclaimed for others).
 */
export class ClaimWait {
  private readonly deps: ClaimWaitDeps;
  private readonly minWaitMs: number;
  /** Counts schedule changes: a claim that saw the count change meanwhile looks again instead of waiting. */
  private changes = 0;
  private readonly waiting = new Set<() => void>();

  constructor(deps: ClaimWaitDeps) {
    this.deps = deps;
    this.minWaitMs = deps.minWaitMs ?? 100;
    deps.onScheduleChanged(() => {
      this.changes += 1;
      for (const wake of [...this.waiting]) wake();
    });
  }

  /** Claims up to `max` checks of `regions` for `owner`, waiting up to `waitMs` for one to become due. */
  async claim(
    owner: string,
    regions: readonly string[],
    max: number,
    waitMs: number,
    abort?: AbortSignal,
  ): Promise<ClaimedCheck[]> {
    const { engine, clock, timers } = this.deps;
    let expired = waitMs <= 0;
    let wake: (() => void) | null = null;
    const deadline = expired
      ? null
      : timers.after(waitMs, () => {
          expired = true;
          wake?.();
        });
    const onAbort = () => wake?.();
    abort?.addEventListener('abort', onAbort);
    try {
      for (;;) {
        if (abort?.aborted) return [];
        const seen = this.changes;
        const claimed = await engine.claim(owner, regions, max);
        if (claimed.length > 0 || expired) return claimed;
        const next = await engine.nextDueAt(regions);
        if (this.changes !== seen || expired || abort?.aborted) continue;
        const untilDue = next === null ? Infinity : next - clock.now();
        const ms = Math.max(this.minWaitMs, Math.min(untilDue, this.deps.safetyPollMs()));
        await new Promise<void>((resolve) => {
          let settled = false;
          const done = () => {
            if (settled) return;
            settled = true;
            timers.cancel(timer);
            this.waiting.delete(done);
            wake = null;
            resolve();
          };
          const timer = timers.after(ms, done);
          this.waiting.add(done);
          wake = done;
        });
      }
    } finally {
      if (deadline) timers.cancel(deadline);
      abort?.removeEventListener('abort', onAbort);
    }
  }
}
