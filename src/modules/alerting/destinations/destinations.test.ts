import { describe, expect, it } from 'vitest';
import { alertEvent, delivery, destinationRecord, renderCtx } from '../../../../test/fakes/alert-events.ts';
import {
  createBaseUrlResolver,
  createProviderRegistry,
  DESTINATION_TYPES,
  EVENT_TYPES,
  maskConfig,
  messageFor,
} from './index.ts';

describe('provider registry', () => {
  const registry = createProviderRegistry();
  it('has every destination type, keyed by its own type', () => {
    expect([...registry.keys()].sort()).toEqual([...DESTINATION_TYPES].sort());
    for (const [type, provider] of registry) expect(provider.type).toBe(type);
  });
  it.each(DESTINATION_TYPES)('%s rejects unknown config keys and non-objects', (type) => {
    const provider = registry.get(type)!;
    expect(provider.validateConfig({ surprise: true })).toContainEqual({
      field: 'config.surprise',
      issue: 'is not a known field',
    });
    expect(provider.validateConfig('nope')).toEqual([{ field: 'config', issue: 'must be an object' }]);
  });
  it.each(DESTINATION_TYPES)('%s renders every event type without throwing', (type) => {
    const provider = registry.get(type)!;
    const dest = destinationRecord(type, {
      url: 'https://chat.googleapis.com/v1/spaces/A/messages',
      channel_id: 'C1',
      chat_id: '1',
      severity_id: 's',
      address: 'a@b.co',
      region: 'us',
    });
    for (const event of EVENT_TYPES) {
      expect(() => provider.render(alertEvent(event), dest, delivery(), renderCtx)).not.toThrow();
      expect(() =>
        provider.render(alertEvent(event, { monitor: null, incident: null }), dest, delivery(), renderCtx),
      ).not.toThrow();
    }
  });
});

describe('messageFor', () => {
  it.each([
    ['down', 'DOWN: API health', 'critical'],
    ['still_down', 'STILL DOWN: API health', 'critical'],
    ['recovered', 'RECOVERED: API health', 'ok'],
    ['cert_expiring', 'Certificate expiring in 7 days: API health', 'warning'],
    ['security_grade_downgraded', 'Security grade dropped A → C: API health', 'warning'],
    ['security_grade_recovered', 'Security grade recovered to A: API health', 'ok'],
    ['significant_change', 'Significant dns change: API health', 'info'],
    ['performance_anomaly', 'Slow responses: API health', 'warning'],
    ['performance_recovered', 'Response times back to normal: API health', 'ok'],
    ['anomaly_alert', 'Anomaly detected: API health', 'warning'],
    ['anomaly_recovered', 'Anomaly over: API health', 'ok'],
    ['anomaly_flapping', 'Flapping: API health', 'warning'],
    ['incident_opened', 'Incident #12 opened: API health is down', 'critical'],
    ['incident_acknowledged', 'Incident #12 acknowledged: API health is down', 'info'],
    ['incident_resolved', 'Incident #12 resolved: API health is down', 'ok'],
    ['scheduled_report', 'Scheduled report: Weekly availability', 'info'],
    ['test', 'Test notification from Tocsin', 'info'],
    ['degraded', 'DEGRADED: API health', 'warning'],
    ['degraded_recovered', 'NO LONGER DEGRADED: API health', 'ok'],
  ] as const)('%s → "%s" (%s)', (type, title, severity) => {
    expect(messageFor(alertEvent(type))).toMatchObject({ title, severity });
  });
  it('counts in the right number: a certificate expiring in 1 day', () => {
    const event = alertEvent('cert_expiring');
    expect(messageFor({ ...event, data: { ...event.data, days_to_expiry: 1 } }).title).toBe(
      'Certificate expiring in 1 day: API health',
    );
  });
  it('names a domain registration expiring (a domain monitor’s cert_expiring, data.kind domain)', () => {
    const event = alertEvent('cert_expiring');
    const message = messageFor({
      ...event,
      data: { ...event.data, kind: 'domain', expires_at: '2026-03-08T12:00:00Z' },
    });
    expect(message.title).toBe('Domain registration expiring in 7 days: API health');
    expect(message.text).toContain('Registration expires: 2026-03-08T12:00:00Z');
  });
  it('down text: monitor, cause, since (relative + RFC 3339), incident link', () => {
    expect(messageFor(alertEvent('down')).text).toBe(
      [
        'Monitor: API health (https://api.example.com/health)',
        'Cause: HTTP 503 (expected 200)',
        'Down for 14m (since 2026-03-01T12:03:00Z)',
        'Incident #12: https://tocsin.example.com/incidents/inc_1',
        'Organization: Acme · 2026-03-01T12:17:00Z',
      ].join('\n'),
    );
  });
});

