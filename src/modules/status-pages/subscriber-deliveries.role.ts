import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/index.ts';
import type { Logger } from '../../platform/logger.ts';
import { BackgroundLoop } from '../../platform/background-loop.ts';
import type { BackgroundRole } from '../../platform/background-role.ts';
import type { Timers } from '../../platform/timers.ts';
import { newId } from '../../platform/ids.ts';
import type { SubscriberSender } from './subscriber-delivery.sender.ts';
import { newDelivery, type SubscribersService } from './subscriber.service.ts';
import { SubscribersRepository } from './subscribers.repository.ts';
import type { StatusPageMaintenance } from './status-page.types.ts';

/** The outbox as this role reads it (the events module's EventsService fits). */
export interface SubscriberOutbox {
  consumerPosition(name: string): Promise<number>;
  lockConsumerPosition(tx: Database, name: string): Promise<number>;
  setConsumerPosition(name: string, seq: number, tx: Database): Promise<void>;
  readAfter(
    seq: number,
    limit: number,
  ): Promise<
    Array<{ seq: number; organizationId: string; type: string; occurredAt: number; payload: Record<string, unknown> }>
  >;
}

export interface SubscriberDeliveriesDeps {
  database: Database;
  clock: Clock;
  logger: Logger;
  subscribers: SubscribersService;
  sender: SubscriberSender;
  outbox: SubscriberOutbox;
  maintenance: Pick<StatusPageMaintenance, 'announcedOn'> | null;
  timers?: Timers;
  /** How often the role looks when nothing woke it (default 5 s). */
  everyMs?: number;
  /** How long one attempt holds its delivery (default 60 s): a process killed meanwhile leaves it to another then. */
  leaseMs?: number;
  /** Deliveries sent at the same time (default 8). */
  concurrency?: number;
}

export const CONSUMER = 'status-subscribers';
/** Deliveries made per transaction of a fan-out. */
export const FAN_OUT_BATCH = 500;
const SEND_BATCH = 64;
/**
 * Deliveries a process starts per second at most during a backlog: 10,000 subscribers in under 2 minutes, while
 * sending as fast as the SMTP pool takes them (~300/s) held half a core and raised the check lateness p99 of 1,000
 * monitors every 10 s above 250 ms (docs/BENCHMARKS.md, "Status-page subscriber fan-out").
 */
const SENDS_PER_SECOND = 100;
const EVENTS_BATCH = 200;
/** Maintenance events older than this (read after a long outage or on first start) tell nobody any more. */
const EVENT_LOOKBACK_MS = 24 * 3_600_000;
const ANNOUNCE_EVERY_MS = 60_000;
/** After the 1st, 2nd, … failed attempt (DECISIONS §7's schedule); after the last, the delivery has failed. */
const RETRY_DELAYS_MS = [60_000, 300_000, 1_800_000, 7_200_000, 21_600_000];

/**
 * Background role `status-subscribers`: tells status pages' subscribers, from the durable outbox, in passes of
 * 1. maintenance started/ended events of the outbox (consumer `status-subscribers`) and announced windows → messages;
 * 2. fan-out: each message gets one delivery per confirmed subscriber, FAN_OUT_BATCH per transaction with the
 *    message's position (a crash resumes where the last committed batch ended; the unique (message, subscriber)
 *    keeps each delivery once);
 * 3. sends: due deliveries are leased, sent (mail or signed webhook, the delivery's id as Message-ID and
 *    X-Service-Delivery on every attempt) and settled while the lease holds; failures retry on §7's schedule.
 */
export class SubscriberDeliveriesRole implements BackgroundRole {
  readonly name = 'status-subscribers';
  private readonly deps: SubscriberDeliveriesDeps;
  private readonly loop: BackgroundLoop;
  private lastAnnounceCheck = Number.NEGATIVE_INFINITY;
  constructor(deps: SubscriberDeliveriesDeps) {
    this.deps = deps;
    this.loop = new BackgroundLoop({
      name: this.name,
      everyMs: deps.everyMs ?? 5_000,
      pass: () => this.runPass(),
      failed: (err) => {
        deps.logger.error({ err }, 'status subscribers pass failed');
        return 5_000;
      },
      ...(deps.timers && { timers: deps.timers }),
    });
    deps.subscribers.onQueued(() => this.loop.wake());
  }

