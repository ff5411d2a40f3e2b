import { hostname } from 'node:os';
import { BackgroundLoop } from '../../../platform/background-loop.ts';
import type { Clock } from '../../../platform/clock.ts';
import type { ChangeSignals, Database } from '../../../platform/db/index.ts';
import { randomToken } from '../../../platform/ids.ts';
import type { Logger } from '../../../platform/logger.ts';
import type { TocsinMetrics } from '../../../platform/metrics/index.ts';
import type { Timers } from '../../../platform/timers.ts';
import { isFeedEvent, type EventsService } from '../../events/index.ts';
import type { MonitorsService } from '../../monitors/index.ts';
import type { OrgsService } from '../../orgs/index.ts';
import type { AlertEvent, DestinationProvider, DestinationType, ProviderContext } from '../destinations/index.ts';
import { DeliveriesRepository } from '../deliveries.repository.ts';
import type { DestinationSecrets } from '../destination.secrets.ts';
import type { DeliveryRecord } from '../alerting.types.ts';
import type { HostResolver } from '../network.guard.ts';
import {
  gatherGroupStage,
  guardStage,
  renderStage,
  resolveStage,
  runAttempt,
  sendStage,
  type AttemptStage,
} from './attempt.stages.ts';
import { classifyAttempt } from './classify.stage.ts';
import { deliveriesFor, FanOutFacts, type EventFacts, type SilenceSource } from './fan-out.ts';
import { assignGroups } from './group.stage.ts';
import { OutboxGaps } from './outbox-gaps.ts';
import { recordAttempt } from './record.stage.ts';

/** A delivery that will not be attempted again. */
export interface DeliveryEnded {
  eventId: string;
  eventType: DeliveryRecord['eventType'];
  status: 'delivered' | 'logged' | 'failed';
}

/** The outbox consumer name of the alert pipeline (its row in `event_consumer`). */
export const CONSUMER = 'alerting';

export interface AlertPipelineDeps {
  database: Database;
  clock: Clock;
  logger: Logger;
  events: EventsService;
  orgs: OrgsService;
  monitors: MonitorsService;
  registry: ReadonlyMap<DestinationType, DestinationProvider>;
  secrets: DestinationSecrets;
  providerContext: ProviderContext;
  publicUrl: string;
  allowPrivateTargets: boolean;
  resolveHost?: HostResolver;
  /** [0, 1) for retry jitter; tests pass () => 0.5 for none. */
  random?: () => number;
  /** How long a claimed delivery belongs to this worker before another may take it over (ms). */
  leaseMs?: number;
  /** Attempts in flight at once in the work loop (and deliveries claimed per `workOnce` round). */
  batchSize?: number;
  /** Outbox events fanned out per round. */
  fanOutBatch?: number;
  /** Idle poll interval of both loops (ms); a nudge wakes them sooner. */
  pollMs?: number;
  /** How long a hole in the outbox sequence (a writer not yet committed) is waited for before it is skipped (ms). */
  gapWaitMs?: number;
  /** The silences that hold deliveries back at fan-out (DECISIONS §16); absent: none. */
  silences?: SilenceSource;
  /** `tocsin_deliveries_total{destination_type,outcome}`; null or absent when metrics are off. */
  metrics?: Pick<TocsinMetrics, 'deliveryAttempted'> | null;
  /**
   * New deliveries are signalled (`DELIVERIES_CHANGED`), so idle workers of every process wake at once; the idle
   * loops then back off to the signals' safety poll instead of a second. Absent: this process's nudges only.
   */
  signals?: ChangeSignals;
  /** The timers of the dispatcher and worker loops (tests pass a fake); the system's by default. */
  timers?: Timers;
}

/**
 * The alert pipeline, Alertmanager-style, composed here and only here:
 *
 *   fan-out (dispatcher):  outbox event → snapshot → match (the monitor's link rows) → one delivery per target
 *                          (same transaction as the consumer position, which is row-locked so two processes never
 *                          fan out an event twice)
 *   delivery (workers):    claim with a lease → [resolve → render → guard → send] → classify (retry schedule)
 *                          → record (the delivery and the destination's last success/failure, one transaction)
 *
 * The delivery stages share one signature (`AttemptStage`, attempt.stages.ts) and are composed in `stages` below;
 * this class only sequences them, owns the loops and the wake-ups.
 */
