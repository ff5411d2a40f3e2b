import type { Database } from '../../platform/db/index.ts';
import type { ServiceContext } from '../auth/index.ts';
import type { DestinationViews } from './destination.view.ts';
import type { EventsService } from '../events/index.ts';
import type { DeliveryStatus } from './alerting.types.ts';
import { DeliveriesRepository } from './deliveries.repository.ts';
import type { DestinationType } from './destinations/index.ts';
import { DestinationsRepository } from './destinations.repository.ts';
import { CONSUMER } from './pipeline/pipeline.ts';

/** What the scheduled reports need to know from alerting: destinations' types, and how an event's deliveries went. */
export class ReportDeliveryFacts {
  private readonly events: EventsService;
  private readonly views: DestinationViews;
  constructor(deps: { events: EventsService; views: DestinationViews }) {
    this.events = deps.events;
    this.views = deps.views;
  }

  /**
   * The types of those of `ids` that are destinations of the organization the actor may see (others are absent from
   * the map): a key cannot send reports to a destination that serves another environment, as it cannot read it.
   */
  async destinationTypes(ctx: ServiceContext, ids: readonly string[]): Promise<Map<string, DestinationType>> {
    const repo = new DestinationsRepository(ctx.db);
    const hidden = await this.views.hiddenFrom(ctx.db, ctx.actor, [...new Set(ids)]);
    const out = new Map<string, DestinationType>();
    for (const id of new Set(ids)) {
      const d = hidden.has(id) ? null : await repo.find(ctx.actor.organizationId, id);
      if (d) out.set(id, d.type);
    }
    return out;
  }

  /**
   * Whether the pipeline has fanned the event out yet, and the status of each delivery it made (one per destination
   * that still existed then).
   */
  async outcome(db: Database, eventId: string): Promise<{ fannedOut: boolean; statuses: DeliveryStatus[] }> {
    const fannedOut = await this.events.consumedBy(CONSUMER, eventId, db);
    const deliveries = await new DeliveriesRepository(db).listByEvent(eventId);
    return { fannedOut, statuses: deliveries.map((d) => d.status) };
  }

  /**
   * Each delivery of the event with its destination (name and type while it still exists) and how it went, for the
   * runs a schedule shows; a delivery to a member's email (not made for reports) is left out.
   */
  async deliveries(db: Database, organizationId: string, eventId: string): Promise<ReportDelivery[]> {
    const destinations = new DestinationsRepository(db);
    const out: ReportDelivery[] = [];
    for (const d of await new DeliveriesRepository(db).listByEvent(eventId)) {
      if (d.target.kind !== 'destination') continue;
      const destination = await destinations.find(organizationId, d.target.destinationId);
      out.push({
        destinationId: d.target.destinationId,
        destinationName: destination?.name ?? null,
        destinationType: destination?.type ?? null,
        status: d.status,
        attempts: d.attempts,
        lastError: d.lastError,
        deliveredAt: d.deliveredAt,
      });
    }
    return out;
  }
}

/** One delivery of a scheduled report's run. */
export interface ReportDelivery {
  destinationId: string;
  /** Null once the destination has been deleted. */
  destinationName: string | null;
  destinationType: DestinationType | null;
  status: DeliveryStatus;
  attempts: number;
  /** Why the last attempt failed (a retry still pending keeps it; a later success clears it). */
  lastError: string | null;
  deliveredAt: number | null;
}
