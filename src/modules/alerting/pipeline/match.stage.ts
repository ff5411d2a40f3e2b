import type { EventType } from '../destinations/index.ts';
import type { DeliveryTarget } from '../alerting.types.ts';

/** Events that go to the organization-wide email channel (every verified member), when it is on. */
export const ORG_EMAIL_EVENTS: readonly EventType[] = ['down', 'recovered', 'cert_expiring'];

/** Events addressed to an explicit list of destinations (`payload.destination_ids`), whatever their `events` say. */
export const ADDRESSED_EVENTS: readonly EventType[] = ['scheduled_report', 'test'];

export interface MatchInput {
  event: { type: EventType; monitorId: string | null; payload: Record<string, unknown> };
  /** The monitor's `config.alert_destination_ids` (empty when the monitor is gone or has none). */
  monitorDestinationIds: readonly string[];
  /** The organization's destinations. */
  destinations: ReadonlyArray<{ id: string; events: readonly string[] }>;
  orgEmail: { enabled: boolean; verifiedMembers: ReadonlyArray<{ userId: string; email: string }> };
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/**
 * Match (pure): which targets hear about this event.
 * - `scheduled_report` / `test`: the destinations named in `payload.destination_ids`, regardless of their events list;
 * - an event about a monitor: the monitor's alert_destination_ids whose `events` include the event type;
 * - an event without a monitor (e.g. an incident opened by hand): every destination whose `events` include it;
 * - plus, for ORG_EMAIL_EVENTS, one email per verified member when the organization's email channel is on.
 * Each target appears once, destinations in the order the organization lists them.
 */
export function matchTargets(input: MatchInput): DeliveryTarget[] {
  const { event } = input;
  let chosen: Array<{ id: string }>;
  if (ADDRESSED_EVENTS.includes(event.type)) {
    const wanted = new Set(stringList(event.payload.destination_ids));
    chosen = input.destinations.filter((d) => wanted.has(d.id));
  } else if (event.monitorId !== null) {
    const attached = new Set(input.monitorDestinationIds);
    chosen = input.destinations.filter((d) => attached.has(d.id) && d.events.includes(event.type));
  } else {
    chosen = input.destinations.filter((d) => d.events.includes(event.type));
  }
  const targets: DeliveryTarget[] = chosen.map((d) => ({ kind: 'destination', destinationId: d.id }));
  if (input.orgEmail.enabled && ORG_EMAIL_EVENTS.includes(event.type)) {
    const seen = new Set<string>();
    for (const m of input.orgEmail.verifiedMembers) {
      if (seen.has(m.userId)) continue;
      seen.add(m.userId);
      targets.push({ kind: 'member_email', userId: m.userId, email: m.email });
    }
  }
  return targets;
}