/**
 * The longest idle wait of the dispatcher and worker loops (unless `pollMs` is longer) without change signals, and
 * while a hole in the outbox is waited for.
 */
const IDLE_MAX_MS = 1_000;
/** The change-signal topic of new deliveries to attempt. */
export const DELIVERIES_CHANGED = 'deliveries';

export class AlertPipeline {
  private readonly deps: AlertPipelineDeps;
  private readonly owner: string;
  private readonly random: () => number;
  private readonly leaseMs: number;
  private readonly batchSize: number;
  private readonly fanOutBatch: number;
  private readonly pollMs: number;
  private readonly gaps: OutboxGaps;
  private readonly facts: FanOutFacts;
  private readonly stages: readonly AttemptStage[];
  /** The fan-out loop (background role `alert-dispatcher`); woken by `nudge()`. */
  readonly dispatcher: BackgroundLoop;
  /** The delivery loop (background role `alert-workers`); woken by `nudgeWorkers()`. */
  readonly workers: BackgroundLoop;
  /** Empty rounds in a row of each loop: their waits back off with it. */
  private dispatcherIdle = 0;
  private workerIdle = 0;
  /** Attempts the delivery loop started and that have not ended. */
  private readonly attempts = new Set<Promise<void>>();
  private readonly endedListeners: Array<(ended: DeliveryEnded) => void> = [];

  constructor(deps: AlertPipelineDeps) {
    this.deps = deps;
    this.owner = `${hostname()}:${process.pid}:${randomToken(6)}`;
    this.random = deps.random ?? Math.random;
    this.leaseMs = deps.leaseMs ?? 60_000;
    this.batchSize = deps.batchSize ?? 100;
    this.fanOutBatch = deps.fanOutBatch ?? 200;
    this.pollMs = deps.pollMs ?? 100;
    this.gaps = new OutboxGaps(deps.clock, deps.logger, deps.gapWaitMs ?? 10_000);
    this.facts = new FanOutFacts(deps);
    this.stages = [resolveStage(deps), gatherGroupStage(deps), renderStage(deps), guardStage(deps), sendStage(deps)];
    this.dispatcher = new BackgroundLoop({
      name: 'alert-dispatcher',
      everyMs: this.pollMs,
      pass: () => this.dispatchPass(),
      failed: (err) => {
        this.deps.logger.error({ err }, 'alert dispatcher round failed');
        return this.dispatcherWait(0);
      },
      ...(deps.timers && { timers: deps.timers }),
    });
    this.workers = new BackgroundLoop({
      name: 'alert-workers',
      everyMs: this.pollMs,
      pass: () => this.workPass(),
      // workPass reports its own round failures (with their backoff); this is a failure of the idle wait's reading.
      failed: (err) => void this.deps.logger.error({ err }, 'alert worker round failed'),
      atStop: async () => void (await Promise.allSettled(this.attempts)),
      ...(deps.timers && { timers: deps.timers }),
    });
  }

  get idlePollMs(): number {
    return this.pollMs;
  }

  /**
   * Called (after the commit) whenever a delivery this process attempted has ended, delivered or failed for good;
   * a listener must not throw and must not hold the caller up (the scheduled reports settle their runs this way).
   */
  onDeliveryEnded(listener: (ended: DeliveryEnded) => void): void {
    this.endedListeners.push(listener);
  }

  /** An event was written in this process: fan it out now rather than at the next poll. */
  nudge(): void {
    this.dispatcher.wake();
  }

  /** New deliveries (or one released by an ended attempt): claim now rather than at the next poll. */
  nudgeWorkers(): void {
    this.workers.wake();
  }

  // ───────────────────────────── fan-out ─────────────────────────────

