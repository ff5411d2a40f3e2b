import type { Logger } from '../../../platform/logger.ts';

export interface OutageLogOptions {
  logger: Logger;
  /** What is unreachable, for the log lines ("control plane"). */
  what: string;
  /** First retry delay; doubled on every further failure up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  now(): number;
}

/**
 * One warning per outage and one line when it ends, with exponential backoff in between: a peer that is down
 * for an hour gives two log lines, not a stack trace a second. Failures during an outage are logged at debug.
 */
export class OutageLog {
  private readonly o: OutageLogOptions;
  private failures = 0;
  private since = 0;
  constructor(options: OutageLogOptions) {
    this.o = options;
  }

  get inOutage(): boolean {
    return this.failures > 0;
  }

  /** Records a failure; returns how long to wait before the next attempt. */
  failed(err: unknown): number {
    const reason = err instanceof Error ? err.message : String(err);
    if (this.failures === 0) {
      this.since = this.o.now();
      this.o.logger.warn(
        { reason, retryInMs: this.o.baseDelayMs },
        `${this.o.what} unreachable; retrying with backoff (one line when it is back)`,
      );
    } else {
      this.o.logger.debug({ reason, failures: this.failures + 1 }, `${this.o.what} still unreachable`);
    }
    const delay = Math.min(this.o.maxDelayMs, this.o.baseDelayMs * 2 ** Math.min(this.failures, 30));
    this.failures += 1;
    return delay;
  }

  /** Records a success; logs the end of an outage once. */
  succeeded(): void {
    if (this.failures === 0) return;
    this.o.logger.info(
      { downMs: this.o.now() - this.since, failedAttempts: this.failures },
      `${this.o.what} reachable again`,
    );
    this.failures = 0;
  }
}
