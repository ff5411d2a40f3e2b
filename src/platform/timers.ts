/**
 * One-shot timers, injected where a test must fire them without waiting (an idle thread's stop, a time limit).
 * A handle is opaque: only the implementation that made it can cancel it.
 */
export interface Timers {
  /** Calls `fn` once after `ms`; the timer alone does not keep the process alive. */
  after(ms: number, fn: () => void): TimerHandle;
  cancel(handle: TimerHandle): void;
}

export type TimerHandle = { readonly timer: unknown };

export const systemTimers: Timers = {
  after: (ms, fn) => {
    const timer = setTimeout(fn, ms);
    timer.unref();
    return { timer };
  },
  cancel: (handle) => clearTimeout(handle.timer as NodeJS.Timeout),
};

/** Timers that fire only when told to (tests): `advance(ms)` runs what is due by then, in order. */
export class ManualTimers implements Timers {
  private at = 0;
  private pending: Array<{ due: number; fn: () => void; handle: TimerHandle }> = [];

  after(ms: number, fn: () => void): TimerHandle {
    const handle: TimerHandle = { timer: Symbol('timer') };
    this.pending.push({ due: this.at + ms, fn, handle });
    return handle;
  }

  cancel(handle: TimerHandle): void {
    this.pending = this.pending.filter((p) => p.handle !== handle);
  }

  /** Timers not yet fired nor cancelled. */
  get size(): number {
    return this.pending.length;
  }

  advance(ms: number): void {
    this.at += ms;
    for (;;) {
      const due = this.pending.filter((p) => p.due <= this.at).sort((a, b) => a.due - b.due)[0];
      if (!due) return;
      this.pending = this.pending.filter((p) => p !== due);
      due.fn();
    }
  }
}
