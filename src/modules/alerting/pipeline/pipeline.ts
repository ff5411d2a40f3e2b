import { hostname } from 'node:os';
import type { Clock } from '../../../platform/clock.ts';
import type { Database } from '../../../platform/db/index.ts';
import { newId, randomToken } from '../../../platform/ids.ts';
import type { Logger } from '../../../platform/logger.ts';
import type { DomainEvent, EventsService } from '../../events/index.ts';
import type { Monitor, MonitorsService } from '../../monitors/index.ts';
import type { OrgsService } from '../../orgs/index.ts';
import type {
  AlertEvent,
  DestinationProvider,
  DestinationType,
  EventType,
  ProviderContext,
} from '../destinations/index.ts';
import { AlertLinksRepository } from '../alert-links.repository.ts';
import { DeliveriesRepository } from '../deliveries.repository.ts';
import { DestinationsRepository } from '../destinations.repository.ts';
import type { DestinationSecrets } from '../destination.secrets.ts';
import { targetKeyOf, type DeliveryRecord } from '../alerting.types.ts';
import type { HostResolver } from '../network.guard.ts';
import { guardStage, renderStage, resolveStage, runStages, sendStage, type AttemptStage } from './attempt.stages.ts';
import { classifyAttempt } from './classify.stage.ts';
import { matchTargets } from './match.stage.ts';
import { recordAttempt } from './record.stage.ts';
import { toAlertEvent } from './snapshot.stage.ts';
import { Wake } from './wake.ts';

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
  /** Deliveries claimed and sent concurrently per round. */
  batchSize?: number;
  /** Outbox events fanned out per round. */
  fanOutBatch?: number;
  /** Idle poll interval of both loops (ms); a nudge wakes them sooner. */
  pollMs?: number;
  /** How long a hole in the outbox sequence (a writer not yet committed) is waited for before it is skipped (ms). */
  gapWaitMs?: number;
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
export class AlertPipeline {
  private readonly deps: AlertPipelineDeps;
  private readonly owner: string;
  private readonly random: () => number;
  private readonly leaseMs: number;
  private readonly batchSize: number;
  private readonly fanOutBatch: number;
  private readonly pollMs: number;
  private readonly gapWaitMs: number;
  private readonly gapsSeenAt = new Map<number, number>();
  private readonly stages: readonly AttemptStage[];
  readonly dispatcherWake = new Wake();
  readonly workerWake = new Wake();

  constructor(deps: AlertPipelineDeps) {
    this.deps = deps;
    this.owner = `${hostname()}:${process.pid}:${randomToken(6)}`;
    this.random = deps.random ?? Math.random;
    this.leaseMs = deps.leaseMs ?? 60_000;
    this.batchSize = deps.batchSize ?? 100;
    this.fanOutBatch = deps.fanOutBatch ?? 200;
    this.pollMs = deps.pollMs ?? 100;
    this.gapWaitMs = deps.gapWaitMs ?? 10_000;
    this.stages = [resolveStage(deps), renderStage(deps), guardStage(deps), sendStage(deps)];
  }

  get idlePollMs(): number {
    return this.pollMs;
  }

  /** An event was written in this process: fan it out now rather than at the next poll. */
  nudge(): void {
    this.dispatcherWake.nudge();
  }

  // ───────────────────────────── fan-out ─────────────────────────────

  /** One round of the dispatcher; returns how many outbox events it consumed. */
  async fanOutOnce(): Promise<number> {
    const { events, database, clock } = this.deps;
    const position = await events.consumerPosition(CONSUMER);
    const batch = this.contiguous(position, await events.readAfter(position, this.fanOutBatch));
    if (batch.length === 0) return 0;
    const now = clock.now();
    const deliveries: DeliveryRecord[] = [];
    const orgCache = new Map<string, Promise<OrgFacts | null>>();
    const monitors = new Map(
      (
        await this.deps.monitors.findManyAnywhere([
          ...new Set(batch.flatMap((e) => (e.monitorId ? [e.monitorId] : []))),
        ])
      ).map((m) => [m.id, m]),
    );
    const links = await this.linksOf(batch);
    for (const event of batch) {
      let facts = orgCache.get(event.organizationId);
      if (!facts) orgCache.set(event.organizationId, (facts = this.orgFacts(event.organizationId)));
      const org = await facts;
      if (!org) continue;
      const monitor = event.monitorId ? (monitors.get(event.monitorId) ?? null) : null;
      deliveries.push(...this.fanOut(event, org, monitor, links.get(event.monitorId ?? '') ?? [], now));
    }
    const last = batch[batch.length - 1]!.seq;
    const committed = await database.transaction(async (tx) => {
      const repo = new DeliveriesRepository(tx);
      // Another process may have consumed these events since we read the position: then do nothing.
      if ((await repo.lockConsumerPosition(CONSUMER, now)) !== position) return false;
      await repo.insertMany(deliveries, now);
      await repo.setConsumerPosition(CONSUMER, last, now);
      return true;
    });
    if (!committed) return 0;
    if (deliveries.length > 0) this.workerWake.nudge();
    return batch.length;
  }

