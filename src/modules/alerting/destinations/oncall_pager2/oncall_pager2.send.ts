import type { DestinationRecord, ProviderContext, SendResult } from '../destination.contract.ts';
import type { OncallPager2Config } from './oncall_pager2.config.ts';
import { classifyHttpStatus, httpAttempt, objectOrEmpty, parseRetryAfter, retry } from '../destination.http.ts';
import type { OpsgenieRequest } from './oncall_pager2.render.ts';

/** Opsgenie answers (destinations.md §7). Error body: `{message, took, requestId}` (403 may carry code 40301/40302). */
export function classifyOpsgenie(status: number, json: unknown, headers: Headers, now: number): SendResult {
  const body = objectOrEmpty(json);
  const message = typeof body.message === 'string' ? body.message.slice(0, 200) : '';
  const code = typeof body.code === 'number' ? body.code : null;
  const detail = `HTTP ${status}${code !== null ? ` code ${code}` : ''}${message ? `: ${message}` : ''}`;
  if (status === 429 || status >= 500)
    return retry(`Opsgenie ${detail}`, parseRetryAfter(headers.get('retry-after'), now));
  if (status === 400 || status === 422)
    return { outcome: 'payload_rejected', reason: `Opsgenie rejected the request (${detail})` };
  if (status === 401)
    return { outcome: 'reauthorize', reason: `Opsgenie API key invalid or integration disabled (${detail})` };
  if (status === 402) return { outcome: 'destination_broken', reason: `Opsgenie plan does not allow this (${detail})` };
  if (status === 403) {
    if (code === 40302 || /not supported/i.test(message))
      return { outcome: 'destination_broken', reason: `Opsgenie request not supported (${detail})` };
    return { outcome: 'reauthorize', reason: `Opsgenie API key lacks permission (${detail})` };
  }
  if (status === 404)
    return { outcome: 'destination_broken', reason: `Opsgenie resource not found; check the region (${detail})` };
  return classifyHttpStatus(status, headers, now, `Opsgenie ${detail}`);
}

export async function sendOncallPager2(
  request: OpsgenieRequest,
  destination: DestinationRecord<OncallPager2Config>,
  _delivery: unknown,
  ctx: ProviderContext,
): Promise<SendResult> {
  const base = ctx.baseUrl('oncall_pager2', destination.config.region);
  const verb = request.action === 'resolve' ? 'close' : 'acknowledge';
  const url =
    request.action === 'trigger'
      ? `${base}/v2/alerts`
      : `${base}/v2/alerts/${encodeURIComponent(request.alias)}/${verb}?identifierType=alias`;
  const res = await httpAttempt(ctx, {
    method: 'POST',
    url,
    headers: { Authorization: `GenieKey ${destination.config.api_key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(request.body),
  });
  if (res.kind === 'failed') return retry(res.reason);
  if (res.status >= 200 && res.status < 300) {
    const requestId = objectOrEmpty(res.json).requestId;
    return typeof requestId === 'string' ? { outcome: 'ok', provider_reference: requestId } : { outcome: 'ok' };
  }
  return classifyOpsgenie(res.status, res.json, res.headers, ctx.now());
}