describe('degraded on the pager types (DECISIONS §20)', () => {
  const registry = createProviderRegistry();
  it("oncall_pager1: degraded triggers a warning on the monitor's own key, degraded_recovered resolves it", () => {
    const pager = registry.get('oncall_pager1')!;
    const dest = destinationRecord('oncall_pager1', { integration_key: 'k'.repeat(32) });
    const slow = {
      ...alertEvent('degraded'),
      cause: 'checks slower than 800 ms',
      data: { latency_ms: 950, threshold_ms: 800 },
    };
    const trigger = pager.render(slow, dest, delivery(), renderCtx) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- the provider's JSON body
    expect(trigger).toMatchObject({
      event_action: 'trigger',
      dedup_key: 'tocsin-mon_1',
      payload: { severity: 'warning', summary: 'DEGRADED: API health – checks slower than 800 ms', class: 'degraded' },
    });
    const down = pager.render(alertEvent('down'), dest, delivery(), renderCtx) as Record<string, unknown>;
    expect(down.dedup_key).toBe('tocsin-mon_1'); // degraded then down: the same alert
    const over = pager.render(alertEvent('degraded_recovered'), dest, delivery(), renderCtx) as Record<string, unknown>;
    expect(over).toMatchObject({ event_action: 'resolve', dedup_key: 'tocsin-mon_1' });
  });
  it('the text says it is not an outage and how long it lasted', () => {
    const slow = {
      ...alertEvent('degraded'),
      cause: 'checks slower than 800 ms',
      data: { latency_ms: 950, threshold_ms: 800 },
    };
    expect(messageFor(slow).text).toContain('Latency: 950 ms (degraded above 800 ms)');
    expect(messageFor(slow).text).toContain('Not an outage');
    const over = { ...alertEvent('degraded_recovered'), since: Date.parse('2026-03-01T12:03:00Z') };
    expect(messageFor(over).text).toContain(
      'Back to normal after 14m of degraded performance (degraded since 2026-03-01T12:03:00Z)',
    );
  });
});

describe('helpers', () => {
  it('baseUrl: defaults, overrides, EU', () => {
    const resolve = createBaseUrlResolver({ oncall_pager1: { base_url: 'http://127.0.0.1:9/' } });
    expect(resolve('chatapp1_channel')).toBe('https://slack.com');
    expect(resolve('oncall_pager1')).toBe('http://127.0.0.1:9');
    expect(resolve('oncall_pager2', 'eu')).toBe('https://api.eu.opsgenie.com');
    expect(() => resolve('generic_webhook')).toThrow(/URL in its config/);
  });
  it('maskConfig hides secrets, keeps the rest', () => {
    const registry = createProviderRegistry();
    expect(maskConfig(registry.get('chatapp4_bot')!, { bot_token: '123456:ABCDEFGHIJKLMNOP', chat_id: '42' })).toEqual({
      bot_token: '****MNOP',
      chat_id: '42',
    });
    expect(maskConfig(registry.get('chatapp2_webhook')!, { url: 'https://discord.com/api/webhooks/1/tok' })).toEqual({
      url: 'https://discord.com/api/****',
    });
  });
});