  /** The destinations linked to each monitor the batch is about (link rows, read per organization). */
  private async linksOf(batch: readonly DomainEvent[]): Promise<Map<string, string[]>> {
    const monitorIdsByOrg = new Map<string, string[]>();
    for (const e of batch)
      if (e.monitorId)
        monitorIdsByOrg.set(e.organizationId, [...(monitorIdsByOrg.get(e.organizationId) ?? []), e.monitorId]);
    const repo = new AlertLinksRepository(this.deps.database);
    const out = new Map<string, string[]>();
    for (const [organizationId, monitorIds] of monitorIdsByOrg)
      for (const [monitorId, ids] of await repo.destinationIdsOf(organizationId, monitorIds)) out.set(monitorId, ids);
    return out;
  }

  /** snapshot → match → deliveries, for one event (pure apart from ids). */
  private fanOut(
    event: DomainEvent,
    org: OrgFacts,
    monitor: Monitor | null,
    linkedDestinationIds: readonly string[],
    now: number,
  ): DeliveryRecord[] {
    const type = event.type as EventType;
    const targets = matchTargets({
      event: { type, monitorId: event.monitorId, payload: event.payload },
      monitorDestinationIds: linkedDestinationIds,
      destinations: org.destinations,
      orgEmail: { enabled: org.emailAlertsEnabled, verifiedMembers: org.verifiedMembers },
    });
    if (targets.length === 0) return [];
    const snapshot = toAlertEvent({
      event: {
        id: event.id,
        type,
        occurredAt: event.occurredAt,
        monitorId: event.monitorId,
        incidentId: event.incidentId,
        payload: event.payload,
      },
      organization: { id: org.id, name: org.name },
      monitor: monitor ? { id: monitor.id, name: monitor.name, target: monitor.target, type: monitor.type } : null,
      publicUrl: this.deps.publicUrl,
    });
    return targets.map((target) => ({
      id: newId('dlv', now),
      organizationId: event.organizationId,
      target,
      targetKey: targetKeyOf(target),
      eventId: event.id,
      eventSeq: event.seq,
      eventType: type,
      monitorId: event.monitorId,
      event: snapshot,
      status: 'pending',
      attempts: 0,
      nextAttemptAt: now,
      leaseOwner: null,
      leaseUntil: null,
      lastError: null,
      providerReference: null,
      createdAt: now,
      deliveredAt: null,
    }));
  }

  private async orgFacts(organizationId: string): Promise<OrgFacts | null> {
    const org = await this.deps.orgs.findOrganization(organizationId);
    if (!org) return null;
    const destinations = await new DestinationsRepository(this.deps.database).listByOrganization(organizationId);
    const members = org.emailAlertsEnabled ? await this.deps.orgs.listMembers(organizationId) : [];
    return {
      id: org.id,
      name: org.name,
      emailAlertsEnabled: org.emailAlertsEnabled,
      destinations: destinations.map((d) => ({ id: d.id, events: d.events })),
      verifiedMembers: members
        .filter((m) => m.user.emailVerifiedAt !== null)
        .map((m) => ({ userId: m.user.id, email: m.user.email })),
    };
  }

  /**
   * The events that directly follow `position` without a hole. On PostgreSQL a sequence value is taken before its
   * transaction commits, so a hole may be a writer still in flight: wait for it (up to gapWaitMs, after which it is
   * taken to be a rolled-back transaction and skipped).
   */
  private contiguous(position: number, batch: DomainEvent[]): DomainEvent[] {
    const now = this.deps.clock.now();
    const out: DomainEvent[] = [];
    let expected = position + 1;
    for (const e of batch) {
      if (e.seq !== expected) {
        const seen = this.gapsSeenAt.get(expected);
        if (seen === undefined) this.gapsSeenAt.set(expected, now);
        if (seen === undefined || now - seen < this.gapWaitMs) break;
        this.deps.logger.warn({ from: expected, to: e.seq - 1 }, 'alerting: skipping a hole in the outbox sequence');
      }
      this.gapsSeenAt.delete(expected);
      out.push(e);
      expected = e.seq + 1;
    }
    return out;
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
    const result = await runStages(this.stages, { delivery });
    const verdict = classifyAttempt(result, delivery.attempts, clock.now(), this.random);
    const kept = await recordAttempt(database, this.owner, delivery, result, verdict);
    const log = {
      delivery: delivery.id,
      target: delivery.targetKey,
      event: delivery.eventType,
      attempt: delivery.attempts,
      outcome: result.outcome,
    };
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

  /** Background role bodies: loop until `stopped()`; errors are logged and the loop goes on after a pause. */
  async dispatchLoop(stopped: () => boolean): Promise<void> {
    while (!stopped()) {
      let n = 0;
      try {
        n = await this.fanOutOnce();
      } catch (err) {
        this.deps.logger.error({ err }, 'alert dispatcher round failed');
      }
      if (n === 0 && !stopped()) await this.dispatcherWake.sleep(this.pollMs);
    }
  }

  async workLoop(stopped: () => boolean): Promise<void> {
    while (!stopped()) {
      let n = 0;
      try {
        n = await this.workOnce();
      } catch (err) {
        this.deps.logger.error({ err }, 'alert worker round failed');
      }
      if (n === 0 && !stopped()) await this.workerWake.sleep(this.pollMs);
    }
  }
}

interface OrgFacts {
  id: string;
  name: string;
  emailAlertsEnabled: boolean;
  destinations: Array<{ id: string; events: readonly string[] }>;
  verifiedMembers: Array<{ userId: string; email: string }>;
}

export type { AlertEvent };
