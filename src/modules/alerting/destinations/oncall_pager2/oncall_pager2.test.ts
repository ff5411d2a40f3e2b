import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  startOncallPager2Fake,
  type OncallPager2Fake,
  type OncallPager2Failure,
} from '../../../../../test/fakes/index.ts';
import {
  alertEvent,
  delivery,
  destinationRecord,
  providerContext,
  renderCtx,
} from '../../../../../test/fakes/alert-events.ts';
import type { EventType, SendOutcome } from '../destination.contract.ts';
import { oncallPager2Provider as provider } from './oncall_pager2.provider.ts';

describe('oncall_pager2 render', () => {
  const dest = destinationRecord('oncall_pager2', { api_key: 'secret', region: 'us' });
  it.each([
    ['down', 'trigger', 'P1'],
    ['still_down', 'trigger', 'P1'],
    ['cert_expiring', 'trigger', 'P3'],
    ['recovered', 'resolve', null],
    ['incident_acknowledged', 'acknowledge', null],
  ] as Array<[EventType, string, string | null]>)('%s → %s %s', (type, action, priority) => {
    const req = provider.render(alertEvent(type), dest, delivery(), renderCtx);
    expect(req.action).toBe(action);
    expect(req.action === 'trigger' ? req.body.priority : null).toBe(priority);
  });
  it('message ≤ 130 chars, alias per monitor', () => {
    const req = provider.render(alertEvent('down', { cause: 'x'.repeat(500) }), dest, delivery(), renderCtx);
    expect(req.alias).toBe('tocsin-mon_1');
    expect(req.action === 'trigger' && req.body.message.length).toBe(130);
  });
  it('validates region', () => {
    expect(provider.validateConfig({ api_key: 'k', region: 'asia' })).toEqual([
      { field: 'config.region', issue: 'must be one of us, eu' },
    ]);
  });
});

describe('oncall_pager2 send (against US and EU Opsgenie fakes)', () => {
  let us: OncallPager2Fake;
  let eu: OncallPager2Fake;
  beforeAll(async () => {
    [us, eu] = await Promise.all([startOncallPager2Fake(), startOncallPager2Fake()]);
  });
  afterAll(() => Promise.all([us.close(), eu.close()]));
  beforeEach(() => {
    us.reset();
    eu.reset();
  });

  const send = async (
    type: EventType = 'down',
    options: { region?: 'us' | 'eu'; key?: string; timeoutMs?: number } = {},
  ) => {
    const dest = destinationRecord('oncall_pager2', {
      api_key: options.key ?? us.apiKey,
      region: options.region ?? 'us',
    });
    const ctx = providerContext({
      providers: { oncall_pager2: { base_url: us.url, base_url_eu: eu.url } },
      timeoutMs: options.timeoutMs ?? 2000,
    });
    return provider.send(provider.render(alertEvent(type), dest, delivery(), ctx), dest, delivery(), ctx);
  };

  it('creates with GenieKey auth and closes by alias on recovery', async () => {
    expect(await send('down')).toMatchObject({ outcome: 'ok', provider_reference: expect.any(String) });
    expect(us.requests[0]!.headers.authorization).toBe(`GenieKey ${us.apiKey}`);
    expect(us.alerts.get('tocsin-mon_1')!.status).toBe('open');
    expect((await send('recovered')).outcome).toBe('ok');
    expect(us.requests[1]!.url).toBe('/v2/alerts/tocsin-mon_1/close?identifierType=alias');
    expect(us.alerts.get('tocsin-mon_1')!.status).toBe('closed');
  });

  it('EU region uses base_url_eu', async () => {
    expect((await send('down', { region: 'eu' })).outcome).toBe('ok');
    expect(eu.requests).toHaveLength(1);
    expect(us.requests).toHaveLength(0);
  });

  it('a wrong key → reauthorize without the key in the reason', async () => {
    const result = await send('down', { key: 'WRONGKEY-123' });
    expect(result.outcome).toBe('reauthorize');
    expect(JSON.stringify(result)).not.toContain('WRONGKEY');
  });

  it.each([
    ['forbidden', 'reauthorize'],
    ['payment_required', 'destination_broken'],
    ['unprocessable', 'payload_rejected'],
    ['server_error', 'retry'],
  ] as Array<[OncallPager2Failure, SendOutcome]>)('%s → %s', async (failure, outcome) => {
    us.failNext(failure);
    expect((await send()).outcome).toBe(outcome);
  });

  it('429 → retry with Retry-After', async () => {
    us.failNext('rate_limited');
    expect(await send()).toMatchObject({ outcome: 'retry', retry_after_ms: 10_000 });
  });

  it('timeout → retry', async () => {
    us.hangNext();
    expect(await send('down', { timeoutMs: 150 })).toEqual({ outcome: 'retry', reason: 'timed out after 150 ms' });
  });
});
