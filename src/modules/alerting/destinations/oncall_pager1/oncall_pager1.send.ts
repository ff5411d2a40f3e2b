import type { DestinationRecord, ProviderContext, SendResult } from '../destination.contract.ts';
import type { OncallPager1Config } from './oncall_pager1.config.ts';
import { classifyHttpStatus, httpAttempt, objectOrEmpty, parseRetryAfter, retry } from '../destination.http.ts';
import type { PagerDutyEvent } from './oncall_pager1.render.ts';

/** PagerDuty answers (destinations.md §6). 400 mentioning the routing key = the integration key is wrong. */
export function classifyPagerDuty(status: number, json: unknown, headers: Headers, now: number): SendResult {
  const body = objectOrEmpty(json);
  const errors = Array.isArray(body.errors) ? body.errors.filter((e): e is string => typeof e === 'string') : [];
  const message = typeof body.message === 'string' ? body.message : '';
  const detail = [message, ...errors].filter(Boolean).join('; ').slice(0, 200);
  if (status === 429 || status >= 500)
    return retry(
      `PagerDuty HTTP ${status}${detail ? `: ${detail}` : ''}`,
      parseRetryAfter(headers.get('retry-after'), now),
    );
  if (status === 400) {
    if (/routing[_ ]key|integration key/i.test(detail))
      return { outcome: 'reauthorize', reason: `PagerDuty rejected the integration key: ${detail}` };
    return { outcome: 'payload_rejected', reason: `PagerDuty rejected the event: ${detail || 'invalid event'}` };
  }
  if (status === 401 || status === 403) return { outcome: 'reauthorize', reason: `PagerDuty HTTP ${status}` };
  if (status === 404) return { outcome: 'destination_broken', reason: 'PagerDuty HTTP 404' };
  return classifyHttpStatus(status, headers, now, detail ? `PagerDuty: ${detail}` : 'PagerDuty');
}

export async function sendOncallPager1(
  request: PagerDutyEvent,
  destination: DestinationRecord<OncallPager1Config>,
  _delivery: unknown,
  ctx: ProviderContext,
): Promise<SendResult> {
  const res = await httpAttempt(ctx, {
    method: 'POST',
    url: `${ctx.baseUrl('oncall_pager1')}/v2/enqueue`,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ routing_key: destination.config.integration_key, ...request }),
  });
  if (res.kind === 'failed') return retry(res.reason);
  if (res.status === 202 || res.status === 200) {
    const key = objectOrEmpty(res.json).dedup_key;
    return { outcome: 'ok', provider_reference: typeof key === 'string' ? key : request.dedup_key };
  }
  return classifyPagerDuty(res.status, res.json, res.headers, ctx.now());
}
