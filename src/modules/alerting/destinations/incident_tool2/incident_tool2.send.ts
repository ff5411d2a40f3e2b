import type { DestinationRecord, ProviderContext, SendResult } from '../destination.contract.ts';
import type { IncidentTool2Config } from './incident_tool2.config.ts';
import { classifyHttpStatus, httpAttempt, objectOrEmpty, parseRetryAfter, retry } from '../destination.http.ts';
import { skippedResult } from '../destination.skip.ts';
import type { RootlyCreate } from './incident_tool2.render.ts';

/** Rootly (JSON:API) errors: `{errors:[{title, detail, status}]}` (destinations.md §9a). */
export function classifyRootly(status: number, json: unknown, headers: Headers, now: number): SendResult {
  const first = objectOrEmpty(
    Array.isArray(objectOrEmpty(json).errors) ? (objectOrEmpty(json).errors as unknown[])[0] : undefined,
  );
  const text = [first.title, first.detail].filter((s): s is string => typeof s === 'string').join(': ');
  const detail = `HTTP ${status}${text ? `: ${text}` : ''}`.slice(0, 240);
  if (status === 429 || status >= 500)
    return retry(
      `Rootly ${detail}`,
      parseRetryAfter(headers.get('retry-after') ?? headers.get('ratelimit-reset'), now),
    );
  if (status === 401 || status === 403)
    return { outcome: 'reauthorize', reason: `Rootly API key rejected (${detail})` };
  if (status === 404) return { outcome: 'destination_broken', reason: `Rootly ${detail}` };
  if (status === 400 || status === 422)
    return { outcome: 'payload_rejected', reason: `Rootly rejected the incident (${detail})` };
  return classifyHttpStatus(status, headers, now, `Rootly ${detail}`);
}

export async function sendIncidentTool2(
  request: RootlyCreate | null,
  destination: DestinationRecord<IncidentTool2Config>,
  _delivery: unknown,
  ctx: ProviderContext,
): Promise<SendResult> {
  if (request === null) return skippedResult;
  const res = await httpAttempt(ctx, {
    method: 'POST',
    url: `${ctx.baseUrl('incident_tool2')}/v1/incidents`,
    headers: {
      Authorization: `Bearer ${destination.config.api_key}`,
      'Content-Type': 'application/vnd.api+json',
      Accept: 'application/vnd.api+json',
    },
    body: JSON.stringify(request),
  });
  if (res.kind === 'failed') return retry(res.reason);
  if (res.status >= 200 && res.status < 300) {
    const id = objectOrEmpty(objectOrEmpty(res.json).data).id;
    return typeof id === 'string' ? { outcome: 'ok', provider_reference: id } : { outcome: 'ok' };
  }
  return classifyRootly(res.status, res.json, res.headers, ctx.now());
}
