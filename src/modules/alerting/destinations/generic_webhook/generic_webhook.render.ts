import type { AlertEvent, DestinationRecord, EventType, RenderContext } from '../destination.contract.ts';
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
