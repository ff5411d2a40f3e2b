import type { AlertEvent, DestinationRecord, RenderContext } from '../destination.contract.ts';
import { groupMessageFor } from '../destination.group.ts';
import type { Chatapp2WebhookConfig } from './chatapp2_webhook.config.ts';
import { emojiFor, linkFor, messageFor, rfc3339, truncate, type Severity } from '../destination.message.ts';

export interface DiscordEmbed {
  title: string;
  description: string;
  url: string;
  color: number;
  timestamp: string;
  fields: Array<{ name: string; value: string; inline?: boolean }>;
  footer: { text: string };
}

/** Body for Discord "Execute Webhook" (posted with `?wait=true`). */
export interface DiscordWebhookBody {
  content: string;
  username: string;
  embeds: DiscordEmbed[];
  /** No @everyone / role pings from monitor names. */
  allowed_mentions: { parse: never[] };
}

const COLOURS: Record<Severity, number> = { critical: 0xe01e5a, warning: 0xf2a33a, info: 0x439fe0, ok: 0x2eb886 };

export function renderChatapp2Webhook(
  event: AlertEvent,
  _destination: DestinationRecord<Chatapp2WebhookConfig>,
  _d: unknown,
  ctx: RenderContext,
): DiscordWebhookBody {
  const msg = messageFor(event);
  const fields: DiscordEmbed['fields'] = [];
  if (event.monitor) fields.push({ name: 'Target', value: truncate(event.monitor.target, 1024), inline: true });
  if (event.cause) fields.push({ name: 'Cause', value: truncate(event.cause, 1024), inline: true });
  if (event.since !== null && (event.type === 'down' || event.type === 'still_down' || event.type === 'recovered')) {
    fields.push({ name: 'Down since', value: `<t:${Math.floor(event.since / 1000)}:F>`, inline: true });
  }
  if (event.incident)
    fields.push({
      name: 'Incident',
      value: truncate(`[#${event.incident.number}](${event.incident.url})`, 1024),
      inline: true,
    });
  const title = truncate(`${emojiFor(msg.severity)} ${msg.title}`, 256);
  return {
    content: truncate(title, 2000),
    username: 'Tocsin',
    embeds: [
      {
        title,
        description: truncate(msg.text, 4096),
        url: linkFor(event, ctx.publicUrl),
        color: COLOURS[msg.severity],
        timestamp: rfc3339(event.occurred_at),
        fields: fields.slice(0, 25),
        footer: { text: truncate(event.organization.name, 2048) },
      },
    ],
    allowed_mentions: { parse: [] },
  };
}

/** Several events as one message (DECISIONS §17): one embed whose description lists the monitors with links. */
export function renderChatapp2WebhookGroup(
  events: readonly AlertEvent[],
  _destination: DestinationRecord<Chatapp2WebhookConfig>,
  _d: unknown,
  ctx: RenderContext,
): DiscordWebhookBody {
  const group = groupMessageFor(events, ctx.publicUrl);
  const title = truncate(`${emojiFor(group.severity)} ${group.title}`, 256);
  // Discord's description holds 4,096 characters: whole lines, then a count of the rest.
  let description = '';
  let shown = 0;
  for (const l of group.lines) {
    const row = `${emojiFor(l.severity)} **${l.label}** [${l.name.replace(/[[\]]/g, '')}](${l.link})${l.detail ? ` – ${l.detail}` : ''}`;
    if (description.length + row.length + 1 > 4096 - 40) break;
    description = description === '' ? row : `${description}\n${row}`;
    shown++;
  }
  if (shown < group.lines.length) description += `\n…and ${group.lines.length - shown} more`;
  const first = group.lines[0]!.event;
  return {
    content: title,
    username: 'Tocsin',
    embeds: [
      {
        title,
        description: truncate(description, 4096),
        url: ctx.publicUrl,
        color: COLOURS[group.severity],
        timestamp: rfc3339(first.occurred_at),
        fields: [],
        footer: { text: truncate(first.organization.name, 2048) },
      },
    ],
    allowed_mentions: { parse: [] },
  };
}
