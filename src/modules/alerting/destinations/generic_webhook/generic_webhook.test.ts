import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  startWebhookReceiver,
  type WebhookReceiver,
  type WebhookReceiverFailure,
} from '../../../../../test/fakes/index.ts';
import {
  T0,
  alertEvent,
  delivery,
  destinationRecord,
  providerContext,
  renderCtx,
} from '../../../../../test/fakes/alert-events.ts';
import type { DestinationRecord, SendOutcome } from '../destination.contract.ts';
import type { GenericWebhookConfig } from './generic_webhook.config.ts';
import { generateSigningSecret, signWebhook, verifyWebhook } from './generic_webhook.signing.ts';
import { genericWebhookProvider as provider } from './generic_webhook.provider.ts';

const NOW = T0 + 14 * 60_000;

describe('generic_webhook render', () => {
  const standard = destinationRecord('generic_webhook', { url: 'https://hooks.example.com/x' });
  const legacy: DestinationRecord<GenericWebhookConfig> = { ...standard, payload_format: 'legacy' };

  it('standard shape (DECISIONS §7)', () => {
    const req = provider.render(alertEvent('down'), standard, delivery(), renderCtx);
    expect(req.event).toBe('down');
    expect(JSON.parse(req.body)).toEqual({
      id: 'evt_down',
      event: 'down',
      product: 'Tocsin',
      timestamp: '2026-03-01T12:17:00.000Z',
      organization: { id: 'org_1', name: 'Acme' },
      destination: { id: 'dst_generic_webhook', name: 'Ops generic_webhook' },
      message: expect.stringContaining('HTTP 503 (expected 200)'),
      monitor: { id: 'mon_1', name: 'API health', target: 'https://api.example.com/health' },
      incident: { id: 'inc_1', number: 12, url: 'https://tocsin.example.com/incidents/inc_1' },
      data: {},
    });
    expect(JSON.parse(req.body).message).toContain('Incident #12: https://tocsin.example.com/incidents/inc_1');
  });

  it.each([
    ['down', 'monitor_down'],
    ['recovered', 'monitor_recovered'],
    ['still_down', 'still_down'],
    ['cert_expiring', 'cert_expiring'],
  ] as const)('legacy %s → %s with names as strings', (type, name) => {
    const req = provider.render(alertEvent(type), legacy, delivery(), renderCtx);
    const body = JSON.parse(req.body);
    expect(req.event).toBe(name);
    expect(body).toMatchObject({ event: name, organization: 'Acme', destination: 'Ops generic_webhook' });
  });

  it('test event has no monitor nor incident', () => {
    expect(JSON.parse(provider.render(alertEvent('test'), standard, delivery(), renderCtx).body)).toMatchObject({
      event: 'test',
      monitor: null,
      incident: null,
    });
  });
});

describe('signing helpers', () => {
  it('sign + verify round trip; tampering, wrong secret and replay fail', () => {
    const secret = generateSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const body = '{"a":1}';
    const headers = signWebhook({ secret, id: 'dlv_1', timestamp: 1_700_000_000, body });
    expect(headers['X-Service-Signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    const now = 1_700_000_000_000;
    expect(verifyWebhook({ secret, headers: { ...headers }, body, now })).toEqual({ ok: true });
    expect(verifyWebhook({ secret, headers: { ...headers }, body: '{"a":2}', now }).ok).toBe(false);
    expect(verifyWebhook({ secret: generateSigningSecret(), headers: { ...headers }, body, now }).ok).toBe(false);
    expect(verifyWebhook({ secret, headers: { ...headers }, body, now: now + 600_000 })).toEqual({
      ok: false,
      reason: 'timestamp outside tolerance',
    });
  });

  it('Standard Webhooks test vector (key = base64 after whsec_)', () => {
    // From the standard-webhooks spec/libraries test suite.
    const sig = signWebhook({
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      timestamp: 1614265330,
      body: '{"test": 2432232314}',
    });
    expect(sig['webhook-signature']).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });
});

describe('generic_webhook send (against the verifying receiver)', () => {
  const secret = generateSigningSecret();
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver({ secret, now: () => NOW });
  });
  afterAll(() => receiver.close());
  beforeEach(() => receiver.reset());

  const send = async (options: { timeoutMs?: number; signingSecret?: string | null; dlv?: string } = {}) => {
    const dest = destinationRecord('generic_webhook', { url: receiver.webhookUrl });
    const ctx = providerContext({
      timeoutMs: options.timeoutMs ?? 2000,
      signingSecret: options.signingSecret === null ? undefined : (options.signingSecret ?? secret),
      now: NOW,
    });
    const dlv = delivery(options.dlv ?? 'dlv_01');
    return provider.send(provider.render(alertEvent('down'), dest, dlv, ctx), dest, dlv, ctx);
  };

  it('POSTs the signed body with every header; the receiver verifies it', async () => {
    expect(await send({ dlv: 'dlv_abc' })).toEqual({ outcome: 'ok', provider_reference: 'HTTP 200' });
    const req = receiver.requests[0]!;
    expect(receiver.verifications[0]).toEqual({ ok: true });
    expect(req.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'Tocsin/0.1.0',
      'x-service-event': 'down',
      'x-service-delivery': 'dlv_abc',
      'webhook-id': 'dlv_abc',
      'webhook-timestamp': String(Math.floor(NOW / 1000)),
    });
    expect(req.json).toMatchObject({ event: 'down', product: 'Tocsin' });
  });

  it('a receiver with another secret rejects the signature', async () => {
    await send({ signingSecret: generateSigningSecret() });
    expect(receiver.verifications[0]).toEqual({ ok: false, reason: 'X-Service-Signature mismatch' });
  });

  it('no signing secret → destination_broken, nothing sent', async () => {
    expect((await send({ signingSecret: null })).outcome).toBe('destination_broken');
    expect(receiver.requests).toHaveLength(0);
  });

  it.each([
    ['gone', 'destination_broken'],
    ['server_error', 'retry'],
    ['bad_gateway', 'retry'],
    ['request_timeout', 'retry'],
    ['bad_request', 'payload_rejected'],
    ['unauthorized', 'payload_rejected'],
    ['redirect', 'destination_broken'],
  ] as Array<[WebhookReceiverFailure, SendOutcome]>)('%s → %s', async (failure, outcome) => {
    receiver.failNext(failure);
    expect((await send()).outcome).toBe(outcome);
  });

  it('410 reason says Gone', async () => {
    receiver.failNext('gone');
    expect(await send()).toEqual({ outcome: 'destination_broken', reason: 'HTTP 410 Gone' });
  });

  it('429 honours Retry-After in seconds and as an HTTP date', async () => {
    receiver.failNext('rate_limited');
    expect(await send()).toEqual({ outcome: 'retry', reason: 'HTTP 429', retry_after_ms: 120_000 });
    receiver.failNext({ status: 503, headers: { 'retry-after': new Date(NOW + 90_000).toUTCString() } });
    expect(await send()).toEqual({ outcome: 'retry', reason: 'HTTP 503', retry_after_ms: 90_000 });
  });

  it('timeout → retry; the same delivery id is reused on the retry', async () => {
    receiver.hangNext();
    expect(await send({ timeoutMs: 150, dlv: 'dlv_r' })).toEqual({
      outcome: 'retry',
      reason: 'timed out after 150 ms',
    });
    expect((await send({ dlv: 'dlv_r' })).outcome).toBe('ok');
    expect(receiver.requests.map((r) => r.headers['webhook-id'])).toEqual(['dlv_r', 'dlv_r']);
  });
});
