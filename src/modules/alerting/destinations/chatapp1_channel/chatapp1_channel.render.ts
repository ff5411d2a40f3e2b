import type { AlertEvent, DestinationRecord, RenderContext } from '../destination.contract.ts';
import type { Chatapp1ChannelConfig } from './chatapp1_channel.config.ts';
import { emojiFor, escapeSlack, linkFor, messageFor, truncate } from '../destination.message.ts';

export type SlackBlock = Record<string, unknown>;

/** Blocks + text fallback shared by the Slack app and Slack incoming webhooks. */
export interface SlackMessage {
  text: string;
  blocks: SlackBlock[];
}

function isHttpUrl(value: string): boolean {
  return /^https?:\/\//i.test(value);
}

export function renderSlackMessage(event: AlertEvent, ctx: RenderContext): SlackMessage {
  const msg = messageFor(event);
  const emoji = emojiFor(msg.severity);
  const link = linkFor(event, ctx.publicUrl);
  const buttons: SlackBlock[] = [
    {
      type: 'button',
      text: { type: 'plain_text', text: event.incident ? `Incident #${event.incident.number}` : 'Open in Tocsin' },
      url: link,
    },
  ];
  if (event.monitor && isHttpUrl(event.monitor.target)) {
    buttons.push({ type: 'button', text: { type: 'plain_text', text: 'Visit target' }, url: event.monitor.target });
  }
  const blocks: SlackBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: truncate(`${emoji} ${msg.title}`, 150), emoji: true } },
    { type: 'section', text: { type: 'mrkdwn', text: truncate(escapeSlack(msg.text), 3000) } },
    { type: 'actions', elements: buttons },
  ];
  const fallback =
    event.cause && (event.type === 'down' || event.type === 'still_down') ? `${msg.title} – ${event.cause}` : msg.title;
  return { text: truncate(`${emoji} ${escapeSlack(fallback)}`, 3000), blocks };
}

/** Body of `chat.postMessage` (the bot token is added by send). */
export interface SlackPostMessage extends SlackMessage {
  channel: string;
  unfurl_links: false;
  unfurl_media: false;
}

export function renderChatapp1Channel(
  event: AlertEvent,
  destination: DestinationRecord<Chatapp1ChannelConfig>,
  _d: unknown,
  ctx: RenderContext,
): SlackPostMessage {
  return {
    channel: destination.config.channel_id,
    ...renderSlackMessage(event, ctx),
    unfurl_links: false,
    unfurl_media: false,
  };
}
