import type { AlertEvent, DestinationRecord, EventType, RenderContext } from '../destination.contract.ts';
import { groupMessageFor } from '../destination.group.ts';
import type { GenericWebhookConfig } from './generic_webhook.config.ts';
import { messageFor } from '../destination.message.ts';

/** The exact body that will be signed and sent, plus the event name for `X-Service-Event`. */
export interface GenericWebhookRequest {
  event: string;
  body: string;
}

const LEGACY_EVENT: Partial<Record<EventType, string>> = { down: 'monitor_down', recovered: 'monitor_recovered' };

export function webhookEventName(type: EventType, format: 'standard' | 'legacy'): string {
  return format === 'legacy' ? (LEGACY_EVENT[type] ?? type) : type;
}

/** DECISIONS §7: standard shape (objects) or legacy (names as strings, monitor_down / monitor_recovered). */
export function webhookPayload(
  event: AlertEvent,
  destination: Omit<DestinationRecord, 'config'>,
): Record<string, unknown> {
  const format = destination.payload_format ?? 'standard';
  const legacy = format === 'legacy';
  const msg = messageFor(event);
  return {
    id: event.id,
    event: webhookEventName(event.type, format),
    product: 'Tocsin',
    timestamp: new Date(event.occurred_at).toISOString(),
    organization: legacy ? event.organization.name : { id: event.organization.id, name: event.organization.name },
    destination: legacy ? destination.name : { id: destination.id, name: destination.name },
    message: `${msg.title}\n${msg.text}`,
    monitor: event.monitor ? { id: event.monitor.id, name: event.monitor.name, target: event.monitor.target } : null,
    incident: event.incident ? { id: event.incident.id, number: event.incident.number, url: event.incident.url } : null,
    data: event.data,
  };
}

export function renderGenericWebhook(
  event: AlertEvent,
  destination: DestinationRecord<GenericWebhookConfig>,
  _d: unknown,
  _ctx: RenderContext,
): GenericWebhookRequest {
  const format = destination.payload_format ?? 'standard';
  return { event: webhookEventName(event.type, format), body: JSON.stringify(webhookPayload(event, destination)) };
}

/** The fields of a standard body that the group's own body carries once (DECISIONS §17 "envelope fields"). */
const ENVELOPE_FIELDS = ['product', 'organization', 'destination'] as const;

/**
 * DECISIONS §17: `{"event": "alert_group", "data": {"events": [...]}}` with the envelope of a standard body (its `id`
 * is the delivery that sends the group, `timestamp` when the first event happened); each event is its standard body
 * without the envelope fields (legacy format: legacy event names).
 */
export function renderGenericWebhookGroup(
  events: readonly AlertEvent[],
  destination: DestinationRecord<GenericWebhookConfig>,
  delivery: { id: string },
  ctx: RenderContext,
): GenericWebhookRequest {
  const format = destination.payload_format ?? 'standard';
  const legacy = format === 'legacy';
  const group = groupMessageFor(events, ctx.publicUrl);
  const first = group.lines[0]!.event;
  const body = {
    id: delivery.id,
    event: 'alert_group',
    product: 'Tocsin',
    timestamp: new Date(first.occurred_at).toISOString(),
    organization: legacy ? first.organization.name : { id: first.organization.id, name: first.organization.name },
    destination: legacy ? destination.name : { id: destination.id, name: destination.name },
    message: `${group.title}\n${group.text}`,
    monitor: null,
    incident: null,
    data: {
      events: group.lines.map((l) => {
        const full: Record<string, unknown> = webhookPayload(l.event, destination);
        for (const f of ENVELOPE_FIELDS) delete full[f];
        return full;
      }),
    },
  };
  return { event: 'alert_group', body: JSON.stringify(body) };
}
