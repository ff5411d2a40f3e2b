import type { DestinationRecord, ProviderContext, SendResult } from '../destination.contract.ts';
import type { Chatapp3WebhookConfig } from './chatapp3_webhook.config.ts';
import {
  classifyHttpStatus,
  excerpt,
  httpAttempt,
  objectOrEmpty,
  parseRetryAfter,
  retry,
  withQuery,
} from '../destination.http.ts';
import type { Chatapp3Request } from './chatapp3_webhook.render.ts';

/** Teams Workflows (destinations.md §4a): 202 accepted (async); legacy connectors answer 200 "1" or 200 with an error text. */
export function classifyTeams(status: number, text: string, headers: Headers, now: number): SendResult {
  if (status >= 200 && status < 300) {
    if (/delivery failed/i.test(text))
      return { outcome: 'payload_rejected', reason: `Teams rejected the card: ${excerpt(text, 160)}` };
    return { outcome: 'ok' };
  }
  if (status === 429 || status >= 500)
    return retry(`Teams HTTP ${status}`, parseRetryAfter(headers.get('retry-after'), now));
  if (status === 400) return { outcome: 'payload_rejected', reason: 'Teams rejected the card (HTTP 400)' };
  if (status === 401 || status === 403 || status === 404) {
    return {
      outcome: 'destination_broken',
      reason: `Teams workflow URL no longer accepts posts (HTTP ${status}); recreate the workflow webhook`,
    };
  }
  return classifyHttpStatus(status, headers, now, 'Teams');
}

/** Google Chat (destinations.md §4b): `{error:{code,message,status}}`. */
export function classifyGoogleChat(status: number, json: unknown, headers: Headers, now: number): SendResult {
  const error = objectOrEmpty(objectOrEmpty(json).error);
  const gstatus = typeof error.status === 'string' ? error.status : '';
  const detail = `HTTP ${status}${gstatus ? ` ${gstatus}` : ''}`;
  if (status === 429 || status >= 500)
    return retry(`Google Chat ${detail}`, parseRetryAfter(headers.get('retry-after'), now));
  if (status === 400) return { outcome: 'payload_rejected', reason: `Google Chat rejected the message (${detail})` };
  if (status === 401 || status === 403 || status === 404)
    return { outcome: 'destination_broken', reason: `Google Chat webhook no longer accepts posts (${detail})` };
  return classifyHttpStatus(status, headers, now, `Google Chat ${detail}`);
}

export async function sendChatapp3Webhook(
  request: Chatapp3Request,
  destination: DestinationRecord<Chatapp3WebhookConfig>,
  _delivery: unknown,
  ctx: ProviderContext,
): Promise<SendResult> {
  const url = destination.config.url;
  const res = await httpAttempt(ctx, {
    method: 'POST',
    url: request.kind === 'google_chat' ? withQuery(url, request.query) : url,
    headers: { 'Content-Type': 'application/json; charset=UTF-8' },
    body: JSON.stringify(request.body),
  });
  if (res.kind === 'failed') return retry(res.reason);
  if (request.kind === 'teams') return classifyTeams(res.status, res.text, res.headers, ctx.now());
  if (res.status >= 200 && res.status < 300) {
    const name = objectOrEmpty(res.json).name;
    return typeof name === 'string' ? { outcome: 'ok', provider_reference: name } : { outcome: 'ok' };
  }
  return classifyGoogleChat(res.status, res.json, res.headers, ctx.now());
}
