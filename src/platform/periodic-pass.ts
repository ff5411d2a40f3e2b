import type { BackgroundRole } from './background-role.ts';
import type { Logger } from './logger.ts';

export interface PeriodicPassOptions {
  name: string;
  everyMs: number;
  /** One pass of the work; a failure is logged with `failureMessage` and the next pass runs on time. */
  pass: () => Promise<unknown>;
  failureMessage: string;
  logger?: Logger;
}

/**
 * A background role that runs a pass at start and then every `everyMs` (never two at once: a tick while one runs is
 * skipped). `stop` waits for the pass in flight; a long pass looks at `stopping` between its steps.
 */
export class PeriodicPass implements BackgroundRole {
  readonly name: string;
  private readonly options: PeriodicPassOptions;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopRequested = false;

  constructor(options: PeriodicPassOptions) {
    this.name = options.name;
    this.options = options;
  }

  /** True once stop() was called (until the next start). */
  get stopping(): boolean {
    return this.stopRequested;
  }

  async start(): Promise<void> {
    this.stopRequested = false;
    const tick = () => {
      if (this.running || this.stopRequested) return;
      this.running = this.options
        .pass()
        .then(
          () => undefined,
          (err: unknown) => this.options.logger?.error({ err }, this.options.failureMessage),
        )
        .finally(() => {
          this.running = null;
        });
    };
    this.timer = setInterval(tick, this.options.everyMs);
    this.timer.unref();
    tick();
  }

  async stop(): Promise<void> {
    this.stopRequested = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
