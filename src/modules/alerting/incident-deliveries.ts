import type { ServiceContext } from '../auth/index.ts';
import { decodeCursor, pageOf } from '../../platform/cursor.ts';
import type { DeliveryStatus } from './alerting.types.ts';
import type { DestinationType, EventType } from './destinations/index.ts';
import { IncidentDeliveriesRepository, type IncidentDeliveryKey } from './incident-deliveries.repository.ts';
import type { DestinationViews } from './destination.view.ts';

/**
 * How one delivery stands: `queued` (not tried yet), `sending` (an attempt in flight), `retrying` (an attempt failed,
 * another is due at `nextAttemptAt`), `delivered`, `logged` (not sent: email without an SMTP server, written to the
 * server log; `note` says so), `failed` (given up: refused for good, or the retries ran out), `silenced` (held back
 * by the silence `silenceId`, never sent) or `grouped` (waiting to go out in one message with its group, sent as the
 * delivery `groupId`; it then takes that delivery's outcome).
 */
export type DeliveryOutcome =
  'queued' | 'sending' | 'retrying' | 'delivered' | 'logged' | 'failed' | 'silenced' | 'grouped';

export interface IncidentDelivery {
  id: string;
  /**
   * The destination; name and type are null once it was deleted, the name also for a key without
   * `destinations:read`. Null for the organization email to a member.
   */
  destination: { id: string; name: string | null; type: DestinationType | null } | null;
  /** The member the organization email went to; the address only for an actor with `destinations:read`. */
  member: { userId: string; email: string | null } | null;
  eventId: string;
  eventType: EventType;
  eventOccurredAt: number;
  status: DeliveryStatus;
  outcome: DeliveryOutcome;
  attempts: number;
  /** When the next attempt is due; null unless it is still to be tried. */
  nextAttemptAt: number | null;
  lastError: string | null;
  /** What happened instead of a delivery (`logged`); null otherwise. */
  note: string | null;
  createdAt: number;
  updatedAt: number;
  deliveredAt: number | null;
  /** The silence that held it back (outcome `silenced`); null otherwise. */
  silenceId: string | null;
  /** The delivery that sends (or sent) its group's one message; null when it was not grouped. */
  groupDeliveryId: string | null;
}

function outcomeOf(status: DeliveryStatus, attempts: number): DeliveryOutcome {
  if (status === 'pending') return attempts > 0 ? 'retrying' : 'queued';
  if (status === 'in_flight') return 'sending';
  return status;
}

const isKey = (v: unknown): v is IncidentDeliveryKey =>
  typeof v === 'object' &&
  v !== null &&
  Number.isSafeInteger((v as IncidentDeliveryKey).seq) &&
  typeof (v as IncidentDeliveryKey).id === 'string' &&
  (v as IncidentDeliveryKey).id.length < 100;

/** The deliveries an incident's events made, per destination and event with their outcome (GET …/deliveries). */
export class IncidentDeliveries {
  private readonly views: DestinationViews;
  constructor(deps: { views: DestinationViews }) {
    this.views = deps.views;
  }

  /** The caller has checked that the incident exists and is visible to the actor. */
  async list(
    ctx: ServiceContext,
    incidentId: string,
    page: { limit: number; cursor?: string },
  ): Promise<{ data: IncidentDelivery[]; next_cursor: string | null }> {
    const after = decodeCursor(page.cursor, isKey);
    // Destination names and member addresses are what GET /webhooks and /members show: a key needs their scope.
    const reveal = ctx.actor.scopes.has('destinations:read');
    const rows = await new IncidentDeliveriesRepository(ctx.db).list(
      ctx.actor.organizationId,
      incidentId,
      page.limit + 1,
      after,
    );
    // A destination that also serves another environment is not the caller's to know by name (GET /webhooks is 404).
    const hidden = reveal
      ? await this.views.hiddenFrom(
          ctx.db,
          ctx.actor,
          rows.flatMap((r) => (r.destination_id ? [r.destination_id] : [])),
        )
      : new Set<string>();
    const deliveries = rows.map((r): IncidentDelivery & { seq: number } => {
      const status = r.status as DeliveryStatus;
      return {
        seq: r.event_seq,
        id: r.id,
        destination: r.destination_id
          ? {
              id: r.destination_id,
              name: reveal && !hidden.has(r.destination_id) ? r.destination_name : null,
              type: r.destination_type as DestinationType | null,
            }
          : null,
        member: r.member_user_id ? { userId: r.member_user_id, email: reveal ? r.member_email : null } : null,
        eventId: r.event_id,
        eventType: r.event_type as EventType,
        eventOccurredAt: r.event_occurred_at,
        status,
        outcome: outcomeOf(status, r.attempts),
        attempts: r.attempts,
        nextAttemptAt: status === 'pending' ? r.next_attempt_at : null,
        lastError: status === 'logged' ? null : r.last_error,
        note: status === 'logged' ? r.last_error : null,
        createdAt: r.created_at,
        updatedAt: r.updated_at,
        deliveredAt: r.delivered_at,
        silenceId: r.silence_id,
        groupDeliveryId: r.group_id,
      };
    });
    const { data, next_cursor } = pageOf(deliveries, page.limit, (d) => ({ seq: d.seq, id: d.id }));
    return { data: data.map(({ seq: _seq, ...d }) => d), next_cursor };
  }
}
