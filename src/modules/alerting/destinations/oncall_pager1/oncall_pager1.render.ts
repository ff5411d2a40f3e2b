import type { AlertEvent, DestinationRecord, RenderContext } from '../destination.contract.ts';
import type { OncallPager1Config } from './oncall_pager1.config.ts';
import { correlationKey, pagerAction, type PagerAction } from '../destination.correlation.ts';
import { linkFor, messageFor, rfc3339, truncate, type Severity } from '../destination.message.ts';

/** PagerDuty Events API v2 event without `routing_key` (added at send time: it is the secret). */
export interface PagerDutyEvent {
  event_action: PagerAction;
  dedup_key: string;
  client: 'Tocsin';
  client_url: string;
  payload?: {
    summary: string;
    source: string;
    severity: 'critical' | 'error' | 'warning' | 'info';
    timestamp: string;
    component?: string;
    class: string;
    group?: string;
    custom_details: Record<string, unknown>;
  };
  links?: Array<{ href: string; text: string }>;
}

const PD_SEVERITY: Record<Severity, 'critical' | 'warning' | 'info'> = {
  critical: 'critical',
  warning: 'warning',
  info: 'info',
  ok: 'info',
};

function sourceOf(event: AlertEvent): string {
  if (!event.monitor) return 'tocsin';
  try {
    return new URL(event.monitor.target).host || event.monitor.target;
  } catch {
    return event.monitor.target;
  }
}

export function renderOncallPager1(
  event: AlertEvent,
  destination: DestinationRecord<OncallPager1Config>,
  _d: unknown,
  ctx: RenderContext,
): PagerDutyEvent {
  const action = pagerAction(event);
  const base: PagerDutyEvent = {
    event_action: action,
    dedup_key: correlationKey(event, destination),
    client: 'Tocsin',
    client_url: linkFor(event, ctx.publicUrl),
  };
  if (action !== 'trigger') return base;
  const msg = messageFor(event);
  const details: Record<string, unknown> = {
    event: event.type,
    organization: event.organization.name,
    message: msg.text,
  };
  if (event.monitor)
    Object.assign(details, {
      monitor: event.monitor.name,
      target: event.monitor.target,
      monitor_type: event.monitor.type,
    });
  if (event.cause) details.cause = event.cause;
  if (event.since !== null) details.down_since = rfc3339(event.since);
  if (event.incident)
    Object.assign(details, { incident_number: event.incident.number, incident_url: event.incident.url });
  const summary =
    event.cause && (event.type === 'down' || event.type === 'still_down' || event.type === 'degraded')
      ? `${msg.title} – ${event.cause}`
      : msg.title;
  const payload: NonNullable<PagerDutyEvent['payload']> = {
    summary: truncate(summary, 1024),
    source: truncate(sourceOf(event), 255),
    severity: PD_SEVERITY[msg.severity],
    timestamp: rfc3339(event.occurred_at),
    class: event.type,
    group: event.organization.name,
    custom_details: details,
  };
  if (event.monitor) payload.component = event.monitor.type;
  return {
    ...base,
    payload,
    links: [
      { href: linkFor(event, ctx.publicUrl), text: event.incident ? `Incident #${event.incident.number}` : 'Tocsin' },
    ],
  };
}
