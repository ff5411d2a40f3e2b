import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  startChatapp1WebhookFake,
  type Chatapp1WebhookFake,
  type Chatapp1WebhookFailure,
} from '../../../../../test/fakes/index.ts';
import {
  alertEvent,
  delivery,
  destinationRecord,
  providerContext,
  refusedUrl,
  renderCtx,
} from '../../../../../test/fakes/alert-events.ts';
import type { SendOutcome } from '../destination.contract.ts';
import { chatapp1WebhookProvider as provider } from './chatapp1_webhook.provider.ts';

describe('chatapp1_webhook', () => {
  let fake: Chatapp1WebhookFake;
  beforeAll(async () => {
    fake = await startChatapp1WebhookFake();
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  const send = async (url = fake.webhookUrl, timeoutMs = 2000) => {
    const dest = destinationRecord('chatapp1_webhook', { url });
    const ctx = providerContext({ timeoutMs });
    return provider.send(provider.render(alertEvent('down'), dest, delivery(), ctx), dest, delivery(), ctx);
  };

  it.each([
    ['down', '🔴 DOWN: API health'],
    ['recovered', '✅ RECOVERED: API health'],
    ['significant_change', 'ℹ️ Significant dns change: API health'],
  ] as const)('renders %s as blocks + text fallback', (type, header) => {
    const body = provider.render(
      alertEvent(type),
      destinationRecord('chatapp1_webhook', { url: 'https://hooks.slack.com/services/T/B/x' }),
      delivery(),
      renderCtx,
    );
    expect(body.blocks[0]).toMatchObject({ type: 'header', text: { text: header } });
    expect(body.text.startsWith(header)).toBe(true);
    expect(body).not.toHaveProperty('channel');
  });

  it('the URL is the secret', () => {
    expect(provider.secretFields).toEqual(['url']);
    expect(provider.validateConfig({ url: 'http://hooks.slack.com/x' })).toEqual([
      { field: 'config.url', issue: 'must be an https URL' },
    ]);
    expect(provider.validateConfig({ url: 'https://hooks.slack.com/services/T/B/x' })).toEqual([]);
  });

  it('posts JSON and accepts 200 "ok"', async () => {
    expect(await send()).toEqual({ outcome: 'ok' });
    expect(fake.requests[0]!.json).toMatchObject({ text: expect.stringContaining('DOWN') });
  });

  it.each([
    ['invalid_payload', 'payload_rejected'],
    ['invalid_token', 'destination_broken'],
    ['action_prohibited', 'destination_broken'],
    ['no_service', 'destination_broken'],
    ['channel_is_archived', 'destination_broken'],
    ['rollup_error', 'retry'],
  ] as Array<[Chatapp1WebhookFailure, SendOutcome]>)('%s → %s, reason without the URL', async (failure, outcome) => {
    fake.failNext(failure);
    const result = await send();
    expect(result.outcome).toBe(outcome);
    expect(JSON.stringify(result)).toContain(failure);
    expect(JSON.stringify(result)).not.toContain('fakeWebhookSecret');
  });

  it('429 → retry with Retry-After', async () => {
    fake.failNext('rate_limited');
    expect(await send()).toEqual({
      outcome: 'retry',
      reason: 'Slack webhook rate limited (HTTP 429)',
      retry_after_ms: 3000,
    });
  });

  it('timeout and connection refused → retry', async () => {
    fake.hangNext();
    expect(await send(undefined, 150)).toEqual({ outcome: 'retry', reason: 'timed out after 150 ms' });
    const refused = await send(await refusedUrl());
    expect(refused).toEqual({ outcome: 'retry', reason: 'network error: ECONNREFUSED' });
  });
});
