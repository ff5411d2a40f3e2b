/** Every event the system emits (interface-spec "Events" plus DECISIONS §7 additions). */
export const EVENT_TYPES = [
  'down',
  'recovered',
  'cert_expiring',
  'security_grade_downgraded',
  'security_grade_recovered',
  'significant_change',
  'performance_anomaly',
  'performance_recovered',
  'anomaly_alert',
  'anomaly_recovered',
  'anomaly_flapping',
  'incident_opened',
  'scheduled_report',
  'still_down',
  'incident_acknowledged',
  'incident_resolved',
  'maintenance_started',
  'maintenance_ended',
  // DECISIONS §20: a monitor became degraded (slow, or failing in fewer regions than confirm_regions) / is up again.
  'degraded',
  'degraded_recovered',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * Outbox events that are not alerts: no destination can subscribe to them and the alert pipeline passes over them.
 * `monitor_status_changed` (payload `{from, to}`) is every change of a monitor's status, pending → up and pause or
 * resume included, for the live feed (alerts keep coming from `down`/`recovered`, which follow incidents).
 */
export const FEED_EVENT_TYPES = ['monitor_status_changed'] as const;
export type FeedEventType = (typeof FEED_EVENT_TYPES)[number];
export type DomainEventType = EventType | FeedEventType;

/**
 * Feed-only events, which the alert pipeline passes over. Not "outside EVENT_TYPES": the alerting module's own
 * `test` event (a destination's Test button) is outside them and must still be delivered.
 */
export function isFeedEvent(type: string): type is FeedEventType {
  return (FEED_EVENT_TYPES as readonly string[]).includes(type);
}

/** What a destination receives when nothing else is chosen. */
export const DEFAULT_DESTINATION_EVENTS: EventType[] = ['down', 'recovered'];

export interface DomainEvent {
  /** Position in the outbox; consumers read in this order. */
  seq: number;
  id: string;
  organizationId: string;
  type: DomainEventType;
  monitorId: string | null;
  incidentId: string | null;
  occurredAt: number;
  /** Event-specific facts: cause, since, days_to_expiry, destination_ids of a scheduled report, … */
  payload: Record<string, unknown>;
}

export type NewDomainEvent = Omit<DomainEvent, 'seq' | 'id'> & { id?: string };
