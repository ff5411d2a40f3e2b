import type { AlertEvent, DestinationRecord, RenderContext } from '../destination.contract.ts';
import type { IncidentTool2Config } from './incident_tool2.config.ts';
import { linkFor, messageFor, rfc3339, truncate } from '../destination.message.ts';
import { opensIncident } from '../destination.skip.ts';

/** Rootly `POST /v1/incidents` JSON:API body; null = nothing to send for this event. */
export interface RootlyCreate {
  data: {
    type: 'incidents';
    attributes: {
      title: string;
      summary: string;
      kind: 'normal' | 'test';
      started_at: string;
      url: string;
      labels: Record<string, string>;
    };
  };
}

export function renderIncidentTool2(
  event: AlertEvent,
  _destination: DestinationRecord<IncidentTool2Config>,
  delivery: { id: string },
  ctx: RenderContext,
): RootlyCreate | null {
  if (!opensIncident(event)) return null;
  const msg = messageFor(event);
  const labels: Record<string, string> = { source: 'tocsin', tocsin_delivery: delivery.id };
  if (event.monitor) labels.tocsin_monitor = event.monitor.id;
  if (event.type === 'incident_opened' && typeof event.data.source === 'string')
    labels.tocsin_incident_source = event.data.source;
  return {
    data: {
      type: 'incidents',
      attributes: {
        title: truncate(event.type === 'down' && event.monitor ? `${event.monitor.name} is down` : msg.title, 250),
        summary: truncate(msg.text, 10000),
        kind: event.type === 'test' ? 'test' : 'normal',
        started_at: rfc3339(event.since ?? event.occurred_at),
        url: linkFor(event, ctx.publicUrl),
        labels,
      },
    },
  };
}
