import type { DestinationRecord, ProviderContext, SendResult } from '../destination.contract.ts';
import type { Chatapp2WebhookConfig } from './chatapp2_webhook.config.ts';
import {
  classifyHttpStatus,
  httpAttempt,
  objectOrEmpty,
  parseRetryAfter,
  retry,
  withQuery,
} from '../destination.http.ts';
import type { DiscordWebhookBody } from './chatapp2_webhook.render.ts';

/** Discord webhook answers (destinations.md §3). The JSON error body is `{code, message}`. */
export function classifyDiscord(status: number, json: unknown, headers: Headers, now: number): SendResult {
  const body = objectOrEmpty(json);
  const code = typeof body.code === 'number' ? body.code : null;
  const message = typeof body.message === 'string' ? body.message.slice(0, 120) : '';
  const detail = `HTTP ${status}${code !== null ? ` code ${code}` : ''}${message ? `: ${message}` : ''}`;
  if (status === 429) {
    const seconds = typeof body.retry_after === 'number' ? body.retry_after : undefined;
    const after = seconds !== undefined ? Math.ceil(seconds * 1000) : parseRetryAfter(headers.get('retry-after'), now);
    return retry(`Discord rate limited (${detail})`, after);
  }
  if (status >= 500) return retry(`Discord ${detail}`, parseRetryAfter(headers.get('retry-after'), now));
  if (status === 404)
    return {
      outcome: 'destination_broken',
      reason: `Discord webhook deleted (${detail}); Discord asks never to reuse it`,
    };
  if (status === 401 || status === 403)
    return { outcome: 'destination_broken', reason: `Discord webhook no longer usable (${detail})` };
  if (status === 400 && code === 220001)
    return { outcome: 'destination_broken', reason: `Discord forum channel needs a thread (${detail})` };
  if (status === 400 || status === 413)
    return { outcome: 'payload_rejected', reason: `Discord rejected the message (${detail})` };
  return classifyHttpStatus(status, headers, now, `Discord ${detail}`);
}

export async function sendChatapp2Webhook(
  request: DiscordWebhookBody,
  destination: DestinationRecord<Chatapp2WebhookConfig>,
  _delivery: unknown,
  ctx: ProviderContext,
): Promise<SendResult> {
  const res = await httpAttempt(ctx, {
    method: 'POST',
    url: withQuery(destination.config.url, { wait: 'true' }),
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(request),
  });
  if (res.kind === 'failed') return retry(res.reason);
  if (res.status === 200 || res.status === 204) {
    const id = objectOrEmpty(res.json).id;
    return typeof id === 'string' ? { outcome: 'ok', provider_reference: id } : { outcome: 'ok' };
  }
  return classifyDiscord(res.status, res.json, res.headers, ctx.now());
}
