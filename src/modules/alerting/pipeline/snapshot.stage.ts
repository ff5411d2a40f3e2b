import type { AlertEvent, EventType } from '../destinations/index.ts';

export interface SnapshotInput {
  event: {
    id: string;
    type: EventType;
    occurredAt: number;
    monitorId: string | null;
    incidentId: string | null;
    payload: Record<string, unknown>;
  };
  organization: { id: string; name: string };
  monitor: { id: string; name: string; target: string; type: string } | null;
  publicUrl: string;
}

const LIFTED = new Set([
  'cause',
  'since',
  'incident_id',
  'incident_number',
  'number',
  'incident',
  'incident_title',
  'title',
  'opened_at',
  'destination_ids',
  'monitor_name',
]);

function time(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string') {
    const t = Date.parse(value);
    return Number.isNaN(t) ? null : t;
  }
  return null;
}

function obj(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * Snapshot (pure): the outbox event plus the organization and monitor as they are now → the provider-neutral
 * AlertEvent every provider renders. Stored with each delivery so every retry renders the same facts.
 * Reads the incident facts the incidents module writes (`cause`, `since`, `incident_number` or `incident.number`,
 * `incident_title`, `opened_at`); everything else in the payload goes to `data`.
 */
export function toAlertEvent(input: SnapshotInput): AlertEvent {
  const { event, publicUrl } = input;
  const p = event.payload;
  const nested = obj(p.incident);
  const since = time(p.since);
  const incidentId =
    event.incidentId ??
    (typeof p.incident_id === 'string' ? p.incident_id : null) ??
    (typeof nested.id === 'string' ? nested.id : null);
  const numberRaw = p.incident_number ?? p.number ?? nested.number;
  const monitorName = input.monitor?.name ?? (typeof p.monitor_name === 'string' ? p.monitor_name : null);
  const data: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(p)) if (!LIFTED.has(k)) data[k] = v;
  return {
    id: event.id,
    type: event.type,
    occurred_at: event.occurredAt,
    organization: input.organization,
    monitor: input.monitor,
    incident: incidentId
      ? {
          id: incidentId,
          number: typeof numberRaw === 'number' ? numberRaw : Number(numberRaw) || 0,
          url: `${publicUrl.replace(/\/+$/, '')}/incidents/${incidentId}`,
          title:
            [p.incident_title, nested.title, p.title].find((v): v is string => typeof v === 'string') ??
            (monitorName ? `${monitorName} is down` : 'Incident'),
          opened_at: time(p.opened_at ?? nested.opened_at) ?? since ?? event.occurredAt,
        }
      : null,
    cause: typeof p.cause === 'string' ? p.cause : null,
    since,
    data,
  };
}
