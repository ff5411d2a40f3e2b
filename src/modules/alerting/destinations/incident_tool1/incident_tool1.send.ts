import type { DestinationRecord, ProviderContext, SendResult } from '../destination.contract.ts';
import type { IncidentTool1Config } from './incident_tool1.config.ts';
import { classifyHttpStatus, httpAttempt, objectOrEmpty, parseRetryAfter, retry } from '../destination.http.ts';
import { skippedResult } from '../destination.skip.ts';
import type { IncidentIoCreate } from './incident_tool1.render.ts';

/** incident.io error envelope `{type, status, errors:[{code, message, source:{field}}]}` (destinations.md §8). */
export function classifyIncidentIo(status: number, json: unknown, headers: Headers, now: number): SendResult {
  const body = objectOrEmpty(json);
  const type = typeof body.type === 'string' ? body.type : '';
  const first = objectOrEmpty(Array.isArray(body.errors) ? body.errors[0] : undefined);
  const message = typeof first.message === 'string' ? first.message : '';
  const field = typeof objectOrEmpty(first.source).field === 'string' ? String(objectOrEmpty(first.source).field) : '';
  const detail =
    `HTTP ${status}${type ? ` ${type}` : ''}${message ? `: ${message}` : ''}${field ? ` (${field})` : ''}`.slice(
      0,
      240,
    );
  if (status === 429 || status >= 500)
    return retry(`incident.io ${detail}`, parseRetryAfter(headers.get('retry-after'), now));
  if (status === 401 || status === 403)
    return { outcome: 'reauthorize', reason: `incident.io API key rejected (${detail})` };
  if (status === 404) return { outcome: 'destination_broken', reason: `incident.io ${detail}` };
  if (status === 400 || status === 422)
    return { outcome: 'payload_rejected', reason: `incident.io rejected the incident (${detail})` };
  return classifyHttpStatus(status, headers, now, `incident.io ${detail}`);
}

export async function sendIncidentTool1(
  request: IncidentIoCreate | null,
  destination: DestinationRecord<IncidentTool1Config>,
  _delivery: unknown,
  ctx: ProviderContext,
): Promise<SendResult> {
  if (request === null) return skippedResult;
  const res = await httpAttempt(ctx, {
    method: 'POST',
    url: `${ctx.baseUrl('incident_tool1')}/v2/incidents`,
    headers: { Authorization: `Bearer ${destination.config.api_key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(request),
  });
  if (res.kind === 'failed') return retry(res.reason);
  if (res.status >= 200 && res.status < 300) {
    const id = objectOrEmpty(objectOrEmpty(res.json).incident).id;
    return typeof id === 'string' ? { outcome: 'ok', provider_reference: id } : { outcome: 'ok' };
  }
  return classifyIncidentIo(res.status, res.json, res.headers, ctx.now());
}
