import type { Database } from '../../platform/db/index.ts';
import { fromJson, toJson } from '../../platform/db/index.ts';
import type { StatusDeliveryRow, StatusSubscriberRow, SubscribersTables } from './subscribers.tables.ts';
import type { StatusMessage, Subscriber, SubscriberEvent, SubscriberKind } from './subscriber.types.ts';

function toSubscriber(row: StatusSubscriberRow): Subscriber {
  return {
    id: row.id,
    organizationId: row.organization_id,
    statusPageId: row.status_page_id,
    kind: row.kind as SubscriberKind,
    address: row.address,
    confirmedAt: row.confirmed_at === null ? null : Number(row.confirmed_at),
    createdAt: Number(row.created_at),
  };
}

/** A delivery as the sender needs it: the row, its subscriber, its message (null: a confirmation) and its page. */
export interface DeliveryWork {
  delivery: StatusDeliveryRow;
  subscriber: StatusSubscriberRow;
  message: StatusMessage | null;
  page: { id: string; slug: string; title: string };
}

export class SubscribersRepository {
  private readonly db;
  constructor(database: Database) {
    this.db = database.tables<SubscribersTables>();
  }

  /** False when the page already has a subscriber with this address. */
  async insertSubscriber(row: StatusSubscriberRow): Promise<boolean> {
    const rows = await this.db
      .insertInto('status_subscriber')
      .values(row)
      .onConflict((oc) => oc.columns(['status_page_id', 'address']).doNothing())
      .returning('id')
      .execute();
    return rows.length > 0;
  }

  async findRowByAddress(statusPageId: string, address: string): Promise<StatusSubscriberRow | null> {
    const row = await this.db
      .selectFrom('status_subscriber')
      .selectAll()
      .where('status_page_id', '=', statusPageId)
      .where('address', '=', address)
      .executeTakeFirst();
    return row ?? null;
  }

  /** A new confirmation link for a pending subscriber (the previous one stops working). */
  async renewConfirmation(id: string, hash: string, expiresAt: number, sentAt: number): Promise<boolean> {
    const result = await this.db
      .updateTable('status_subscriber')
      .set({ confirm_token_hash: hash, confirm_expires_at: expiresAt, confirm_sent_at: sentAt })
      .where('id', '=', id)
      .where('confirmed_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async findRowByConfirmHash(hash: string): Promise<StatusSubscriberRow | null> {
    const row = await this.db
      .selectFrom('status_subscriber')
      .selectAll()
      .where('confirm_token_hash', '=', hash)
      .executeTakeFirst();
    return row ?? null;
  }

  /** Confirms the subscriber whose link this is while it is valid; the link works once. */
  async confirm(hash: string, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('status_subscriber')
      .set({ confirmed_at: now, confirm_token_hash: null, confirm_expires_at: null })
      .where('confirm_token_hash', '=', hash)
      .where('confirm_expires_at', '>', now)
      .where('confirmed_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async findRowByUnsubscribeHash(hash: string): Promise<StatusSubscriberRow | null> {
    const row = await this.db
      .selectFrom('status_subscriber')
      .selectAll()
      .where('unsubscribe_token_hash', '=', hash)
      .executeTakeFirst();
    return row ?? null;
  }

  async find(organizationId: string, statusPageId: string, id: string): Promise<Subscriber | null> {
    const row = await this.db
      .selectFrom('status_subscriber')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('status_page_id', '=', statusPageId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toSubscriber(row) : null;
  }

  /** Deletes the subscriber and (cascade) its deliveries not yet made. */
  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('status_subscriber').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async list(organizationId: string, statusPageId: string, after: string | undefined, limit: number) {
    let q = this.db
      .selectFrom('status_subscriber')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('status_page_id', '=', statusPageId);
    if (after) q = q.where('id', '>', after);
    const rows = await q
      .orderBy('id')
      .limit(limit + 1)
      .execute();
    return rows.map(toSubscriber);
  }

  /** False when a message with this source key exists already (it is made once). */
  async insertMessage(m: StatusMessage): Promise<boolean> {
    const rows = await this.db
      .insertInto('status_message')
      .values({
        id: m.id,
        organization_id: m.organizationId,
        status_page_id: m.statusPageId,
        source_key: m.sourceKey,
        event: m.event,
        subject: m.subject,
        body: m.body,
        data: toJson(m.data),
        occurred_at: m.occurredAt,
        fanned_out_to: null,
        fan_out_done: 0,
        created_at: m.createdAt,
      })
      .onConflict((oc) => oc.column('source_key').doNothing())
      .returning('id')
      .execute();
    return rows.length > 0;
  }

  /** Messages whose fan-out is not finished, oldest first. */
  async unfinishedFanOuts(
    limit: number,
  ): Promise<
    Array<{ id: string; statusPageId: string; fannedOutTo: string | null; createdAt: number; organizationId: string }>
  > {
    const rows = await this.db
      .selectFrom('status_message')
      .select(['id', 'status_page_id', 'fanned_out_to', 'created_at', 'organization_id'])
      .where('fan_out_done', '=', 0)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      id: r.id,
      statusPageId: r.status_page_id,
      fannedOutTo: r.fanned_out_to,
      createdAt: Number(r.created_at),
      organizationId: r.organization_id,
    }));
  }

