import { sql } from 'kysely';
import type { Database } from '../../platform/db/index.ts';
import { fromJson, toJson } from '../../platform/db/index.ts';
import type { AlertEvent, EventType } from './destinations/index.ts';
import type { AlertingTables, DeliveryRow } from './alerting.tables.ts';
import type { DeliveryRecord, DeliveryStatus, DeliveryTarget } from './alerting.types.ts';

function toDelivery(row: DeliveryRow): DeliveryRecord {
  const target: DeliveryTarget = row.destination_id
    ? { kind: 'destination', destinationId: row.destination_id }
    : { kind: 'member_email', userId: row.member_user_id ?? '', email: row.member_email ?? '' };
  return {
    id: row.id,
    organizationId: row.organization_id,
    target,
    targetKey: row.target_key,
    eventId: row.event_id,
    eventSeq: Number(row.event_seq),
    eventType: row.event_type as EventType,
    monitorId: row.monitor_id,
    event: fromJson<AlertEvent>(row.event_snapshot),
    status: row.status as DeliveryStatus,
    attempts: row.attempts,
    nextAttemptAt: Number(row.next_attempt_at),
    leaseOwner: row.lease_owner,
    leaseUntil: row.lease_until === null ? null : Number(row.lease_until),
    lastError: row.last_error,
    providerReference: row.provider_reference,
    createdAt: Number(row.created_at),
    deliveredAt: row.delivered_at === null ? null : Number(row.delivered_at),
    silenceId: row.silence_id,
    groupId: row.group_id,
  };
}

function toRow(d: DeliveryRecord, now: number): DeliveryRow {
  return {
    id: d.id,
    organization_id: d.organizationId,
    destination_id: d.target.kind === 'destination' ? d.target.destinationId : null,
    member_user_id: d.target.kind === 'member_email' ? d.target.userId : null,
    member_email: d.target.kind === 'member_email' ? d.target.email : null,
    target_key: d.targetKey,
    event_id: d.eventId,
    event_seq: d.eventSeq,
    event_type: d.eventType,
    monitor_id: d.monitorId,
    event_snapshot: toJson(d.event),
    status: d.status,
    attempts: d.attempts,
    next_attempt_at: d.nextAttemptAt,
    lease_owner: d.leaseOwner,
    lease_until: d.leaseUntil,
    last_error: d.lastError,
    provider_reference: d.providerReference,
    created_at: d.createdAt,
    updated_at: now,
    delivered_at: d.deliveredAt,
    silence_id: d.silenceId,
    group_id: d.groupId,
  };
}

/** How an attempt ends for the delivery row. */
export type AttemptEnd =
  | { status: 'delivered'; at: number; providerReference: string | null }
  | { status: 'logged'; at: number; note: string }
  | { status: 'pending'; at: number; nextAttemptAt: number; error: string }
  | { status: 'failed'; at: number; error: string };

const INSERT_CHUNK = 200;

export class DeliveriesRepository {
  private readonly database: Database;
  constructor(database: Database) {
    this.database = database;
  }

  private get db() {
    return this.database.tables<AlertingTables>();
  }

  /** Inserts the deliveries; an (event, target) pair that already has one is left alone (idempotent fan-out). */
  async insertMany(deliveries: readonly DeliveryRecord[], now: number): Promise<void> {
    for (let i = 0; i < deliveries.length; i += INSERT_CHUNK) {
      const rows = deliveries.slice(i, i + INSERT_CHUNK).map((d) => toRow(d, now));
      await this.db
        .insertInto('delivery')
        .values(rows)
        .onConflict((oc) => oc.columns(['event_id', 'target_key']).doNothing())
        .execute();
    }
  }

  /**
   * Claims up to `limit` due deliveries for `owner` until `leaseUntil`: pending ones whose time has come and
   * in-flight ones whose lease expired (their worker died). A delivery waits while an earlier event's delivery to
   * the same target about the same monitor is still pending, in flight or waiting in a group, so a monitor's events
   * arrive in order.
   * PostgreSQL: `FOR UPDATE SKIP LOCKED`, so concurrent workers never claim the same row.
   */
  async claim(
    owner: string,
    now: number,
    leaseUntil: number,
    limit: number,
    onlyId?: string,
  ): Promise<DeliveryRecord[]> {
    const lock = this.database.dialect === 'postgres' ? sql`FOR UPDATE SKIP LOCKED` : sql``;
    const only = onlyId === undefined ? sql`` : sql`AND d.id = ${onlyId}`;
    const result = await sql<DeliveryRow>`
      UPDATE delivery
         SET status = 'in_flight', lease_owner = ${owner}, lease_until = ${leaseUntil}, attempts = attempts + 1, updated_at = ${now}
       WHERE id IN (
         SELECT d.id FROM delivery d
          WHERE ((d.status = 'pending' AND d.next_attempt_at <= ${now}) OR (d.status = 'in_flight' AND d.lease_until <= ${now}))
            AND NOT EXISTS (
              SELECT 1 FROM delivery e
               WHERE e.target_key = d.target_key AND e.monitor_id = d.monitor_id AND e.event_seq < d.event_seq
                 AND e.status IN ('pending', 'in_flight', 'grouped'))
            ${only}
          ORDER BY d.next_attempt_at, d.event_seq
          LIMIT ${limit}
          ${lock})
       RETURNING *`.execute(this.db);
    return result.rows.map(toDelivery).sort((a, b) => a.eventSeq - b.eventSeq);
  }

