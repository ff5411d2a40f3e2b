import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  startChatapp1ChannelFake,
  type Chatapp1ChannelFake,
  type Chatapp1ChannelFailure,
} from '../../../../../test/fakes/index.ts';
import {
  alertEvent,
  delivery,
  destinationRecord,
  providerContext,
  renderCtx,
} from '../../../../../test/fakes/alert-events.ts';
import type { SendOutcome } from '../destination.contract.ts';
import { buildInstallUrl, exchangeCode } from './chatapp1_channel.oauth.ts';
import { chatapp1ChannelProvider as provider } from './chatapp1_channel.provider.ts';

describe('chatapp1_channel render', () => {
  const dest = destinationRecord('chatapp1_channel', {
    installation_id: 'ins_1',
    channel_id: 'C0123456789',
    bot_token: 'xoxb-secret',
  });
  it.each([
    ['down', '🔴 DOWN: API health', 'HTTP 503 (expected 200)'],
    ['recovered', '✅ RECOVERED: API health', 'Recovered after 14m'],
    ['cert_expiring', '🟠 Certificate expiring in 7 days: API health', 'Certificate expires: 2026-03-08T12:00:00Z'],
    ['test', 'ℹ️ Test notification from Tocsin', 'destination works'],
  ] as const)('%s → header %s', (type, header, inText) => {
    const req = provider.render(alertEvent(type), dest, delivery(), renderCtx);
    expect(req.channel).toBe('C0123456789');
    expect(req.blocks[0]).toMatchObject({ type: 'header', text: { type: 'plain_text', text: header } });
    expect(JSON.stringify(req.blocks[1])).toContain(inText);
    expect(req.text).not.toBe('');
    expect(JSON.stringify(req)).not.toContain('xoxb-secret');
  });
  it('escapes mrkdwn and links the incident', () => {
    const req = provider.render(alertEvent('down', { cause: 'body <b> & stuff' }), dest, delivery(), renderCtx);
    expect(JSON.stringify(req.blocks[1])).toContain('body &lt;b&gt; &amp; stuff');
    expect(req.blocks[2]).toMatchObject({ type: 'actions' });
    expect(JSON.stringify(req.blocks[2])).toContain('https://tocsin.example.com/incidents/inc_1');
    expect(req.text).toBe('🔴 DOWN: API health – body &lt;b&gt; &amp; stuff');
  });
  it('validates config strictly', () => {
    expect(provider.validateConfig({ installation_id: 'i', channel_id: 'C0123456789' })).toEqual([]);
    expect(provider.validateConfig({ channel_id: 'general', extra: 1 })).toEqual([
      { field: 'config.installation_id', issue: 'is required' },
      { field: 'config.channel_id', issue: 'must be a Slack channel id such as C0123456789' },
      { field: 'config.extra', issue: 'is not a known field' },
    ]);
  });
});

describe('chatapp1_channel send (against the Slack fake)', () => {
  let fake: Chatapp1ChannelFake;
  beforeAll(async () => {
    fake = await startChatapp1ChannelFake();
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  const send = (token = 'xoxb-1111-2222-faketoken', timeoutMs = 2000) => {
    const dest = destinationRecord('chatapp1_channel', {
      installation_id: 'ins_1',
      channel_id: 'C0123456789',
      bot_token: token,
    });
    const ctx = providerContext({ providers: { chatapp1_channel: { base_url: fake.url } }, timeoutMs });
    return provider.send(provider.render(alertEvent('down'), dest, delivery(), ctx), dest, delivery(), ctx);
  };

  it('posts with the bot token and returns the message ts', async () => {
    const result = await send();
    expect(result).toEqual({ outcome: 'ok', provider_reference: fake.posted[0]!.ts });
    const req = fake.requests[0]!;
    expect(req.path).toBe('/api/chat.postMessage');
    expect(req.headers.authorization).toBe('Bearer xoxb-1111-2222-faketoken');
    expect(req.headers['user-agent']).toBe('Tocsin/0.1.0');
    expect(req.json).toMatchObject({ channel: 'C0123456789', unfurl_links: false });
  });

  it.each([
    ['token_revoked', 'reauthorize'],
    ['account_inactive', 'reauthorize'],
    ['missing_scope', 'reauthorize'],
    ['channel_not_found', 'destination_broken'],
    ['is_archived', 'destination_broken'],
    ['not_in_channel', 'destination_broken'],
    ['invalid_blocks', 'payload_rejected'],
    ['msg_too_long', 'payload_rejected'],
    ['internal_error', 'retry'],
    ['server_error', 'retry'],
  ] as Array<[Chatapp1ChannelFailure, SendOutcome]>)('%s → %s', async (failure, outcome) => {
    fake.failNext(failure);
    const result = await send();
    expect(result.outcome).toBe(outcome);
    expect(JSON.stringify(result)).not.toContain('xoxb');
  });

  it('a wrong token is invalid_auth → reauthorize', async () => {
    expect(await send('xoxb-wrong')).toMatchObject({ outcome: 'reauthorize', reason: 'Slack error: invalid_auth' });
  });

  it('no token at all → reauthorize without calling Slack', async () => {
    expect((await send('')).outcome).toBe('reauthorize');
    expect(fake.requests).toHaveLength(0);
  });

  it('429 ratelimited → retry honouring Retry-After', async () => {
    fake.failNext('ratelimited');
    expect(await send()).toEqual({
      outcome: 'retry',
      reason: 'Slack error: ratelimited (HTTP 429)',
      retry_after_ms: 7000,
    });
  });

  it('timeout → retry', async () => {
    fake.hangNext();
    expect(await send(undefined, 150)).toEqual({ outcome: 'retry', reason: 'timed out after 150 ms' });
  });

  it('OAuth v2: install URL and code exchange', async () => {
    const url = new URL(
      buildInstallUrl({ clientId: 'client-id', redirectUri: 'https://tocsin.example.com/cb', state: 'st4te' }),
    );
    expect(url.origin + url.pathname).toBe('https://slack.com/oauth/v2/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'client-id',
      scope: 'chat:write,chat:write.public',
      redirect_uri: 'https://tocsin.example.com/cb',
      state: 'st4te',
    });
    const ok = await exchangeCode({
      base: fake.url,
      clientId: 'client-id',
      clientSecret: 'client-secret',
      code: 'good-code',
      redirectUri: 'https://x/cb',
      fetch,
    });
    expect(ok).toMatchObject({
      ok: true,
      installation: { botToken: fake.botToken, team: { id: 'T0TEAM' }, botUserId: 'U0BOT' },
    });
    const bad = await exchangeCode({
      base: fake.url,
      clientId: 'client-id',
      clientSecret: 'client-secret',
      code: 'nope',
      redirectUri: 'https://x/cb',
      fetch,
    });
    expect(bad).toEqual({ ok: false, error: 'invalid_code' });
  });
});