  /** Confirmed subscribers of the page after `after` (by id) who had confirmed when the message was made. */
  async confirmedAfter(
    statusPageId: string,
    after: string | null,
    confirmedBy: number,
    limit: number,
  ): Promise<string[]> {
    let q = this.db
      .selectFrom('status_subscriber')
      .select('id')
      .where('status_page_id', '=', statusPageId)
      .where('confirmed_at', 'is not', null)
      .where('confirmed_at', '<=', confirmedBy);
    if (after !== null) q = q.where('id', '>', after);
    const rows = await q.orderBy('id').limit(limit).execute();
    return rows.map((r) => r.id);
  }

  /**
   * Moves the fan-out's position from `from` to `to` (done: every subscriber has its delivery); false when another
   * process moved it first (its transaction then made the same deliveries, which the unique index keeps once).
   */
  async advanceFanOut(messageId: string, from: string | null, to: string | null, done: boolean): Promise<boolean> {
    let q = this.db
      .updateTable('status_message')
      .set({ fanned_out_to: to, fan_out_done: done ? 1 : 0 })
      .where('id', '=', messageId)
      .where('fan_out_done', '=', 0);
    q = from === null ? q.where('fanned_out_to', 'is', null) : q.where('fanned_out_to', '=', from);
    const result = await q.executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Deliveries, each once per (message, subscriber): a row that exists already is kept as it is. */
  async insertDeliveries(rows: StatusDeliveryRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db
      .insertInto('status_delivery')
      .values(rows)
      .onConflict((oc) => oc.columns(['message_id', 'subscriber_id']).doNothing())
      .execute();
  }

  /** Ids of deliveries due now and not leased by another worker. */
  async dueIds(now: number, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('status_delivery')
      .select('id')
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
      .orderBy('next_attempt_at')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }

  /** Takes the delivery for one attempt until `leaseUntil`; false when another worker holds it. */
  async lease(id: string, now: number, leaseUntil: number): Promise<boolean> {
    const result = await this.db
      .updateTable('status_delivery')
      .set((eb) => ({ lease_until: leaseUntil, attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async work(id: string): Promise<DeliveryWork | null> {
    const delivery = await this.db.selectFrom('status_delivery').selectAll().where('id', '=', id).executeTakeFirst();
    if (!delivery) return null;
    const subscriber = await this.db
      .selectFrom('status_subscriber')
      .selectAll()
      .where('id', '=', delivery.subscriber_id)
      .executeTakeFirst();
    if (!subscriber) return null;
    const page = await this.db
      .selectFrom('status_page')
      .select(['id', 'slug', 'title'])
      .where('id', '=', subscriber.status_page_id)
      .executeTakeFirst();
    if (!page) return null;
    let message: StatusMessage | null = null;
    if (delivery.message_id !== null) {
      const m = await this.db
        .selectFrom('status_message')
        .selectAll()
        .where('id', '=', delivery.message_id)
        .executeTakeFirst();
      if (!m) return null;
      message = {
        id: m.id,
        organizationId: m.organization_id,
        statusPageId: m.status_page_id,
        sourceKey: m.source_key,
        event: m.event as SubscriberEvent,
        subject: m.subject,
        body: m.body,
        data: fromJson<Record<string, unknown>>(m.data),
        occurredAt: Number(m.occurred_at),
        createdAt: Number(m.created_at),
      };
    }
    return { delivery, subscriber, message, page };
  }

  /** Records an attempt's outcome while the lease taken for it still holds. */
  async settle(
    id: string,
    leaseUntil: number,
    outcome: { status: 'pending' | 'sent' | 'failed'; nextAttemptAt?: number; error?: string | null; sentAt?: number },
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('status_delivery')
      .set({
        status: outcome.status,
        lease_until: null,
        last_error: outcome.error ?? null,
        ...(outcome.nextAttemptAt !== undefined && { next_attempt_at: outcome.nextAttemptAt }),
        ...(outcome.sentAt !== undefined && { sent_at: outcome.sentAt }),
      })
      .where('id', '=', id)
      .where('lease_until', '=', leaseUntil)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Pages that take subscriptions and have a confirmed subscriber (the maintenance announcements look at them). */
  async pagesWithSubscribers(): Promise<Array<{ id: string; organizationId: string }>> {
    const rows = await this.db
      .selectFrom('status_page')
      .select(['id', 'organization_id'])
      .where('subscriptions_enabled', '=', 1)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('status_subscriber')
            .select('status_subscriber.id')
            .whereRef('status_subscriber.status_page_id', '=', 'status_page.id')
            .where('status_subscriber.confirmed_at', 'is not', null),
        ),
      )
      .execute();
    return rows.map((r) => ({ id: r.id, organizationId: r.organization_id }));
  }

  /** The page when it takes subscriptions (same organization), else null. */
  async subscribablePage(
    organizationId: string,
    id: string,
  ): Promise<{ id: string; slug: string; title: string } | null> {
    const row = await this.db
      .selectFrom('status_page')
      .select(['id', 'slug', 'title'])
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .where('subscriptions_enabled', '=', 1)
      .executeTakeFirst();
    return row ?? null;
  }
}
