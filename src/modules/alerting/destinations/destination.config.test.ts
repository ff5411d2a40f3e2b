import { describe, expect, it } from 'vitest';
import { createProviderRegistry, DESTINATION_TYPES, type DestinationType } from './index.ts';

const registry = createProviderRegistry();
const provider = (type: DestinationType) => registry.get(type)!;

/** A config each type accepts. */
const GOOD: Record<DestinationType, Record<string, unknown>> = {
  chatapp1_channel: { installation_id: 'T123', channel_id: 'C0123456789', bot_token: 'xoxb-1-abc' },
  chatapp1_webhook: { url: 'https://hooks.slack.com/services/T/B/x' },
  chatapp2_webhook: { url: 'https://discord.com/api/webhooks/1/abc' },
  chatapp3_webhook: { url: 'https://chat.googleapis.com/v1/spaces/A/messages?key=k&token=t' },
  chatapp4_bot: { bot_token: '123456:ABCDEFGHIJKLMNOPQRSTUVWXYZ', chat_id: -1001234 },
  oncall_pager1: { integration_key: 'a'.repeat(32) },
  oncall_pager2: { api_key: 'k', region: 'eu' },
  incident_tool1: { api_key: 'k', severity_id: 'sev_1' },
  incident_tool2: { api_key: 'k' },
  email: { address: 'ops@example.com' },
  generic_webhook: { url: 'https://hooks.example.com/x' },
};

/** Per type: bad configs and the one detail each gets (wrong type, missing required field, bad value). */
const BAD: Array<[DestinationType, Record<string, unknown>, string, string]> = [
  ['chatapp1_channel', { channel_id: 'C0123456789' }, 'config.installation_id', 'is required'],
  [
    'chatapp1_channel',
    { installation_id: 7, channel_id: 'C0123456789' },
    'config.installation_id',
    'must be a non-empty string',
  ],
  [
    'chatapp1_channel',
    { installation_id: 'T', channel_id: 'C0123456789', bot_token: 'abc' },
    'config.bot_token',
    'must be a Slack bot token (xoxb-…)',
  ],
  ['chatapp1_webhook', { url: 42 }, 'config.url', 'must be an https URL'],
  ['chatapp1_webhook', {}, 'config.url', 'is required'],
  [
    'chatapp2_webhook',
    { url: 'https://user:pw@discord.com/api/webhooks/1/a' },
    'config.url',
    'must not contain credentials',
  ],
  ['chatapp2_webhook', { url: `https://discord.com/${'x'.repeat(2048)}` }, 'config.url', 'must be an https URL'],
  ['chatapp3_webhook', { url: 'ftp://example.com/x' }, 'config.url', 'must be an https URL'],
  [
    'chatapp4_bot',
    { bot_token: '123456:ABCDEFGHIJKLMNOPQRSTUVWXYZ', chat_id: 'general' },
    'config.chat_id',
    'must be a numeric chat id or @channelusername',
  ],
  [
    'chatapp4_bot',
    { bot_token: '123456:ABCDEFGHIJKLMNOPQRSTUVWXYZ', chat_id: 1.5 },
    'config.chat_id',
    'must be a numeric chat id or @channelusername',
  ],
  ['chatapp4_bot', { bot_token: 'nope', chat_id: 1 }, 'config.bot_token', 'must be a Telegram bot token (123456:ABC…)'],
  [
    'oncall_pager1',
    { integration_key: 32 },
    'config.integration_key',
    'must be a 32-character Events API v2 integration key',
  ],
  ['oncall_pager1', {}, 'config.integration_key', 'is required'],
  ['oncall_pager2', { api_key: 'k' }, 'config.region', 'is required'],
  ['oncall_pager2', { api_key: '   ', region: 'us' }, 'config.api_key', 'must be a non-empty string'],
  ['incident_tool1', { api_key: 'k' }, 'config.severity_id', 'is required'],
  [
    'incident_tool1',
    { api_key: 'k', severity_id: 'x'.repeat(201) },
    'config.severity_id',
    'must be at most 200 characters',
  ],
  ['incident_tool2', { api_key: ['k'] }, 'config.api_key', 'must be a non-empty string'],
  ['email', { address: 'Ops <ops@example.com>' }, 'config.address', 'must be an email address'],
  ['email', { address: true }, 'config.address', 'must be an email address'],
  ['generic_webhook', { url: 'http://hooks.example.com/x' }, 'config.url', 'must be an https URL'],
];

describe('destination config schemas', () => {
  it.each(DESTINATION_TYPES)('%s accepts its config and hands it back typed, unchanged', (type) => {
    expect(provider(type).validateConfig(GOOD[type])).toEqual([]);
    expect(provider(type).parseConfig(GOOD[type])).toEqual({ ok: true, config: GOOD[type] });
  });

  it.each(BAD)('%s refuses %j: %s %s', (type, config, field, issue) => {
    expect(provider(type).validateConfig(config)).toEqual([{ field, issue }]);
    expect(provider(type).parseConfig(config)).toEqual({ ok: false, issues: [{ field, issue }] });
  });

  it.each(DESTINATION_TYPES)('%s refuses an unknown field beside a good config', (type) => {
    expect(provider(type).validateConfig({ ...GOOD[type], colour: 'red' })).toEqual([
      { field: 'config.colour', issue: 'is not a known field' },
    ]);
  });

  it('lists the issues in the schema order of the fields, unknown fields last', () => {
    expect(provider('incident_tool1').validateConfig({ extra: 1, severity_id: '', api_key: 5 })).toEqual([
      { field: 'config.api_key', issue: 'must be a non-empty string' },
      { field: 'config.severity_id', issue: 'must be a non-empty string' },
      { field: 'config.extra', issue: 'is not a known field' },
    ]);
  });

  it('takes the secret fields from the schema (writeOnly), so sealing and masking follow it', () => {
    const secrets = Object.fromEntries(DESTINATION_TYPES.map((t) => [t, provider(t).secretFields]));
    expect(secrets).toEqual({
      chatapp1_channel: ['bot_token'],
      chatapp1_webhook: ['url'],
      chatapp2_webhook: ['url'],
      chatapp3_webhook: ['url'],
      chatapp4_bot: ['bot_token'],
      oncall_pager1: ['integration_key'],
      oncall_pager2: ['api_key'],
      incident_tool1: ['api_key'],
      incident_tool2: ['api_key'],
      email: [],
      generic_webhook: [],
    });
  });

  it('accepts plain http for loopback hosts only (local development and the fakes)', () => {
    for (const url of ['http://127.0.0.1:9/x', 'http://localhost/x', 'http://[::1]:8080/']) {
      expect(provider('generic_webhook').validateConfig({ url })).toEqual([]);
    }
  });
});
