import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  startChatapp2WebhookFake,
  type Chatapp2WebhookFake,
  type Chatapp2WebhookFailure,
} from '../../../../../test/fakes/index.ts';
import {
  alertEvent,
  delivery,
  destinationRecord,
  providerContext,
  renderCtx,
} from '../../../../../test/fakes/alert-events.ts';
import type { SendOutcome } from '../destination.contract.ts';
import { chatapp2WebhookProvider as provider } from './chatapp2_webhook.provider.ts';

describe('chatapp2_webhook', () => {
  let fake: Chatapp2WebhookFake;
  beforeAll(async () => {
    fake = await startChatapp2WebhookFake();
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  const send = async (url = fake.webhookUrl, timeoutMs = 2000) => {
    const dest = destinationRecord('chatapp2_webhook', { url });
    const ctx = providerContext({ timeoutMs });
    return provider.send(provider.render(alertEvent('down'), dest, delivery(), ctx), dest, delivery(), ctx);
  };

  it.each([
    ['down', 0xe01e5a, '🔴 DOWN: API health'],
    ['recovered', 0x2eb886, '✅ RECOVERED: API health'],
    ['performance_anomaly', 0xf2a33a, '🟠 Slow responses: API health'],
  ] as const)('renders %s as a coloured embed', (type, color, title) => {
    const body = provider.render(
      alertEvent(type),
      destinationRecord('chatapp2_webhook', { url: 'https://discord.com/api/webhooks/1/x' }),
      delivery(),
      renderCtx,
    );
    expect(body.embeds[0]).toMatchObject({ color, title, timestamp: '2026-03-01T12:17:00Z' });
    expect(body.allowed_mentions).toEqual({ parse: [] });
  });

  it('truncates to Discord limits', () => {
    const long = 'x'.repeat(5000);
    const body = provider.render(
      alertEvent('down', { monitor: { id: 'm', name: long, target: long, type: 'http' } }),
      destinationRecord('chatapp2_webhook', { url: 'https://d/x' }),
      delivery(),
      renderCtx,
    );
    expect(body.embeds[0]!.title.length).toBeLessThanOrEqual(256);
    expect(body.embeds[0]!.description.length).toBeLessThanOrEqual(4096);
    expect(body.embeds[0]!.fields.every((f) => f.value.length <= 1024)).toBe(true);
  });

  it('posts with ?wait=true and records the message id', async () => {
    const result = await send();
    expect(result).toMatchObject({ outcome: 'ok', provider_reference: expect.stringMatching(/^\d+$/) });
    expect(fake.requests[0]!.query.wait).toBe('true');
  });

  it.each([
    ['unknown_webhook', 'destination_broken'],
    ['invalid_token', 'destination_broken'],
    ['missing_access', 'destination_broken'],
    ['invalid_form_body', 'payload_rejected'],
    ['too_large', 'payload_rejected'],
    ['bad_gateway', 'retry'],
  ] as Array<[Chatapp2WebhookFailure, SendOutcome]>)('%s → %s', async (failure, outcome) => {
    fake.failNext(failure);
    const result = await send();
    expect(result.outcome).toBe(outcome);
    expect(JSON.stringify(result)).not.toContain('fake-discord-webhook-token');
  });

  it('a deleted webhook (real 404 path) is destination_broken', async () => {
    expect((await send(`${fake.url}/api/webhooks/999/other`)).outcome).toBe('destination_broken');
  });

  it('429 → retry after the JSON retry_after (seconds, float)', async () => {
    fake.failNext('rate_limited');
    expect(await send()).toMatchObject({ outcome: 'retry', retry_after_ms: 1500 });
  });

  it('timeout → retry', async () => {
    fake.hangNext();
    expect(await send(undefined, 150)).toEqual({ outcome: 'retry', reason: 'timed out after 150 ms' });
  });
});
