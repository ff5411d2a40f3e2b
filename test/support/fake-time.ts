import { ManualClock } from '../../src/platform/clock.ts';
import type { TimerHandle, Timers } from '../../src/platform/timers.ts';

interface Pending {
  due: number;
  seq: number;
  fn: () => void;
  handle: TimerHandle;
}

/**
 * A clock and the timers that go with it, both moved only by the test: background loops, runners and pipelines take
 * `timers` (and `clock`), and the test advances time instead of sleeping. Timers due at the same time fire in the
 * order they were set.
 */
export class FakeTime implements Timers {
  readonly clock: ManualClock;
  private pending: Pending[] = [];
  private seq = 0;

  constructor(start: number | string = '2026-01-01T00:00:00.000Z') {
    this.clock = new ManualClock(start);
  }

  now(): number {
    return this.clock.now();
  }

  after(ms: number, fn: () => void): TimerHandle {
    const handle: TimerHandle = { timer: Symbol('timer') };
    this.pending.push({ due: this.clock.now() + Math.max(0, ms), seq: this.seq++, fn, handle });
    return handle;
  }

  cancel(handle: TimerHandle): void {
    this.pending = this.pending.filter((p) => p.handle !== handle);
  }

  /** Timers set and not yet fired nor cancelled. */
  get size(): number {
    return this.pending.length;
  }

  /** In how many ms the next timer fires (null: none set). */
  nextIn(): number | null {
    const next = this.next();
    return next ? next.due - this.clock.now() : null;
  }

  /**
   * Lets what runs now settle, then moves time `ms` ahead, one timer at a time: the clock goes to each due time in turn, the timer fires, and
   * `settle` (what the fired timer started, e.g. `loop.whenWaiting()`; by default a few turns of the event loop)
   * ends before the next timer is looked at, so a timer the work sets on the way fires too if it is due in time.
   */
  async advance(ms: number, settle: () => Promise<unknown> = turns): Promise<void> {
    const until = this.clock.now() + ms;
    await settle(); // what runs already (a loop just started or woken) sets its timers first
    for (;;) {
      const next = this.next();
      if (!next || next.due > until) break;
      this.pending = this.pending.filter((p) => p !== next);
      this.clock.set(Math.max(this.clock.now(), next.due));
      next.fn();
      await settle();
    }
    this.clock.set(until);
    await settle();
  }

  private next(): Pending | undefined {
    return [...this.pending].sort((a, b) => a.due - b.due || a.seq - b.seq)[0];
  }
}

/** A few turns of the event loop: promise chains without I/O settle. */
async function turns(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
