import type { Clock } from '../../platform/clock.ts';
import type { ChangeSignals, Database } from '../../platform/db/index.ts';
import { newId } from '../../platform/ids.ts';
import type { DomainEvent, NewDomainEvent } from './event.types.ts';
import { EventsRepository } from './events.repository.ts';

/** The change-signal topic of a committed outbox event. */
export const OUTBOX_CHANGED = 'outbox';

/**
 * The outbox. `record` must be called with the same transaction handle as the change that caused
 * the event, so the event exists exactly when the change does.
 */
export class EventsService {
  private readonly clock: Clock;
  private readonly database: Database;
  private readonly recordedListeners: Array<() => void> = [];
  private readonly signals: ChangeSignals | null;
  /**
   * `signals`: a committed event is signalled as `OUTBOX_CHANGED`, and the `onRecorded` listeners then hear of other
   * processes' events too (PostgreSQL); without, only of this process's.
   */
  constructor(deps: { database: Database; clock: Clock; signals?: ChangeSignals }) {
    this.clock = deps.clock;
    this.database = deps.database;
    this.signals = deps.signals ?? null;
    this.signals?.on(OUTBOX_CHANGED, () => this.recorded());
  }

  private recorded(): void {
    for (const listener of this.recordedListeners) listener();
  }

  async record(tx: Database, event: NewDomainEvent): Promise<DomainEvent> {
    const now = this.clock.now();
    const full = { ...event, id: event.id ?? newId('evt', now) };
    await new EventsRepository(tx).append(full, now);
    if (this.signals) this.signals.signal(tx, OUTBOX_CHANGED);
    else tx.afterCommit(() => this.recorded());
    return { ...full, seq: 0 };
  }

  /**
   * Called after a transaction that recorded events commits (consumers wake at once): in this process, and with
   * change signals on PostgreSQL in every process.
   */
  onRecorded(listener: () => void): void {
    this.recordedListeners.push(listener);
  }

  /** Events after `seq`, oldest first. */
  readAfter(seq: number, limit: number): Promise<DomainEvent[]> {
    return new EventsRepository(this.database).readAfter(seq, limit);
  }

  /** True once the consumer `name` has read past the event `eventId` (false while it has not, or no such event). */
  async consumedBy(name: string, eventId: string, tx: Database = this.database): Promise<boolean> {
    const repo = new EventsRepository(tx);
    const seq = await repo.seqOf(eventId);
    return seq !== null && seq <= (await repo.consumerPosition(name));
  }

  /** The newest event's position (0 when there is none): where a reader that wants only new events starts. */
  latestSeq(): Promise<number> {
    return new EventsRepository(this.database).latestSeq();
  }

  /**
   * The consumer's position, locked in `tx` until it commits (PostgreSQL `FOR UPDATE`; SQLite's transaction holds
   * the write lock): a consumer that finds the position it read earlier may consume what follows and move it with
   * `setConsumerPosition` in the same transaction; another process then waits and sees the new position.
   */
  lockConsumerPosition(tx: Database, name: string): Promise<number> {
    return new EventsRepository(tx).lockConsumerPosition(name, this.clock.now());
  }

  consumerPosition(name: string, tx: Database = this.database): Promise<number> {
    return new EventsRepository(tx).consumerPosition(name);
  }

  /** How far behind each consumer is: the age of the oldest event it has not consumed (0 when caught up). */
  async consumerLags(): Promise<Array<{ consumer: string; lagMs: number }>> {
    const now = this.clock.now();
    const rows = await new EventsRepository(this.database).oldestUnconsumed();
    return rows.map((r) => ({
      consumer: r.consumer,
      lagMs: r.createdAt === null ? 0 : Math.max(0, now - r.createdAt),
    }));
  }

  setConsumerPosition(name: string, seq: number, tx: Database = this.database): Promise<void> {
    return new EventsRepository(tx).setConsumerPosition(name, seq, this.clock.now());
  }
}
