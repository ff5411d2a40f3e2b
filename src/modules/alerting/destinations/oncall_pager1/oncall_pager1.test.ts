import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  startOncallPager1Fake,
  type OncallPager1Fake,
  type OncallPager1Failure,
} from '../../../../../test/fakes/index.ts';
import {
  alertEvent,
  delivery,
  destinationRecord,
  providerContext,
  renderCtx,
} from '../../../../../test/fakes/alert-events.ts';
import type { EventType, SendOutcome } from '../destination.contract.ts';
import { oncallPager1Provider as provider } from './oncall_pager1.provider.ts';

describe('oncall_pager1 render', () => {
  const dest = destinationRecord('oncall_pager1', { integration_key: 'k'.repeat(32) });
  it.each([
    ['down', 'trigger', 'tocsin-mon_1', 'critical'],
    ['still_down', 'trigger', 'tocsin-mon_1', 'critical'],
    ['recovered', 'resolve', 'tocsin-mon_1', null],
    ['incident_acknowledged', 'acknowledge', 'tocsin-mon_1', null],
    ['cert_expiring', 'trigger', 'tocsin-mon_1-cert', 'warning'],
    ['security_grade_recovered', 'resolve', 'tocsin-mon_1-security-grade', null],
    ['performance_anomaly', 'trigger', 'tocsin-mon_1-performance', 'warning'],
    ['test', 'trigger', 'tocsin-test-dst_oncall_pager1', 'info'],
  ] as Array<[EventType, string, string, string | null]>)('%s → %s %s (%s)', (type, action, key, severity) => {
    const req = provider.render(alertEvent(type), dest, delivery(), renderCtx);
    expect(req.event_action).toBe(action);
    expect(req.dedup_key).toBe(key);
    expect(req.payload?.severity ?? null).toBe(severity);
    expect(JSON.stringify(req)).not.toContain('kkkk');
  });
  it('down payload: summary with cause, source host, details', () => {
    const req = provider.render(alertEvent('down'), dest, delivery(), renderCtx);
    expect(req.payload).toMatchObject({
      summary: 'DOWN: API health – HTTP 503 (expected 200)',
      source: 'api.example.com',
      timestamp: '2026-03-01T12:17:00Z',
      component: 'http',
      custom_details: { cause: 'HTTP 503 (expected 200)', down_since: '2026-03-01T12:03:00Z', incident_number: 12 },
    });
  });
  it('validates a 32-char key', () => {
    expect(provider.validateConfig({ integration_key: 'short' })).toHaveLength(1);
  });
});

describe('oncall_pager1 send (against the PagerDuty fake)', () => {
  let fake: OncallPager1Fake;
  beforeAll(async () => {
    fake = await startOncallPager1Fake();
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  const send = async (type: EventType = 'down', key = fake.integrationKey, timeoutMs = 2000) => {
    const dest = destinationRecord('oncall_pager1', { integration_key: key });
    const ctx = providerContext({ providers: { oncall_pager1: { base_url: fake.url } }, timeoutMs });
    return provider.send(provider.render(alertEvent(type), dest, delivery(), ctx), dest, delivery(), ctx);
  };

  it('down triggers, still_down re-triggers the same alert, recovered resolves it', async () => {
    expect(await send('down')).toEqual({ outcome: 'ok', provider_reference: 'tocsin-mon_1' });
    expect(await send('still_down')).toMatchObject({ outcome: 'ok' });
    expect(fake.alerts.get('tocsin-mon_1')).toMatchObject({ status: 'triggered', triggers: 2 });
    expect(await send('recovered')).toMatchObject({ outcome: 'ok' });
    expect(fake.alerts.get('tocsin-mon_1')!.status).toBe('resolved');
    expect(fake.requests[0]!.json).toMatchObject({
      routing_key: fake.integrationKey,
      event_action: 'trigger',
      client: 'Tocsin',
    });
  });

  it('a wrong integration key → reauthorize, key not in the reason', async () => {
    const result = await send('down', 'Z'.repeat(32));
    expect(result.outcome).toBe('reauthorize');
    expect(JSON.stringify(result)).not.toContain('ZZZZ');
  });

  it.each([
    ['invalid_event', 'payload_rejected'],
    ['throttled', 'retry'],
    ['server_error', 'retry'],
  ] as Array<[OncallPager1Failure, SendOutcome]>)('%s → %s', async (failure, outcome) => {
    fake.failNext(failure);
    expect((await send()).outcome).toBe(outcome);
  });

  it('429 with Retry-After', async () => {
    fake.failNext({ status: 429, headers: { 'retry-after': '30' }, body: { status: 'throttle event' } });
    expect(await send()).toMatchObject({ outcome: 'retry', retry_after_ms: 30_000 });
  });

  it('timeout → retry', async () => {
    fake.hangNext();
    expect(await send('down', undefined, 150)).toEqual({ outcome: 'retry', reason: 'timed out after 150 ms' });
  });
});
