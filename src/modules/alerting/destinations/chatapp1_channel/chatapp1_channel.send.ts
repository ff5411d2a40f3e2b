import type { DestinationRecord, ProviderContext, SendResult } from '../destination.contract.ts';
import type { Chatapp1ChannelConfig } from './chatapp1_channel.config.ts';
import { classifyHttpStatus, httpAttempt, objectOrEmpty, parseRetryAfter, retry } from '../destination.http.ts';
import type { SlackPostMessage } from './chatapp1_channel.render.ts';

const REAUTH = new Set([
  'not_authed',
  'invalid_auth',
  'account_inactive',
  'token_revoked',
  'token_expired',
  'missing_scope',
  'no_permission',
  'ekm_access_denied',
  'access_denied',
  'two_factor_setup_required',
  'enterprise_is_restricted',
]);
const BROKEN = new Set([
  'channel_not_found',
  'not_in_channel',
  'is_archived',
  'restricted_action',
  'restricted_action_read_only_channel',
  'restricted_action_thread_only_channel',
  'restricted_action_non_threadable_channel',
]);
const PAYLOAD = new Set([
  'invalid_blocks',
  'invalid_blocks_format',
  'msg_too_long',
  'msg_blocks_too_long',
  'no_text',
  'too_many_attachments',
  'invalid_arguments',
  'invalid_arg_name',
  'invalid_charset',
  'invalid_form_data',
  'invalid_post_type',
  'missing_post_type',
]);
const RETRY = new Set([
  'ratelimited',
  'rate_limited',
  'internal_error',
  'fatal_error',
  'service_unavailable',
  'request_timeout',
  'team_added_to_org',
  'org_login_required',
]);

/** Maps a Slack Web API error code (`{ok:false,error}`) to an outcome (destinations.md §1). */
export function classifySlackApiError(error: string, retryAfterMs?: number): SendResult {
  const reason = `Slack error: ${error}`;
  if (REAUTH.has(error)) return { outcome: 'reauthorize', reason };
  if (BROKEN.has(error)) return { outcome: 'destination_broken', reason };
  if (PAYLOAD.has(error)) return { outcome: 'payload_rejected', reason };
  if (RETRY.has(error)) return retry(reason, retryAfterMs);
  // Unknown codes: not worth hammering, not worth disabling the destination over.
  return { outcome: 'payload_rejected', reason };
}

export async function sendChatapp1Channel(
  request: SlackPostMessage,
  destination: DestinationRecord<Chatapp1ChannelConfig>,
  _delivery: unknown,
  ctx: ProviderContext,
): Promise<SendResult> {
  const token = destination.config.bot_token;
  if (!token) {
    return { outcome: 'reauthorize', reason: 'no bot token for this Slack installation; reinstall the app' };
  }
  const res = await httpAttempt(ctx, {
    method: 'POST',
    url: `${ctx.baseUrl('chatapp1_channel')}/api/chat.postMessage`,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json; charset=utf-8' },
    body: JSON.stringify(request),
  });
  if (res.kind === 'failed') return retry(res.reason);
  const retryAfter = parseRetryAfter(res.headers.get('retry-after'), ctx.now());
  if (res.status === 429) return retry('Slack error: ratelimited (HTTP 429)', retryAfter);
  const body = objectOrEmpty(res.json);
  if (res.status === 200 && body.ok === true) {
    return typeof body.ts === 'string' ? { outcome: 'ok', provider_reference: body.ts } : { outcome: 'ok' };
  }
  if (typeof body.error === 'string') return classifySlackApiError(body.error, retryAfter);
  return classifyHttpStatus(res.status, res.headers, ctx.now());
}
