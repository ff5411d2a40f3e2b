import type { DestinationRecord, ProviderContext, SendResult } from '../destination.contract.ts';
import type { Chatapp4BotConfig } from './chatapp4_bot.config.ts';
import { classifyHttpStatus, httpAttempt, objectOrEmpty, parseRetryAfter, retry } from '../destination.http.ts';
import type { TelegramSendMessage } from './chatapp4_bot.render.ts';

const BROKEN_400 = [
  /chat not found/i,
  /user not found/i,
  /chat_id is empty/i,
  /not enough rights/i,
  /have no rights to send/i,
  /need administrator rights/i,
  /TOPIC_CLOSED/i,
  /message thread not found/i,
];

/**
 * Telegram Bot API answers (destinations.md §5): `{ok:false, error_code, description, parameters?}`.
 * Classification uses description + parameters (Telegram warns error_code "contents are subject to change").
 */
export function classifyTelegram(status: number, json: unknown, headers: Headers, now: number): SendResult {
  const body = objectOrEmpty(json);
  const params = objectOrEmpty(body.parameters);
  const code = typeof body.error_code === 'number' ? body.error_code : status;
  const description = typeof body.description === 'string' ? body.description.slice(0, 200) : `HTTP ${status}`;
  const reason = `Telegram error ${code}: ${description}`;
  const migrate = params.migrate_to_chat_id;
  if (typeof migrate === 'number' || typeof migrate === 'string') {
    return {
      outcome: 'retry',
      reason: `Telegram group was upgraded to a supergroup; chat id changed to ${migrate}`,
      retry_after_ms: 0,
      state_patch: { chat_id: migrate },
    };
  }
  if (code === 429 || status === 429) {
    const after =
      typeof params.retry_after === 'number'
        ? params.retry_after * 1000
        : parseRetryAfter(headers.get('retry-after'), now);
    return retry(reason, after);
  }
  if (status >= 500 || code >= 500) return retry(reason);
  if (code === 401 || status === 401)
    return { outcome: 'reauthorize', reason: `${reason} (bot token invalid or revoked)` };
  if (code === 403 || status === 403) return { outcome: 'destination_broken', reason };
  if (code === 404 || status === 404) return { outcome: 'reauthorize', reason: `${reason} (bot token not recognised)` };
  if (code === 400 || status === 400) {
    if (BROKEN_400.some((p) => p.test(description))) return { outcome: 'destination_broken', reason };
    return { outcome: 'payload_rejected', reason };
  }
  return classifyHttpStatus(status, headers, now, reason);
}

export async function sendChatapp4Bot(
  request: TelegramSendMessage,
  destination: DestinationRecord<Chatapp4BotConfig>,
  _delivery: unknown,
  ctx: ProviderContext,
): Promise<SendResult> {
  const token = destination.config.bot_token;
  const res = await httpAttempt(ctx, {
    method: 'POST',
    url: `${ctx.baseUrl('chatapp4_bot')}/bot${token}/sendMessage`,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(request),
  });
  if (res.kind === 'failed') return retry(res.reason);
  const body = objectOrEmpty(res.json);
  if (res.status === 200 && body.ok === true) {
    const id = objectOrEmpty(body.result).message_id;
    return typeof id === 'number' ? { outcome: 'ok', provider_reference: String(id) } : { outcome: 'ok' };
  }
  return classifyTelegram(res.status, res.json, res.headers, ctx.now());
}
