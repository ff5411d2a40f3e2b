import type { AlertEvent, DestinationRecord, RenderContext } from '../destination.contract.ts';
import type { OncallPager2Config } from './oncall_pager2.config.ts';
import { correlationKey, pagerAction, type PagerAction } from '../destination.correlation.ts';
import { linkFor, messageFor, rfc3339, truncate, type Severity } from '../destination.message.ts';

export interface OpsgenieCreateBody {
  message: string;
  alias: string;
  description: string;
  priority: 'P1' | 'P2' | 'P3' | 'P4' | 'P5';
  source: 'Tocsin';
  entity?: string;
  tags: string[];
  details: Record<string, string>;
}

/**
 * trigger → `POST /v2/alerts`; acknowledge / resolve → `POST /v2/alerts/{alias}/{acknowledge|close}?identifierType=alias`.
 * The API key (`GenieKey`) is added at send time.
 */
export type OpsgenieRequest =
  | { action: 'trigger'; alias: string; body: OpsgenieCreateBody }
  | { action: Exclude<PagerAction, 'trigger'>; alias: string; body: { source: 'Tocsin'; note: string } };

const PRIORITY: Record<Severity, OpsgenieCreateBody['priority']> = {
  critical: 'P1',
  warning: 'P3',
  info: 'P5',
  ok: 'P5',
};

export function renderOncallPager2(
  event: AlertEvent,
  destination: DestinationRecord<OncallPager2Config>,
  _d: unknown,
  ctx: RenderContext,
): OpsgenieRequest {
  const alias = truncate(correlationKey(event, destination), 512);
  const action = pagerAction(event);
  const msg = messageFor(event);
  if (action !== 'trigger')
    return { action, alias, body: { source: 'Tocsin', note: truncate(`${msg.title}\n${msg.text}`, 25000) } };
  const details: Record<string, string> = {
    event: event.type,
    organization: event.organization.name,
    link: linkFor(event, ctx.publicUrl),
  };
  if (event.monitor) Object.assign(details, { monitor: event.monitor.name, target: event.monitor.target });
  if (event.cause) details.cause = event.cause;
  if (event.since !== null) details.down_since = rfc3339(event.since);
  if (event.incident) details.incident = `#${event.incident.number} ${event.incident.url}`;
  const body: OpsgenieCreateBody = {
    message: truncate(
      event.cause && (event.type === 'down' || event.type === 'still_down' || event.type === 'degraded')
        ? `${msg.title} – ${event.cause}`
        : msg.title,
      130,
    ),
    alias,
    description: truncate(msg.text, 15000),
    priority: PRIORITY[msg.severity],
    source: 'Tocsin',
    tags: ['tocsin', event.type],
    details,
  };
  if (event.monitor) body.entity = truncate(event.monitor.name, 512);
  return { action, alias, body };
}
