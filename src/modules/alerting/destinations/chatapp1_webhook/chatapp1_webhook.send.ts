import type { DestinationRecord, ProviderContext, SendResult } from '../destination.contract.ts';
import type { Chatapp1WebhookConfig } from './chatapp1_webhook.config.ts';
import { classifyHttpStatus, excerpt, httpAttempt, parseRetryAfter, retry } from '../destination.http.ts';
import type { SlackWebhookBody } from './chatapp1_webhook.render.ts';

const PAYLOAD = new Set([
  'invalid_payload',
  'user_not_found',
  'too_many_attachments',
  'missing_text_or_fallback_or_attachments',
  'invalid_blocks',
  'no_text',
]);
const BROKEN = new Set([
  'action_prohibited',
  'posting_to_general_channel_denied',
  'channel_not_found',
  'no_service',
  'no_team',
  'no_active_hooks',
  'channel_is_archived',
  'team_disabled',
  'invalid_token',
]);

/**
 * Slack incoming-webhook errors are plain-text bodies; classify on the body first (destinations.md §2), then on
 * the status. `invalid_token` means the webhook's owner is gone: the webhook URL has to be replaced, so it is
 * destination_broken (healthchecks treats it as permanent too).
 */
export function classifySlackWebhook(status: number, body: string, headers: Headers, now: number): SendResult {
  const code = body.trim();
  if (status === 429)
    return retry('Slack webhook rate limited (HTTP 429)', parseRetryAfter(headers.get('retry-after'), now));
  if (status >= 500)
    return retry(
      `Slack webhook HTTP ${status}${code ? `: ${excerpt(code, 80)}` : ''}`,
      parseRetryAfter(headers.get('retry-after'), now),
    );
  if (PAYLOAD.has(code))
    return { outcome: 'payload_rejected', reason: `Slack webhook rejected the message: ${code} (HTTP ${status})` };
  if (BROKEN.has(code))
    return { outcome: 'destination_broken', reason: `Slack webhook no longer accepts posts: ${code} (HTTP ${status})` };
  if (status === 403 || status === 404 || status === 410) {
    return {
      outcome: 'destination_broken',
      reason: `Slack webhook no longer accepts posts (HTTP ${status}${code ? `: ${excerpt(code, 80)}` : ''})`,
    };
  }
  return classifyHttpStatus(status, headers, now, code ? excerpt(code, 80) : '');
}

export async function sendChatapp1Webhook(
  request: SlackWebhookBody,
  destination: DestinationRecord<Chatapp1WebhookConfig>,
  _delivery: unknown,
  ctx: ProviderContext,
): Promise<SendResult> {
  const res = await httpAttempt(ctx, {
    method: 'POST',
    url: destination.config.url,
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
    body: JSON.stringify(request),
  });
  if (res.kind === 'failed') return retry(res.reason);
  if (res.status >= 200 && res.status < 300) return { outcome: 'ok' };
  return classifySlackWebhook(res.status, res.text, res.headers, ctx.now());
}