  start(): Promise<void> {
    return this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  wake(): void {
    this.loop.wake();
  }

  /** One pass; answers when to run the next while more is due (tests call it with a manual clock). */
  async runPass(): Promise<number | void> {
    const started = this.deps.clock.now();
    await this.consumeMaintenanceEvents();
    await this.announceMaintenance();
    await this.fanOut();
    const sent = await this.sendDue();
    if (sent !== SEND_BATCH) return undefined;
    // More is due: the next batch once this one's share of SENDS_PER_SECOND has passed.
    return Math.max(0, (SEND_BATCH * 1000) / SENDS_PER_SECOND - (this.deps.clock.now() - started));
  }

  private async consumeMaintenanceEvents(): Promise<void> {
    const { database, outbox, subscribers } = this.deps;
    for (;;) {
      // Read before the transaction (SQLite's one connection is the transaction's then); inside it, the position
      // is locked and must still be the one read from, or another process consumed these and the pass reads again.
      const read = await outbox.consumerPosition(CONSUMER);
      const events = await outbox.readAfter(read, EVENTS_BATCH);
      if (events.length === 0) return;
      const more = await database.transaction(async (tx) => {
        if ((await outbox.lockConsumerPosition(tx, CONSUMER)) !== read) return true;
        const now = this.deps.clock.now();
        for (const e of events) {
          if (e.type !== 'maintenance_started' && e.type !== 'maintenance_ended') continue;
          if (e.occurredAt < now - EVENT_LOOKBACK_MS) continue;
          const p = e.payload;
          const pageIds = Array.isArray(p.status_page_ids) ? p.status_page_ids.map(String) : [];
          for (const statusPageId of pageIds) {
            await subscribers.maintenanceMessage(tx, {
              organizationId: e.organizationId,
              statusPageId,
              phase: e.type === 'maintenance_started' ? 'started' : 'ended',
              window: {
                id: String(p.maintenance_window_id),
                name: String(p.name),
                description: typeof p.description === 'string' ? p.description : null,
              },
              occurrence: { start: Date.parse(String(p.starts_at)), end: Date.parse(String(p.ends_at)) },
              occurredAt: e.occurredAt,
            });
          }
        }
        await outbox.setConsumerPosition(CONSUMER, events[events.length - 1]!.seq, tx);
        return events.length === EVENTS_BATCH;
      });
      if (!more || this.loop.stopping) return;
    }
  }

  /** Windows that reached their announce time on a page with subscribers: one `announced` message each. */
  private async announceMaintenance(): Promise<void> {
    const maintenance = this.deps.maintenance;
    const now = this.deps.clock.now();
    if (!maintenance || now - this.lastAnnounceCheck < ANNOUNCE_EVERY_MS) return;
    this.lastAnnounceCheck = now;
    const pages = await new SubscribersRepository(this.deps.database).pagesWithSubscribers();
    for (const page of pages) {
      const announced = await maintenance.announcedOn(page.organizationId, page.id, now);
      for (const a of announced) {
        // In progress already: its `started` message says it (an announcement would come too late).
        if (a.inProgress) continue;
        await this.deps.database.transaction((tx) =>
          this.deps.subscribers.maintenanceMessage(tx, {
            organizationId: page.organizationId,
            statusPageId: page.id,
            phase: 'announced',
            window: { id: a.window.id, name: a.window.name, description: a.window.description },
            occurrence: a.occurrence,
            occurredAt: now,
          }),
        );
      }
    }
  }

  private async fanOut(): Promise<void> {
    const { database } = this.deps;
    const messages = await new SubscribersRepository(database).unfinishedFanOuts(20);
    for (const m of messages) {
      let from = m.fannedOutTo;
      for (;;) {
        if (this.loop.stopping) return;
        const step = await database.transaction(async (tx) => {
          const repository = new SubscribersRepository(tx);
          const ids = await repository.confirmedAfter(m.statusPageId, from, m.createdAt, FAN_OUT_BATCH);
          const done = ids.length < FAN_OUT_BATCH;
          const to = ids.length > 0 ? ids[ids.length - 1]! : from;
          // Another process moved the position first: this batch is its (the transaction rolls back).
          if (!(await repository.advanceFanOut(m.id, from, to, done))) return null;
          const now = this.deps.clock.now();
          await repository.insertDeliveries(
            ids.map((sid) => newDelivery(newId('dlv', now), m.organizationId, sid, m.id, now)),
          );
          return { to, done };
        });
        if (step === null || step.done) break;
        from = step.to;
      }
    }
  }

  /** Sends what is due, `concurrency` at a time; answers how many deliveries were due. */
  private async sendDue(): Promise<number> {
    const { database, clock } = this.deps;
    const ids = await new SubscribersRepository(database).dueIds(clock.now(), SEND_BATCH);
    const queue = [...ids];
    const worker = async () => {
      for (let id = queue.shift(); id !== undefined && !this.loop.stopping; id = queue.shift()) await this.attempt(id);
    };
    await Promise.all(Array.from({ length: Math.min(this.deps.concurrency ?? 8, queue.length) }, worker));
    return ids.length;
  }

  private async attempt(id: string): Promise<void> {
    const { database, clock, sender } = this.deps;
    const repository = new SubscribersRepository(database);
    const now = clock.now();
    const leaseUntil = now + (this.deps.leaseMs ?? 60_000);
    if (!(await repository.lease(id, now, leaseUntil))) return;
    const work = await repository.work(id);
    if (!work) return; // the subscriber left meanwhile: its deliveries went with it
    const result = await sender.send(work);
    const attempts = work.delivery.attempts;
    if (result.outcome === 'sent') {
      await repository.settle(id, leaseUntil, { status: 'sent', sentAt: clock.now() });
    } else if (result.outcome === 'retry' && attempts <= RETRY_DELAYS_MS.length) {
      const delay = RETRY_DELAYS_MS[attempts - 1]! * (0.9 + Math.random() * 0.2);
      await repository.settle(id, leaseUntil, {
        status: 'pending',
        nextAttemptAt: clock.now() + Math.round(delay),
        error: result.reason,
      });
    } else {
      this.deps.logger.warn({ delivery: id, reason: result.reason }, 'status page subscriber delivery failed');
      await repository.settle(id, leaseUntil, { status: 'failed', error: result.reason });
    }
  }
}