  /** One round of the dispatcher; returns how many outbox events it consumed. */
  async fanOutOnce(): Promise<number> {
    const { events, database, clock } = this.deps;
    const position = await events.consumerPosition(CONSUMER);
    const batch = this.gaps.contiguous(position, await events.readAfter(position, this.fanOutBatch));
    if (batch.length === 0) return 0;
    const now = clock.now();
    // Feed-only events (monitor_status_changed) alert nobody: passed over, the position still moves past them.
    const alerts = batch.filter((event) => !isFeedEvent(event.type));
    const facts = await this.facts.of(alerts, now);
    const deliveries = alerts.flatMap((event, i) => deliveriesFor(event, facts[i]!, this.deps.publicUrl, now));
    const last = batch[batch.length - 1]!.seq;
    const committed = await database.transaction(async (tx) => {
      const repo = new DeliveriesRepository(tx);
      // Another process may have consumed these events since we read the position: then do nothing.
      if ((await events.lockConsumerPosition(tx, CONSUMER)) !== position) return false;
      await assignGroups(repo, deliveries, this.groupWindows(facts), now);
      await repo.insertMany(deliveries, now);
      await events.setConsumerPosition(CONSUMER, last, tx);
      if (deliveries.length > 0 && this.deps.signals) this.deps.signals.signal(tx, DELIVERIES_CHANGED);
      return true;
    });
    if (!committed) return 0;
    if (deliveries.length > 0 && !this.deps.signals) this.nudgeWorkers();
    return batch.length;
  }

  /** Each destination's grouping window (DECISIONS §17), for the types that can group (a provider's renderGroup). */
  private groupWindows(facts: readonly EventFacts[]): (destinationId: string) => number {
    const windows = new Map<string, number>();
    for (const f of facts)
      for (const d of f.org?.destinations ?? [])
        if (d.groupWindowSeconds > 0 && this.deps.registry.get(d.type as DestinationType)?.renderGroup)
          windows.set(d.id, d.groupWindowSeconds);
    return (id) => windows.get(id) ?? 0;
  }

  // ───────────────────────────── delivery ─────────────────────────────

  /** One round of the workers: claims due deliveries and attempts each once; returns how many it attempted. */
  async workOnce(): Promise<number> {
    const now = this.deps.clock.now();
    const claimed = await new DeliveriesRepository(this.deps.database).claim(
      this.owner,
      now,
      now + this.leaseMs,
      this.batchSize,
    );
    await Promise.all(claimed.map((d) => this.attempt(d)));
    return claimed.length;
  }

  /** Claims this one delivery if it is due and attempts it now (the test endpoint); false if it was not claimable. */
  async attemptNow(deliveryId: string): Promise<boolean> {
    const now = this.deps.clock.now();
    const [claimed] = await new DeliveriesRepository(this.deps.database).claim(
      this.owner,
      now,
      now + this.leaseMs,
      1,
      deliveryId,
    );
    if (!claimed) return false;
    await this.attempt(claimed);
    return true;
  }

  /** [resolve → render → guard → send] → classify → record, for one claimed delivery. */
  private async attempt(delivery: DeliveryRecord): Promise<void> {
    const { clock, logger, database } = this.deps;
    const ended = await runAttempt(this.stages, { delivery });
    const result = ended.result;
    // `unknown` when the destination could not be loaded (deleted, database error): bounded either way.
    this.deps.metrics?.deliveryAttempted(ended.target?.record.type ?? 'unknown', result.outcome);
    const verdict = classifyAttempt(result, delivery.attempts, clock.now(), this.random);
    const kept = await recordAttempt(database, this.owner, delivery, result, verdict);
    const log = {
      delivery: delivery.id,
      target: delivery.targetKey,
      event: delivery.eventType,
      attempt: delivery.attempts,
      outcome: result.outcome,
    };
    if (kept && verdict.delivery.status !== 'pending') {
      const ended: DeliveryEnded = {
        eventId: delivery.eventId,
        eventType: delivery.eventType,
        status: verdict.delivery.status,
      };
      for (const listener of this.endedListeners) listener(ended);
    }
    if (!kept) logger.warn(log, 'alerting: lease lost before the attempt was recorded; another worker retries it');
    else if (result.outcome === 'ok') logger.debug(log, 'alert delivered');
    else
      logger.info({ ...log, reason: result.reason, status: verdict.delivery.status }, 'alert delivery attempt failed');
  }

  // ───────────────────────────── loops ─────────────────────────────

