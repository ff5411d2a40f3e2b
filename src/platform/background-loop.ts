import type { BackgroundRole } from './background-role.ts';
import { systemTimers, type TimerHandle, type Timers } from './timers.ts';

/** What a pass is told about the wait that came before it. */
export interface LoopPass {
  /** The wait was ended by `wake()` (or a wake was pending), not by its time running out. */
  readonly woken: boolean;
}

export interface BackgroundLoopOptions {
  /** The role's name (logs, shutdown errors). */
  name: string;
  /** One pass of the work. Answers the wait before the next pass in ms (0: at once), or nothing for `everyMs`. */
  pass: (info: LoopPass) => Promise<number | void>;
  /** The wait after a pass (or a failure) that names none; the first wait with `firstPass: 'after-wait'`. */
  everyMs: number;
  /**
   * A pass threw: report it (each loop logs in its own words and level) and answer the wait before the next pass
   * (a backoff), or nothing for `everyMs`. Must not throw.
   */
  failed: (err: unknown) => number | void;
  /** `at-start` (default): the first pass runs as the loop starts; `after-wait`: once `everyMs` has passed. */
  firstPass?: 'at-start' | 'after-wait';
  /** Runs once at stop, after the last pass has ended (a final flush); a failure goes to `failed`. */
  atStop?: () => Promise<void>;
  /** Injected so tests drive time (a fake that fires when told); the system's timers by default. */
  timers?: Timers;
}

/**
 * The one shape of a background loop: run a pass, wait (the pass says how long) or until `wake()`, repeat; `stop()`
 * ends the wait at once, lets the pass in flight finish and resolves when nothing of the loop runs any more. Passes
 * never overlap. A wake during a pass is kept: the wait after that pass ends at once (the pass may have read before
 * the work it announces was there). Every timer goes through the injected `Timers`, so a test advances time instead
 * of sleeping, and `whenWaiting()` tells it when a pass it let run has ended.
 */
export class BackgroundLoop implements BackgroundRole {
  readonly name: string;
  private readonly options: BackgroundLoopOptions;
  private readonly timers: Timers;
  private stopRequested = false;
  private running: Promise<void> | null = null;
  private wakePending = false;
  /** Ends the current wait (true: by a wake); null while a pass runs. */
  private endWait: ((woken: boolean) => void) | null = null;
  private waiters: Array<() => void> = [];
  private passCount = 0;
  /** Pauses in progress inside the pass: a stop ends them. */
  private readonly pauses = new Set<() => void>();

  constructor(options: BackgroundLoopOptions) {
    this.name = options.name;
    this.options = options;
    this.timers = options.timers ?? systemTimers;
  }

  /** True from stop() on (until the next start): a long pass looks at it between its steps. */
  get stopping(): boolean {
    return this.stopRequested;
  }

  /** Passes begun since construction (tests and diagnostics). */
  get passes(): number {
    return this.passCount;
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.stopRequested = false;
    this.running = this.run();
  }

  async stop(): Promise<void> {
    this.stopRequested = true;
    this.endWait?.(false);
    for (const end of [...this.pauses]) end();
    await this.running;
    this.running = null;
    this.settleWaiters();
  }

  /** New work: end the wait now, or, during a pass, skip the wait after it. */
  wake(): void {
    if (this.endWait) this.endWait(true);
    else this.wakePending = true;
  }

  /**
   * Resolves once the loop waits (its pass has ended) or is stopped; at once if it waits already. A test fires a
   * timer, then awaits this before it looks at what the pass did.
   */
  whenWaiting(): Promise<void> {
    if (this.endWait || !this.running) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** A pause inside a pass (between chunks of a long purge) on the same timers; ends at once when the loop stops. */
  pause(ms: number): Promise<void> {
    if (this.stopRequested) return Promise.resolve();
    return new Promise((resolve) => {
      const end = () => {
        this.timers.cancel(handle);
        this.pauses.delete(end);
        resolve();
      };
      const handle = this.timers.after(ms, end);
      this.pauses.add(end);
    });
  }

  private async run(): Promise<void> {
    const { pass, failed, everyMs } = this.options;
    let woken = this.options.firstPass === 'after-wait' ? await this.wait(everyMs) : false;
    while (!this.stopRequested) {
      let waitMs: number;
      this.passCount++;
      try {
        waitMs = (await pass({ woken })) ?? everyMs;
      } catch (err) {
        waitMs = failed(err) ?? everyMs;
      }
      if (this.stopRequested) break;
      woken = await this.wait(waitMs);
    }
    if (this.options.atStop) await this.options.atStop().catch((err: unknown) => failed(err));
  }

  /** Resolves after `ms` (false) or at a wake (true); at once with a pending wake or when stopping. */
  private wait(ms: number): Promise<boolean> {
    if (this.wakePending) {
      this.wakePending = false;
      return Promise.resolve(true);
    }
    // 0: the pass found work and the next one runs at once (no timer turn, as a busy loop would).
    if (this.stopRequested || ms <= 0) return Promise.resolve(false);
    return new Promise((resolve) => {
      const handle: TimerHandle = this.timers.after(ms, () => end(false));
      const end = (woken: boolean) => {
        this.timers.cancel(handle);
        this.endWait = null;
        resolve(woken);
      };
      this.endWait = end;
      this.settleWaiters();
    });
  }

  private settleWaiters(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}
