import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  startChatapp4BotFake,
  type Chatapp4BotFake,
  type Chatapp4BotFailure,
} from '../../../../../test/fakes/index.ts';
import {
  alertEvent,
  delivery,
  destinationRecord,
  providerContext,
  renderCtx,
} from '../../../../../test/fakes/alert-events.ts';
import type { DestinationRecord, SendOutcome } from '../destination.contract.ts';
import type { Chatapp4BotConfig } from './chatapp4_bot.config.ts';
import { chatapp4BotProvider as provider } from './chatapp4_bot.provider.ts';

describe('chatapp4_bot render', () => {
  const dest = destinationRecord('chatapp4_bot', { bot_token: '1:secret', chat_id: '42' });
  it.each([
    ['down', '🔴 <b>DOWN: API health</b>'],
    ['recovered', '✅ <b>RECOVERED: API health</b>'],
    ['anomaly_alert', '🟠 <b>Anomaly detected: API health</b>'],
  ] as const)('%s → HTML text', (type, head) => {
    const req = provider.render(alertEvent(type), dest, delivery(), renderCtx);
    expect(req).toMatchObject({ chat_id: '42', parse_mode: 'HTML', link_preview_options: { is_disabled: true } });
    expect(req.text.startsWith(head)).toBe(true);
    expect(req.text).toMatch(
      /<a href="https:\/\/tocsin.example.com\/(incidents\/inc_1">Incident #12|monitors\/mon_1">Open in Tocsin)<\/a>$/,
    );
  });
  it('escapes HTML in names and causes, and keeps to 4096 chars', () => {
    const req = provider.render(
      alertEvent('down', { cause: '<script>&' + 'x'.repeat(5000) }),
      dest,
      delivery(),
      renderCtx,
    );
    expect(req.text).toContain('&lt;script&gt;&amp;');
    expect(req.text.length).toBeLessThanOrEqual(4096);
  });
  it('uses the migrated chat id from state', () => {
    const migrated: DestinationRecord<Chatapp4BotConfig> = { ...dest, state: { chat_id: -100999 } };
    expect(provider.render(alertEvent('down'), migrated, delivery(), renderCtx).chat_id).toBe(-100999);
  });
});

describe('chatapp4_bot send (against the Telegram fake)', () => {
  let fake: Chatapp4BotFake;
  beforeAll(async () => {
    fake = await startChatapp4BotFake();
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  const send = async (
    options: {
      chatId?: string;
      token?: string;
      state?: Record<string, unknown>;
      timeoutMs?: number;
      cause?: string;
    } = {},
  ) => {
    const dest = destinationRecord(
      'chatapp4_bot',
      { bot_token: options.token ?? fake.botToken, chat_id: options.chatId ?? '42' },
      { state: options.state ?? {} },
    );
    const ctx = providerContext({
      providers: { chatapp4_bot: { base_url: fake.url } },
      timeoutMs: options.timeoutMs ?? 2000,
    });
    const event = alertEvent('down', options.cause ? { cause: options.cause } : {});
    return provider.send(provider.render(event, dest, delivery(), ctx), dest, delivery(), ctx);
  };

  it('sends HTML that Telegram parses, returns the message id', async () => {
    expect(await send({ cause: 'a < b & c > d' })).toEqual({ outcome: 'ok', provider_reference: '1' });
    expect(fake.requests[0]!.path).toBe(`/bot${fake.botToken}/sendMessage`);
    expect(fake.sent[0]!.text).toContain('a &lt; b &amp; c &gt; d');
  });

  it('group upgraded to supergroup → immediate retry with the new chat id in state_patch; the resend succeeds', async () => {
    fake.migrateChat('-1001234567890', '-1009876543210');
    const first = await send({ chatId: '-1001234567890' });
    expect(first).toMatchObject({ outcome: 'retry', retry_after_ms: 0, state_patch: { chat_id: -1009876543210 } });
    const second = await send({ chatId: '-1001234567890', state: first.outcome === 'retry' ? first.state_patch : {} });
    expect(second.outcome).toBe('ok');
    expect(fake.sent.at(-1)!.chatId).toBe('-1009876543210');
  });

  it.each([
    ['bot_blocked', 'destination_broken'],
    ['bot_kicked', 'destination_broken'],
    ['chat_not_found', 'destination_broken'],
    ['unauthorized', 'reauthorize'],
    ['bad_gateway', 'retry'],
  ] as Array<[Chatapp4BotFailure, SendOutcome]>)('%s → %s', async (failure, outcome) => {
    fake.failNext(failure);
    const result = await send();
    expect(result.outcome).toBe(outcome);
  });

  it('a wrong token → reauthorize, and the token never appears in the reason', async () => {
    const result = await send({ token: '999:WRONGTOKENWRONGTOKENWRONG' });
    expect(result.outcome).toBe('reauthorize');
    expect(JSON.stringify(result)).not.toContain('WRONGTOKEN');
  });

  it('an unknown chat → destination_broken', async () => {
    expect((await send({ chatId: '777' })).outcome).toBe('destination_broken');
  });

  it('429 → retry after parameters.retry_after', async () => {
    fake.failNext('too_many_requests');
    expect(await send()).toMatchObject({ outcome: 'retry', retry_after_ms: 5000 });
  });

  it('timeout → retry', async () => {
    fake.hangNext();
    expect(await send({ timeoutMs: 150 })).toEqual({ outcome: 'retry', reason: 'timed out after 150 ms' });
  });
});
