import type { AlertEvent, Delivery, DestinationRecord, RenderContext } from '../destination.contract.ts';
import type { IncidentTool1Config } from './incident_tool1.config.ts';
import { linkFor, messageFor, truncate } from '../destination.message.ts';
import { opensIncident } from '../destination.skip.ts';

/** incident.io `POST /v2/incidents` body (IncidentsCreatePayloadV2); null = nothing to send for this event. */
export interface IncidentIoCreate {
  idempotency_key: string;
  visibility: 'public';
  severity_id: string;
  name: string;
  summary: string;
  mode: 'standard' | 'test';
}

export function renderIncidentTool1(
  event: AlertEvent,
  destination: DestinationRecord<IncidentTool1Config>,
  delivery: Delivery,
  ctx: RenderContext,
): IncidentIoCreate | null {
  if (!opensIncident(event)) return null;
  const msg = messageFor(event);
  const name = event.type === 'down' && event.monitor ? `${event.monitor.name} is down` : msg.title;
  return {
    idempotency_key: delivery.id,
    visibility: 'public',
    severity_id: destination.config.severity_id,
    name: truncate(name, 250),
    summary: truncate(`${msg.text}\n\nOpened by Tocsin: ${linkFor(event, ctx.publicUrl)}`, 10000),
    mode: event.type === 'test' ? 'test' : 'standard',
  };
}
