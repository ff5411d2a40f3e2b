/**
 * Which queue a statement or transaction waits in for a connection. `urgent`: the check engine's claims and result
 * batches, few and short, whose delay is check lateness; `normal`: everything else (the API, background roles).
 */
export type Lane = 'urgent' | 'normal';

/**
 * The one SQLite connection's lock, with two FIFO queues: a release hands the connection to the oldest urgent waiter,
 * else to the oldest normal one. Kysely's own mutex for single-connection dialects is one queue: a claim waited behind
 * every statement queued before it, and the runner's slots (freed when a result batch commits) with it. Measured under
 * the API mix the queue stayed short (1–6 waiters: a SQLite request mostly runs to its end in one callback), but an
 * API transaction that awaits something else, or a slow statement, lets it grow. Its release also woke every waiter
 * to race for the lock, where this one wakes exactly one.
 * The urgent lane cannot starve the normal one for long: the engine holds at most one claim and one batch at a time.
 */
export class LanedLock {
  private held = false;
  private readonly urgent: Array<() => void> = [];
  private readonly normal: Array<() => void> = [];

  acquire(lane: Lane): Promise<void> {
    if (!this.held) {
      this.held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => (lane === 'urgent' ? this.urgent : this.normal).push(resolve));
  }

  /** Passes the lock to the next waiter (it stays held), or frees it. */
  release(): void {
    const next = this.urgent.shift() ?? this.normal.shift();
    if (next) next();
    else this.held = false;
  }

  /** Waiters per lane (tests, diagnostics). */
  get waiting(): { urgent: number; normal: number } {
    return { urgent: this.urgent.length, normal: this.normal.length };
  }
}
