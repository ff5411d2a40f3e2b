import type { AlertEvent, DestinationRecord, RenderContext } from '../destination.contract.ts';
import type { Chatapp1WebhookConfig } from './chatapp1_webhook.config.ts';
import { renderSlackMessage, type SlackMessage } from '../chatapp1_channel/chatapp1_channel.render.ts';

/** Body posted to a Slack incoming webhook (channel and author are fixed by the webhook). */
export type SlackWebhookBody = SlackMessage;

export function renderChatapp1Webhook(
  event: AlertEvent,
  _destination: DestinationRecord<Chatapp1WebhookConfig>,
  _d: unknown,
  ctx: RenderContext,
): SlackWebhookBody {
  return renderSlackMessage(event, ctx);
}
