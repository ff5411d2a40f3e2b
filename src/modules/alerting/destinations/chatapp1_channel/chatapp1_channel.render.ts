import type { AlertEvent, DestinationRecord, RenderContext } from '../destination.contract.ts';
import { groupMessageFor } from '../destination.group.ts';
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
    event.cause && (event.type === 'down' || event.type === 'still_down' || event.type === 'degraded')
      ? `${msg.title} – ${event.cause}`
      : msg.title;
  return { text: truncate(`${emoji} ${escapeSlack(fallback)}`, 3000), blocks };
}

/** Slack allows 50 blocks and 3,000 characters per section: lines are packed into sections, the rest counted. */
const SECTION_MAX = 2900;
const SECTIONS_MAX = 45;

/** Several events as one message (DECISIONS §17): a header, then one line per monitor with its link. */
export function renderSlackGroup(events: readonly AlertEvent[], ctx: RenderContext): SlackMessage {
  const group = groupMessageFor(events, ctx.publicUrl);
  const title = `${emojiFor(group.severity)} ${group.title}`;
  const sections: string[] = [];
  let current = '';
  let left = 0;
  for (const line of group.lines) {
    const detail = line.detail ? ` – ${escapeSlack(line.detail)}` : '';
    const text = `${emojiFor(line.severity)} *${line.label}* <${line.link}|${escapeSlack(line.name)}>${detail}`;
    const row = truncate(text, SECTION_MAX);
    if (current !== '' && current.length + 1 + row.length > SECTION_MAX) {
      if (sections.length === SECTIONS_MAX - 1) {
        left++;
        continue;
      }
      sections.push(current);
      current = '';
    }
    current = current === '' ? row : `${current}\n${row}`;
  }
  if (current !== '') sections.push(current);
  if (left > 0) sections.push(`…and ${left} more`);
  const blocks: SlackBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: truncate(title, 150), emoji: true } },
    ...sections.map((s) => ({ type: 'section', text: { type: 'mrkdwn', text: s } })),
  ];
  return { text: truncate(escapeSlack(title), 3000), blocks };
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

export function renderChatapp1ChannelGroup(
  events: readonly AlertEvent[],
  destination: DestinationRecord<Chatapp1ChannelConfig>,
  _d: unknown,
  ctx: RenderContext,
): SlackPostMessage {
  return {
    channel: destination.config.channel_id,
    ...renderSlackGroup(events, ctx),
    unfurl_links: false,
    unfurl_media: false,
  };
}
