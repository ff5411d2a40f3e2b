/**
 * Work that runs in the background of `tocsin serve`: the scheduler, the in-process runner, the alert dispatcher
 * and workers, purges and flushes, reminders, retention. Every module's roles have this one shape; main.ts
 * composes them, starts them in order once the HTTP server listens, and stops them in reverse order at shutdown.
 */
export interface BackgroundRole {
  /** For logs ("background role started", shutdown errors); unique within a process. */
  readonly name: string;
  /** Begins the work and returns once it is under way (never waits for the work to end). */
  start(): Promise<void>;
  /** Stops taking new work and finishes what is in flight; resolves when nothing of the role runs any more. */
  stop(): Promise<void>;
}