  /**
   * When the next claim could find something: the earliest retry of a pending delivery or lease end of one in flight
   * (null when there is neither). Two index reads (`status, next_attempt_at`; in-flight rows are few).
   */
  async nextDueAt(): Promise<number | null> {
    const row = await sql<{ pending: number | string | null; leased: number | string | null }>`
      select (select min(next_attempt_at) from delivery where status = 'pending') as pending,
             (select min(lease_until) from delivery where status = 'in_flight') as leased`.execute(this.db);
    const times = [row.rows[0]?.pending, row.rows[0]?.leased].filter((v) => v !== null && v !== undefined).map(Number);
    return times.length > 0 ? Math.min(...times) : null;
  }

  /** Ends the attempt only if this worker still holds the lease; false when the lease was lost meanwhile. */
  async finishAttempt(id: string, owner: string, end: AttemptEnd): Promise<boolean> {
    const base = { lease_owner: null, lease_until: null, updated_at: end.at };
    const set =
      end.status === 'delivered'
        ? {
            ...base,
            status: 'delivered',
            delivered_at: end.at,
            provider_reference: end.providerReference,
            last_error: null,
          }
        : end.status === 'logged'
          ? { ...base, status: 'logged', last_error: end.note.slice(0, 500) }
          : end.status === 'pending'
            ? { ...base, status: 'pending', next_attempt_at: end.nextAttemptAt, last_error: end.error.slice(0, 500) }
            : { ...base, status: 'failed', last_error: end.error.slice(0, 500) };
    const r = await this.db
      .updateTable('delivery')
      .set(set)
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .where('status', '=', 'in_flight')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /**
   * The open group of a destination (DECISIONS §17): its first delivery, not attempted yet and due after `now` (its
   * window has not ended). Locked on PostgreSQL, so a worker cannot claim it while an event joins it (the claim
   * skips locked rows, and a claim that came first leaves it in flight: then a new group starts).
   */
  async openGroupOf(destinationId: string, now: number): Promise<{ id: string; closesAt: number } | null> {
    let q = this.db
      .selectFrom('delivery')
      .select(['id', 'next_attempt_at'])
      .where('destination_id', '=', destinationId)
      .where('status', '=', 'pending')
      .whereRef('group_id', '=', 'id')
      .where('attempts', '=', 0)
      .where('next_attempt_at', '>', now)
      .orderBy('id', 'desc')
      .limit(1);
    if (this.database.dialect === 'postgres') q = q.forUpdate();
    const row = await q.executeTakeFirst();
    return row ? { id: row.id, closesAt: Number(row.next_attempt_at) } : null;
  }

  /** The deliveries waiting in a group (not its first one), in event order. */
  async groupMembers(groupId: string): Promise<DeliveryRecord[]> {
    const rows = await this.db
      .selectFrom('delivery')
      .selectAll()
      .where('group_id', '=', groupId)
      .where('status', '=', 'grouped')
      .orderBy('event_seq')
      .orderBy('id')
      .execute();
    return rows.map(toDelivery);
  }

  /** The group's message has ended: its waiting deliveries end the same way (in the caller's transaction). */
  async settleGroup(groupId: string, end: Exclude<AttemptEnd, { status: 'pending' }>): Promise<void> {
    const set =
      end.status === 'delivered'
        ? { status: 'delivered', delivered_at: end.at, provider_reference: end.providerReference, last_error: null }
        : end.status === 'logged'
          ? { status: 'logged', last_error: end.note.slice(0, 500) }
          : { status: 'failed', last_error: end.error.slice(0, 500) };
    await this.db
      .updateTable('delivery')
      .set({ ...set, updated_at: end.at })
      .where('group_id', '=', groupId)
      .where('status', '=', 'grouped')
      .execute();
  }

  async find(id: string): Promise<DeliveryRecord | null> {
    const row = await this.db.selectFrom('delivery').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toDelivery(row) : null;
  }

  async findByEventAndTarget(eventId: string, targetKey: string): Promise<DeliveryRecord | null> {
    const row = await this.db
      .selectFrom('delivery')
      .selectAll()
      .where('event_id', '=', eventId)
      .where('target_key', '=', targetKey)
      .executeTakeFirst();
    return row ? toDelivery(row) : null;
  }

  async listByEvent(eventId: string): Promise<DeliveryRecord[]> {
    const rows = await this.db
      .selectFrom('delivery')
      .selectAll()
      .where('event_id', '=', eventId)
      .orderBy('id')
      .execute();
    return rows.map(toDelivery);
  }

  async listAll(limit = 10_000): Promise<DeliveryRecord[]> {
    const rows = await this.db
      .selectFrom('delivery')
      .selectAll()
      .orderBy('event_seq')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map(toDelivery);
  }
}
