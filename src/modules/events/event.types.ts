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
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** What a destination receives when nothing else is chosen. */
export const DEFAULT_DESTINATION_EVENTS: EventType[] = ['down', 'recovered'];

export interface DomainEvent {
  /** Position in the outbox; consumers read in this order. */
  seq: number;
  id: string;
  organizationId: string;
  type: EventType;
  monitorId: string | null;
  incidentId: string | null;
  occurredAt: number;
  /** Event-specific facts: cause, since, days_to_expiry, destination_ids of a scheduled report, … */
  payload: Record<string, unknown>;
}

export type NewDomainEvent = Omit<DomainEvent, 'seq' | 'id'> & { id?: string };
