import type { Database } from '../../platform/db/index.ts';
import { fromJson, toJson } from '../../platform/db/index.ts';
import type { DomainEvent, DomainEventType } from './event.types.ts';

interface EventsTables {
  domain_event: {
    seq: number;
    id: string;
    organization_id: string;
    type: string;
    monitor_id: string | null;
    incident_id: string | null;
    occurred_at: number;
    payload: string;
    created_at: number;
  };
  event_consumer: { name: string; last_seq: number; updated_at: number };
}

export class EventsRepository {
  private readonly database: Database;
  constructor(database: Database) {
    this.database = database;
  }

  private get db() {
    return this.database.tables<EventsTables>();
  }

  async append(event: Omit<DomainEvent, 'seq'>, now: number): Promise<void> {
    await this.db
      .insertInto('domain_event')
      .values({
        id: event.id,
        organization_id: event.organizationId,
        type: event.type,
        monitor_id: event.monitorId,
        incident_id: event.incidentId,
        occurred_at: event.occurredAt,
        payload: toJson(event.payload),
        created_at: now,
      } as EventsTables['domain_event'])
      .execute();
  }

  async readAfter(seq: number, limit: number): Promise<DomainEvent[]> {
    const rows = await this.db
      .selectFrom('domain_event')
      .selectAll()
      .where('seq', '>', seq)
      .orderBy('seq')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      seq: r.seq,
      id: r.id,
      organizationId: r.organization_id,
      type: r.type as DomainEventType,
      monitorId: r.monitor_id,
      incidentId: r.incident_id,
      occurredAt: r.occurred_at,
      payload: fromJson<Record<string, unknown>>(r.payload),
    }));
  }

  /** The newest event's position (0 when the outbox is empty). */
  async latestSeq(): Promise<number> {
    const row = await this.db
      .selectFrom('domain_event')
      .select((eb) => eb.fn.max('seq').as('max'))
      .executeTakeFirst();
    return Number(row?.max ?? 0);
  }

  /** The outbox position of one event, or null when there is no such event. */
  async seqOf(id: string): Promise<number | null> {
    const row = await this.db.selectFrom('domain_event').select('seq').where('id', '=', id).executeTakeFirst();
    return row ? Number(row.seq) : null;
  }

  /** Locks the consumer's position row (PostgreSQL `FOR UPDATE`) and returns it; creates it at 0 the first time. */
  async lockConsumerPosition(name: string, now: number): Promise<number> {
    await this.db
      .insertInto('event_consumer')
      .values({ name, last_seq: 0, updated_at: now })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    let q = this.db.selectFrom('event_consumer').select('last_seq').where('name', '=', name);
    if (this.database.dialect === 'postgres') q = q.forUpdate();
    const row = await q.executeTakeFirstOrThrow();
    return Number(row.last_seq);
  }

  async consumerPosition(name: string): Promise<number> {
    const row = await this.db
      .selectFrom('event_consumer')
      .select('last_seq')
      .where('name', '=', name)
      .executeTakeFirst();
    return row?.last_seq ?? 0;
  }

  /** Each consumer with the creation time of the first event after its position (null when caught up). */
  async oldestUnconsumed(): Promise<Array<{ consumer: string; createdAt: number | null }>> {
    const consumers = await this.db.selectFrom('event_consumer').select(['name', 'last_seq']).execute();
    const out: Array<{ consumer: string; createdAt: number | null }> = [];
    for (const c of consumers) {
      // One primary-key range read per consumer (there are few).
      const first = await this.db
        .selectFrom('domain_event')
        .select('created_at')
        .where('seq', '>', c.last_seq)
        .orderBy('seq')
        .limit(1)
        .executeTakeFirst();
      out.push({ consumer: c.name, createdAt: first ? Number(first.created_at) : null });
    }
    return out;
  }

  async setConsumerPosition(name: string, seq: number, now: number): Promise<void> {
    await this.db
      .insertInto('event_consumer')
      .values({ name, last_seq: seq, updated_at: now })
      .onConflict((oc) => oc.column('name').doUpdateSet({ last_seq: seq, updated_at: now }))
      .execute();
  }
}
