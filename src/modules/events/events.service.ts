import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/index.ts';
import { newId } from '../../platform/ids.ts';
import type { DomainEvent, NewDomainEvent } from './event.types.ts';
import { EventsRepository } from './events.repository.ts';

/**
 * The outbox. `record` must be called with the same transaction handle as the change that caused
 * the event, so the event exists exactly when the change does.
 */
export class EventsService {
  private readonly clock: Clock;
  private readonly database: Database;
  private readonly recordedListeners: Array<() => void> = [];
  constructor(deps: { database: Database; clock: Clock }) {
    this.clock = deps.clock;
    this.database = deps.database;
  }

  async record(tx: Database, event: NewDomainEvent): Promise<DomainEvent> {
    const now = this.clock.now();
    const full = { ...event, id: event.id ?? newId('evt', now) };
    await new EventsRepository(tx).append(full, now);
    tx.afterCommit(() => {
      for (const listener of this.recordedListeners) listener();
    });
    return { ...full, seq: 0 };
  }

  /** Called in this process after a transaction that recorded events commits (consumers wake at once). */
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
