import type { AlertEvent, DestinationRecord, RenderContext } from '../destination.contract.ts';
import { groupMessageFor } from '../destination.group.ts';
import type { Chatapp3WebhookConfig } from './chatapp3_webhook.config.ts';
import { emojiFor, linkFor, messageFor, rfc3339, truncate, type Severity } from '../destination.message.ts';

export type TeamsRequest = { kind: 'teams'; body: Record<string, unknown> };
/** `query` is appended to the webhook URL (threading, idempotent retries via requestId). */
export type GoogleChatRequest = { kind: 'google_chat'; query: Record<string, string>; body: Record<string, unknown> };
export type Chatapp3Request = TeamsRequest | GoogleChatRequest;

/**
 * Google Chat when the host is chat.googleapis.com, or when the path has Google Chat's own shape
 * (`/v1/spaces/<space>/messages`, so proxies and local fakes work); otherwise a Teams Workflows trigger.
 */
export function isGoogleChatUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.hostname === 'chat.googleapis.com' || /^\/v1\/spaces\/[^/]+\/messages$/.test(u.pathname);
  } catch {
    return false;
  }
}

const CARD_STYLE: Record<Severity, string> = {
  critical: 'attention',
  warning: 'warning',
  info: 'emphasis',
  ok: 'good',
};

function facts(event: AlertEvent): Array<{ title: string; value: string }> {
  const out: Array<{ title: string; value: string }> = [];
  if (event.monitor)
    out.push({ title: 'Monitor', value: event.monitor.name }, { title: 'Target', value: event.monitor.target });
  if (event.cause) out.push({ title: 'Cause', value: event.cause });
  if (event.since !== null) out.push({ title: 'Down since', value: rfc3339(event.since) });
  if (event.incident) out.push({ title: 'Incident', value: `#${event.incident.number}` });
  out.push({ title: 'Time', value: rfc3339(event.occurred_at) });
  return out.map((f) => ({ title: f.title, value: truncate(f.value, 1000) }));
}

/** Adaptive Card 1.4 (what Teams Workflows renders reliably); kept well under the ~28 KB limit. */
export function renderTeams(event: AlertEvent, ctx: RenderContext): TeamsRequest {
  const msg = messageFor(event);
  const title = `${emojiFor(msg.severity)} ${msg.title}`;
  return teamsCard(title, [
    {
      type: 'Container',
      style: CARD_STYLE[msg.severity],
      items: [
        { type: 'TextBlock', text: truncate(title, 300), weight: 'Bolder', size: 'Medium', wrap: true },
        { type: 'TextBlock', text: truncate(msg.text, 4000), wrap: true, isSubtle: true },
      ],
    },
    { type: 'FactSet', facts: facts(event) },
    {
      type: 'ActionSet',
      actions: [
        {
          type: 'Action.OpenUrl',
          title: event.incident ? `Open incident #${event.incident.number}` : 'Open in Tocsin',
          url: linkFor(event, ctx.publicUrl),
        },
      ],
    },
  ]);
}

/** Thread key: one thread per incident (down, reminders and recovery read as one conversation). */
function threadKey(event: AlertEvent): string {
  if (event.incident) return `tocsin-${event.incident.id}`;
  if (event.monitor) return `tocsin-${event.monitor.id}`;
  return `tocsin-${event.id}`;
}

export function renderGoogleChat(event: AlertEvent, delivery: { id: string }, ctx: RenderContext): GoogleChatRequest {
  const msg = messageFor(event);
  const title = `${emojiFor(msg.severity)} ${msg.title}`;
  const link = linkFor(event, ctx.publicUrl);
  const widgets: Array<Record<string, unknown>> = facts(event).map((f) => ({
    decoratedText: { topLabel: f.title, text: f.value, wrapText: true },
  }));
  widgets.push({
    buttonList: {
      buttons: [
        {
          text: event.incident ? `Incident #${event.incident.number}` : 'Open in Tocsin',
          onClick: { openLink: { url: link } },
        },
      ],
    },
  });
  return {
    kind: 'google_chat',
    query: { messageReplyOption: 'REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD', requestId: delivery.id },
    body: {
      text: truncate(`*${title}*\n${msg.text}`, 4000),
      fallbackText: truncate(title, 300),
      thread: { threadKey: threadKey(event) },
      cardsV2: [
        {
          cardId: `tocsin-${event.id}`,
          card: { header: { title: truncate(title, 200), subtitle: event.organization.name }, sections: [{ widgets }] },
        },
      ],
    },
  };
}

export function renderChatapp3Webhook(
  event: AlertEvent,
  destination: DestinationRecord<Chatapp3WebhookConfig>,
  delivery: { id: string },
  ctx: RenderContext,
): Chatapp3Request {
  return isGoogleChatUrl(destination.config.url) ? renderGoogleChat(event, delivery, ctx) : renderTeams(event, ctx);
}

/** Several events as one message (DECISIONS §17): a card (Teams) or a text (Google Chat) listing the monitors. */
export function renderChatapp3WebhookGroup(
  events: readonly AlertEvent[],
  destination: DestinationRecord<Chatapp3WebhookConfig>,
  delivery: { id: string },
  ctx: RenderContext,
): Chatapp3Request {
  const group = groupMessageFor(events, ctx.publicUrl);
  const title = `${emojiFor(group.severity)} ${group.title}`;
  if (isGoogleChatUrl(destination.config.url)) {
    const lines = group.lines.map(
      (l) => `${emojiFor(l.severity)} *${l.label}* <${l.link}|${l.name}>${l.detail ? ` – ${l.detail}` : ''}`,
    );
    return {
      kind: 'google_chat',
      query: { messageReplyOption: 'REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD', requestId: delivery.id },
      body: { text: truncate(`*${title}*\n${lines.join('\n')}`, 4000), fallbackText: truncate(title, 300) },
    };
  }
  const rows = group.lines.map((l) => ({
    type: 'TextBlock',
    wrap: true,
    text: truncate(
      `${emojiFor(l.severity)} **${l.label}** [${l.name}](${l.link})${l.detail ? ` – ${l.detail}` : ''}`,
      1000,
    ),
  }));
  return teamsCard(title, [
    {
      type: 'Container',
      style: CARD_STYLE[group.severity],
      items: [{ type: 'TextBlock', text: truncate(title, 300), weight: 'Bolder', size: 'Medium', wrap: true }],
    },
    // Teams refuses cards over about 28 KB: at most 100 lines, then a count.
    ...rows.slice(0, 100),
    ...(rows.length > 100 ? [{ type: 'TextBlock', wrap: true, text: `…and ${rows.length - 100} more` }] : []),
  ]);
}

/** The Teams message around an Adaptive Card 1.4 body (what Teams Workflows renders reliably). */
function teamsCard(title: string, body: unknown[]): TeamsRequest {
  return {
    kind: 'teams',
    body: {
      type: 'message',
      summary: truncate(title, 200),
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.adaptive',
          contentUrl: null,
          content: {
            $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
            type: 'AdaptiveCard',
            version: '1.4',
            msteams: { width: 'Full' },
            body,
          },
        },
      ],
    },
  };
}
