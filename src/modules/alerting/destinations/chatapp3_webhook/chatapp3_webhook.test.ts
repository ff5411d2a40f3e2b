import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  startChatapp3WebhookFake,
  type Chatapp3WebhookFake,
  type Chatapp3WebhookFailure,
} from '../../../../../test/fakes/index.ts';
import {
  alertEvent,
  delivery,
  destinationRecord,
  providerContext,
  renderCtx,
} from '../../../../../test/fakes/alert-events.ts';
import type { SendOutcome } from '../destination.contract.ts';
import { isGoogleChatUrl } from './chatapp3_webhook.render.ts';
import { chatapp3WebhookProvider as provider } from './chatapp3_webhook.provider.ts';

describe('chatapp3_webhook render', () => {
  it.each([
    ['https://prod-12.westeurope.logic.azure.com:443/workflows/abc/triggers/manual/paths/invoke?sig=x', false],
    ['https://chat.googleapis.com/v1/spaces/AAA/messages?key=k&token=t', true],
    ['http://127.0.0.1:4000/v1/spaces/AAA/messages?token=t', true],
  ])('%s → google chat: %s', (url, google) => {
    expect(isGoogleChatUrl(url)).toBe(google);
  });

  it.each([
    ['down', 'attention'],
    ['recovered', 'good'],
    ['cert_expiring', 'warning'],
  ] as const)('Teams %s → Adaptive Card 1.4, container style %s', (type, style) => {
    const req = provider.render(
      alertEvent(type),
      destinationRecord('chatapp3_webhook', { url: 'https://x.logic.azure.com/workflows/1' }),
      delivery(),
      renderCtx,
    );
    expect(req.kind).toBe('teams');
    const card = (
      req.body.attachments as Array<{
        contentType: string;
        content: { version: string; body: Array<{ style?: string }> };
      }>
    )[0]!;
    expect(card.contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(card.content.version).toBe('1.4');
    expect(card.content.body[0]!.style).toBe(style);
  });

  it('Google Chat: cardsV2 + text, threaded per incident, requestId = delivery id', () => {
    const req = provider.render(
      alertEvent('recovered'),
      destinationRecord('chatapp3_webhook', { url: 'https://chat.googleapis.com/v1/spaces/A/messages?token=t' }),
      delivery('dlv_9'),
      renderCtx,
    );
    expect(req).toMatchObject({
      kind: 'google_chat',
      query: { messageReplyOption: 'REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD', requestId: 'dlv_9' },
      body: { thread: { threadKey: 'tocsin-inc_1' }, text: expect.stringContaining('*✅ RECOVERED: API health*') },
    });
  });
});

describe('chatapp3_webhook send (against the Teams / Google Chat fake)', () => {
  let fake: Chatapp3WebhookFake;
  beforeAll(async () => {
    fake = await startChatapp3WebhookFake();
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  const send = async (url: string, timeoutMs = 2000, dlv = 'dlv_1') => {
    const dest = destinationRecord('chatapp3_webhook', { url });
    const ctx = providerContext({ timeoutMs });
    return provider.send(provider.render(alertEvent('down'), dest, delivery(dlv), ctx), dest, delivery(dlv), ctx);
  };

  it('Teams: 202 accepted', async () => {
    expect(await send(fake.teamsUrl)).toEqual({ outcome: 'ok' });
    expect(fake.requests[0]!.query.sig).toBe('fakeSignature123');
  });

  it('Google Chat: 200 with message name; a retried delivery does not duplicate', async () => {
    const first = await send(fake.googleChatUrl, 2000, 'dlv_same');
    const again = await send(fake.googleChatUrl, 2000, 'dlv_same');
    expect(first).toEqual({ outcome: 'ok', provider_reference: 'spaces/AAAAfakeSpace/messages/msg1' });
    expect(again).toEqual(first);
    expect(fake.chatMessages).toHaveLength(1);
    expect(fake.chatMessages[0]!.threadKey).toBe('tocsin-inc_1');
  });

  it.each([
    ['teams', 'teams_flow_deleted', 'destination_broken'],
    ['teams', 'teams_bad_request', 'payload_rejected'],
    ['teams', 'teams_legacy_failure', 'payload_rejected'],
    ['teams', 'server_error', 'retry'],
    ['chat', 'chat_invalid_argument', 'payload_rejected'],
    ['chat', 'chat_not_found', 'destination_broken'],
    ['chat', 'chat_permission_denied', 'destination_broken'],
    ['chat', 'chat_rate_limited', 'retry'],
  ] as Array<['teams' | 'chat', Chatapp3WebhookFailure, SendOutcome]>)(
    '%s %s → %s',
    async (which, failure, outcome) => {
      fake.failNext(failure);
      const result = await send(which === 'teams' ? fake.teamsUrl : fake.googleChatUrl);
      expect(result.outcome).toBe(outcome);
      expect(JSON.stringify(result)).not.toMatch(/fakeSignature|fakeChatToken/);
    },
  );

  it('wrong sig / token → destination_broken', async () => {
    expect((await send(fake.teamsUrl.replace('fakeSignature123', 'bad'))).outcome).toBe('destination_broken');
    expect((await send(fake.googleChatUrl.replace('fakeChatToken456', 'bad'))).outcome).toBe('destination_broken');
  });

  it('Teams 429 → retry with Retry-After', async () => {
    fake.failNext('teams_throttled');
    expect(await send(fake.teamsUrl)).toEqual({ outcome: 'retry', reason: 'Teams HTTP 429', retry_after_ms: 4000 });
  });

  it('timeout → retry', async () => {
    fake.hangNext();
    expect(await send(fake.teamsUrl, 150)).toEqual({ outcome: 'retry', reason: 'timed out after 150 ms' });
  });
});
