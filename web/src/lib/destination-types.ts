/**
 * What people call each destination type. The API's type names (`chatapp1_channel`, `oncall_pager1` …) stay on
 * the wire (DECISIONS §alerting); every page that shows a type, a field or a picker goes through this module, so a
 * product is named one way everywhere. The products are those of docs/alerting.md's provider table.
 */
export type Glyph = 'chat' | 'pager' | 'incident' | 'mail' | 'hook';

interface TypeInfo {
  /** The product as its users know it. */
  name: string;
  /** One line under the picker: how Tocsin reaches it. */
  summary: string;
  glyph: Glyph;
  /** Field labels in words (the wire key stays the input's name). */
  fields: Record<string, string>;
}

const TYPES: Record<string, TypeInfo> = {
  chatapp1_channel: {
    name: 'Slack (app)',
    summary: 'Posts to a Slack channel through the Tocsin Slack app (install it in your workspace first).',
    glyph: 'chat',
    fields: { installation_id: 'Slack workspace installation', channel_id: 'Channel ID', bot_token: 'Bot token' },
  },
  chatapp1_webhook: {
    name: 'Slack (incoming webhook)',
    summary: 'Posts to the channel of a Slack incoming webhook.',
    glyph: 'chat',
    fields: { url: 'Webhook URL' },
  },
  chatapp2_webhook: {
    name: 'Discord',
    summary: 'Posts to a Discord channel through its webhook.',
    glyph: 'chat',
    fields: { url: 'Webhook URL' },
  },
  chatapp3_webhook: {
    name: 'Microsoft Teams / Google Chat',
    summary: 'Posts to a Teams Workflows webhook or a Google Chat incoming webhook (chosen from the URL).',
    glyph: 'chat',
    fields: { url: 'Webhook URL' },
  },
  chatapp4_bot: {
    name: 'Telegram',
    summary: 'Sends through your Telegram bot to a chat or channel.',
    glyph: 'chat',
    fields: { bot_token: 'Bot token', chat_id: 'Chat ID' },
  },
  oncall_pager1: {
    name: 'PagerDuty',
    summary: 'Triggers and resolves PagerDuty alerts (Events API v2), one per monitor.',
    glyph: 'pager',
    fields: { integration_key: 'Integration key' },
  },
  oncall_pager2: {
    name: 'Opsgenie',
    summary: 'Creates and closes Opsgenie alerts, one per monitor.',
    glyph: 'pager',
    fields: { api_key: 'API key', region: 'Region' },
  },
  incident_tool1: {
    name: 'incident.io',
    summary: 'Opens an incident.io incident when a monitor goes down (closed there, not by Tocsin).',
    glyph: 'incident',
    fields: { api_key: 'API key', severity_id: 'Severity ID' },
  },
  incident_tool2: {
    name: 'Rootly',
    summary: 'Opens a Rootly incident when a monitor goes down (closed there, not by Tocsin).',
    glyph: 'incident',
    fields: { api_key: 'API key' },
  },
  email: {
    name: 'Email',
    summary: 'Mails one address (members get organization email without a destination).',
    glyph: 'mail',
    fields: { address: 'Email address' },
  },
  generic_webhook: {
    name: 'Webhook',
    summary: 'POSTs signed JSON to your own receiver.',
    glyph: 'hook',
    fields: { url: 'Receiver URL' },
  },
};

/** "incident_acknowledged" → "Incident acknowledged": words from a wire name nobody mapped. */
export function words(key: string): string {
  const text = key.replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The product name of a destination type ("PagerDuty"); an unknown type in words rather than raw. */
export function destinationTypeName(type: string | null | undefined): string {
  if (!type) return 'Deleted destination';
  return TYPES[type]?.name ?? words(type);
}

export function destinationTypeSummary(type: string): string {
  return TYPES[type]?.summary ?? '';
}

/** The label of one config field of a type ("Integration key"). */
export function destinationFieldLabel(type: string, key: string): string {
  const label = TYPES[type]?.fields[key] ?? words(key);
  // Acronyms read as such.
  return label.replace(/\b(url|id|api)\b/gi, (w) => w.toUpperCase());
}

/** The kind of drawing beside a type's name (ui/destination-type.tsx). */
export function destinationGlyph(type: string | null | undefined): Glyph {
  return (type && TYPES[type]?.glyph) || 'hook';
}

/** Every type this app has a name for (a test checks it against the API's list). */
export const NAMED_TYPES: readonly string[] = Object.keys(TYPES);

/** The labels of a type's fields this app words itself. */
export function namedFields(type: string): readonly string[] {
  return Object.keys(TYPES[type]?.fields ?? {});
}
