import { newId } from '../../platform/ids.ts';
import type { ServiceContext } from '../auth/index.ts';
import type { EventsService, EventType as OutboxEventType } from '../events/index.ts';
import { DeliveriesRepository } from './deliveries.repository.ts';
import { requireAdmin, type DestinationsService } from './destination.service.ts';
import type { TestResult } from './destination.inputs.ts';
import type { DestinationViews } from './destination.view.ts';
import type { DeliveryRecord } from './alerting.types.ts';
import type { AlertPipeline } from './pipeline/pipeline.ts';

export interface DestinationTestSendDeps {
  destinations: DestinationsService;
  views: DestinationViews;
  events: EventsService;
  pipeline: AlertPipeline;
  /** How long POST /{id}/test waits for the outcome (ms). */
  waitMs?: number;
  /** Pause between looks while another process finishes the delivery (tests pass a fake). */
  sleep?: (ms: number) => Promise<void>;
}

const POLL_MS = 50;

/**
 * POST /webhooks/{id}/test: a synthetic `test` event goes through the same pipeline as real alerts (outbox → match →
 * delivery → render → send → record); the answer waits up to `waitMs` for the first attempt's outcome.
 */
export class DestinationTestSend {
  private readonly deps: DestinationTestSendDeps;
  constructor(deps: DestinationTestSendDeps) {
    this.deps = deps;
  }

  async send(ctx: ServiceContext, id: string): Promise<TestResult> {
    requireAdmin(ctx.actor);
    const destination = await this.deps.destinations.find(ctx, id);
    const now = ctx.clock.now();
    const eventId = newId('evt', now);
    await ctx.db.transaction(async (tx) => {
      await this.deps.events.record(tx, {
        id: eventId,
        organizationId: ctx.actor.organizationId,
        // `test` is an alerting-only event (never in a destination's events list): it is addressed by id.
        type: 'test' as OutboxEventType,
        monitorId: null,
        incidentId: null,
        occurredAt: now,
        payload: {
          destination_ids: [destination.id],
          summary: `Test notification from Tocsin for "${destination.name}".`,
        },
      });
      const target = { type: 'destination', id: destination.id };
      await ctx.audit?.record(tx, {
        organizationId: destination.organizationId,
        action: 'destination.test',
        target,
        changes: {},
      });
    });
    const delivery = await this.firstAttempt(ctx, eventId, destination.id);
    const current = await this.deps.destinations.find(ctx, id);
    return {
      deliveryId: delivery?.id ?? null,
      status: delivery?.status ?? 'queued',
      attempts: delivery?.attempts ?? 0,
      error: delivery?.status === 'logged' ? null : (delivery?.lastError ?? null),
      note: delivery?.status === 'logged' ? delivery.lastError : null,
      destination: await this.deps.views.one(ctx.db, ctx.actor, current),
    };
  }

  /**
   * Fans the event out and attempts its delivery here; another process's dispatcher or worker may take it first, so
   * look again every POLL_MS until an attempt has ended or the wait is over (counted in rounds: no wall clock).
   */
  private async firstAttempt(ctx: ServiceContext, eventId: string, destinationId: string) {
    const { pipeline } = this.deps;
    const sleep = this.deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
    const rounds = Math.max(1, Math.ceil((this.deps.waitMs ?? 5000) / POLL_MS));
    const deliveries = new DeliveriesRepository(ctx.db);
    let delivery: DeliveryRecord | null = null;
    for (let round = 0; round < rounds; round++) {
      await pipeline.fanOutOnce();
      delivery = await deliveries.findByEventAndTarget(eventId, destinationId);
      if (delivery) {
        if (delivery.status === 'pending' && delivery.attempts === 0) await pipeline.attemptNow(delivery.id);
        delivery = await deliveries.find(delivery.id);
        if (delivery && delivery.status !== 'in_flight' && delivery.attempts > 0) break;
      }
      await sleep(POLL_MS);
    }
    return delivery;
  }
}
