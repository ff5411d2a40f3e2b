import type { AlertEvent, DestinationRecord, RenderContext } from '../destination.contract.ts';
import { groupMessageFor } from '../destination.group.ts';
import type { Chatapp4BotConfig } from './chatapp4_bot.config.ts';
import { emojiFor, escapeHtml, linkFor, messageFor } from '../destination.message.ts';

/** Body of Telegram `sendMessage` (the bot token goes into the URL path at send time). */
export interface TelegramSendMessage {
  chat_id: string | number;
  text: string;
  parse_mode: 'HTML';
  link_preview_options: { is_disabled: true };
}

const MAX_TEXT = 4096;

/** The chat id to use: a migrated id in state wins over the configured one. */
export function telegramChatId(destination: DestinationRecord<Chatapp4BotConfig>): string | number {
  const migrated = destination.state.chat_id;
  if (typeof migrated === 'string' || typeof migrated === 'number') return migrated;
  return destination.config.chat_id;
}

export function renderChatapp4Bot(
  event: AlertEvent,
  destination: DestinationRecord<Chatapp4BotConfig>,
  _d: unknown,
  ctx: RenderContext,
): TelegramSendMessage {
  const msg = messageFor(event);
  const link = linkFor(event, ctx.publicUrl);
  const head = `${emojiFor(msg.severity)} <b>${escapeHtml(msg.title)}</b>\n`;
  const tail = `\n<a href="${escapeHtml(link)}">${event.incident ? `Incident #${event.incident.number}` : 'Open in Tocsin'}</a>`;
  let body = escapeHtml(msg.text);
  const room = MAX_TEXT - head.length - tail.length;
  // Truncate the escaped text without cutting an entity (&amp; …) in half.
  if (body.length > room) body = `${body.slice(0, room - 1).replace(/&[a-z]*$/, '')}…`;
  return {
    chat_id: telegramChatId(destination),
    text: head + body + tail,
    parse_mode: 'HTML',
    link_preview_options: { is_disabled: true },
  };
}

/** Several events as one message (DECISIONS §17): one line per monitor with its link, within Telegram's 4,096. */
export function renderChatapp4BotGroup(
  events: readonly AlertEvent[],
  destination: DestinationRecord<Chatapp4BotConfig>,
  _d: unknown,
  ctx: RenderContext,
): TelegramSendMessage {
  const group = groupMessageFor(events, ctx.publicUrl);
  let text = `${emojiFor(group.severity)} <b>${escapeHtml(group.title)}</b>`;
  let shown = 0;
  for (const l of group.lines) {
    const row = `\n${emojiFor(l.severity)} <b>${l.label}</b> <a href="${escapeHtml(l.link)}">${escapeHtml(l.name)}</a>${l.detail ? ` – ${escapeHtml(l.detail)}` : ''}`;
    if (text.length + row.length > MAX_TEXT - 40) break;
    text += row;
    shown++;
  }
  if (shown < group.lines.length) text += `\n…and ${group.lines.length - shown} more`;
  return {
    chat_id: telegramChatId(destination),
    text,
    parse_mode: 'HTML',
    link_preview_options: { is_disabled: true },
  };
}
