import type { Clock } from '../../../platform/clock.ts';
import type { Logger } from '../../../platform/logger.ts';
import type { DomainEvent } from '../../events/index.ts';

/**
 * Which outbox events may be fanned out now. On PostgreSQL a sequence value is taken before its transaction commits,
 * so a hole in the sequence may be a writer still in flight: wait for it (up to `waitMs`, after which it is taken to
 * be a rolled-back transaction and skipped).
 */
export class OutboxGaps {
  private readonly seenAt = new Map<number, number>();
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly waitMs: number;
  constructor(clock: Clock, logger: Logger, waitMs: number) {
    this.clock = clock;
    this.logger = logger;
    this.waitMs = waitMs;
  }

  /** A hole is being waited for: the dispatcher must look again soon (it is skipped after `waitMs`). */
  get waiting(): boolean {
    return this.seenAt.size > 0;
  }

  /** The events that directly follow `position` without a hole still worth waiting for. */
  contiguous(position: number, batch: readonly DomainEvent[]): DomainEvent[] {
    const now = this.clock.now();
    const out: DomainEvent[] = [];
    let expected = position + 1;
    for (const e of batch) {
      if (e.seq !== expected) {
        const seen = this.seenAt.get(expected);
        if (seen === undefined) this.seenAt.set(expected, now);
        if (seen === undefined || now - seen < this.waitMs) break;
        this.logger.warn({ from: expected, to: e.seq - 1 }, 'alerting: skipping a hole in the outbox sequence');
      }
      this.seenAt.delete(expected);
      out.push(e);
      expected = e.seq + 1;
    }
    return out;
  }
}
