import type { AlertEvent, DestinationRecord, RenderContext } from '../destination.contract.ts';
import {
  renderSlackGroup,
  renderSlackMessage,
  type SlackMessage,
} from '../chatapp1_channel/chatapp1_channel.render.ts';
import type { Chatapp1WebhookConfig } from './chatapp1_webhook.config.ts';

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

export function renderChatapp1WebhookGroup(
  events: readonly AlertEvent[],
  _destination: DestinationRecord<Chatapp1WebhookConfig>,
  _d: unknown,
  ctx: RenderContext,
): SlackWebhookBody {
  return renderSlackGroup(events, ctx);
}