  /** Runs both stages until neither has work (tests and the test endpoint; no sleeping). */
  async runUntilIdle(maxRounds = 1000): Promise<void> {
    for (let i = 0; i < maxRounds; i++) {
      const fanned = await this.fanOutOnce();
      const worked = await this.workOnce();
      if (fanned === 0 && worked === 0) return;
    }
  }

  // Idle rounds back off from pollMs to IDLE_MAX_MS (doubling): this process's own events and new deliveries wake
  // the loops at once, so the wait only bounds how late another process's events and due retries are seen, and an
  // idle service does not query the outbox ten times a second. A failed round counts as an empty one.

  /** One round of the dispatcher loop; answers its wait (0 after a round that consumed events: the next at once). */
  private async dispatchPass(): Promise<number> {
    return this.dispatcherWait(await this.fanOutOnce());
  }

  private dispatcherWait(consumed: number): number {
    this.dispatcherIdle = consumed === 0 ? this.dispatcherIdle + 1 : 0;
    if (consumed > 0) return 0;
    // A hole in the outbox is looked at again within a second (it is skipped after gapWaitMs, not signalled).
    return this.idleWait(this.dispatcherIdle, this.gaps.waiting ? IDLE_MAX_MS : undefined);
  }

  /**
   * One round of the delivery loop. Attempts run side by side, up to `batchSize` at a time, and the loop claims more
   * as soon as one ends: a destination that does not answer holds up only its own later deliveries (the claim keeps
   * those back until the earlier one of the same destination and monitor has ended), never another destination's.
   * At stop, the loop waits for the attempts in flight.
   */
  private async workPass(): Promise<number> {
    const room = this.batchSize - this.attempts.size;
    let n = 0;
    if (room > 0) {
      try {
        n = await this.claimAndStart(room);
      } catch (err) {
        this.deps.logger.error({ err }, 'alert worker round failed');
      }
    }
    this.workerIdle = n === 0 ? this.workerIdle + 1 : 0;
    // Full: the next attempt to end wakes the loop. Idle: an ending attempt may have released a later delivery of
    // its destination, so it wakes it too.
    return n === 0 ? await this.workerIdleWait(this.workerIdle) : 0;
  }

  /** Claims up to `limit` due deliveries and starts their attempts without waiting for them. */
  private async claimAndStart(limit: number): Promise<number> {
    const running = this.attempts;
    const now = this.deps.clock.now();
    const claimed = await new DeliveriesRepository(this.deps.database).claim(
      this.owner,
      now,
      now + this.leaseMs,
      limit,
    );
    for (const delivery of claimed) {
      const attempt: Promise<void> = this.attempt(delivery)
        .catch((err: unknown) =>
          this.deps.logger.error({ err, delivery: delivery.id }, 'alert delivery attempt failed'),
        )
        .finally(() => {
          running.delete(attempt);
          this.nudgeWorkers();
        });
      running.add(attempt);
    }
    return claimed.length;
  }

  /**
   * The wait after the `idleRounds`-th empty round in a row: doubling from `pollMs` up to a second, or with change
   * signals up to their safety poll (new work is signalled; `cap` lowers the limit).
   */
  private idleWait(idleRounds: number, cap?: number): number {
    const limit = Math.max(this.pollMs, cap ?? this.deps.signals?.safetyPollMs ?? IDLE_MAX_MS);
    return Math.min(limit, this.pollMs * 2 ** Math.min(idleRounds - 1, 10));
  }

  /**
   * Past a second, an idle worker also wakes for the next retry or lease end (those are not signalled); never more
   * often than once a second (a due delivery may wait behind an earlier one of its target in flight).
   */
  private async workerIdleWait(idleRounds: number): Promise<number> {
    const wait = this.idleWait(idleRounds);
    if (wait <= IDLE_MAX_MS) return wait;
    try {
      const next = await new DeliveriesRepository(this.deps.database).nextDueAt();
      return next === null ? wait : Math.min(wait, Math.max(IDLE_MAX_MS, next - this.deps.clock.now()));
    } catch {
      return IDLE_MAX_MS; // the next round reports the database error
    }
  }
}

export type { AlertEvent };
