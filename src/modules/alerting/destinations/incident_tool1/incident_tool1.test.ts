import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  startIncidentTool1Fake,
  type IncidentTool1Fake,
  type IncidentTool1Failure,
} from '../../../../../test/fakes/index.ts';
import {
  alertEvent,
  delivery,
  destinationRecord,
  providerContext,
  renderCtx,
} from '../../../../../test/fakes/alert-events.ts';
import type { EventType, SendOutcome } from '../destination.contract.ts';
import { INCIDENT_TOOL_SKIP_REFERENCE } from '../destination.skip.ts';
import { incidentTool1Provider as provider } from './incident_tool1.provider.ts';

const INTELLIGENCE_INCIDENT = {
  id: 'inc_7',
  number: 13,
  url: 'https://tocsin.example.com/incidents/inc_7',
  title: 'Latency anomaly: API health',
  opened_at: Date.parse('2026-03-01T12:03:00Z'),
};

describe('incident_tool1 render', () => {
  const dest = destinationRecord('incident_tool1', { api_key: 'secret', severity_id: 'sev_1' });
  it.each([
    ['down', 'standard'],
    ['test', 'test'],
    ['recovered', null],
    ['still_down', null],
    ['incident_resolved', null],
    ['cert_expiring', null],
  ] as Array<[EventType, string | null]>)('%s → %s', (type, mode) => {
    const req = provider.render(alertEvent(type), dest, delivery('dlv_42'), renderCtx);
    expect(req?.mode ?? null).toBe(mode);
    if (req) expect(req).toMatchObject({ idempotency_key: 'dlv_42', visibility: 'public', severity_id: 'sev_1' });
  });
  it('incident_opened creates only for incidents that produced no down (no monitor, or not source monitor)', () => {
    expect(provider.render(alertEvent('incident_opened'), dest, delivery(), renderCtx)).toBeNull();
    const opened = (source: string) => alertEvent('incident_opened', { data: { source } });
    expect(provider.render(opened('monitor'), dest, delivery(), renderCtx)).toBeNull();
    for (const source of ['intelligence', 'api', 'manual'])
      expect(provider.render(opened(source), dest, delivery(), renderCtx)).toMatchObject({ mode: 'standard' });
    for (const type of ['anomaly_alert', 'performance_anomaly', 'security_grade_downgraded'] as EventType[])
      expect(provider.render(alertEvent(type), dest, delivery(), renderCtx)).toBeNull();
    expect(
      provider.render(alertEvent('incident_opened', { monitor: null }), dest, delivery(), renderCtx),
    ).toMatchObject({ name: 'Incident #12 opened: API health is down' });
  });
  it('down: name and summary', () => {
    expect(provider.render(alertEvent('down'), dest, delivery(), renderCtx)).toMatchObject({
      name: 'API health is down',
      summary: expect.stringContaining('HTTP 503'),
    });
  });
});

describe('incident_tool1 send (against the incident.io fake)', () => {
  let fake: IncidentTool1Fake;
  beforeAll(async () => {
    fake = await startIncidentTool1Fake();
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  const send = async (
    type: EventType = 'down',
    options: { key?: string; severity?: string; timeoutMs?: number; dlv?: string } = {},
  ) => {
    const dest = destinationRecord('incident_tool1', {
      api_key: options.key ?? fake.apiKey,
      severity_id: options.severity ?? fake.severityIds[0],
    });
    const ctx = providerContext({
      providers: { incident_tool1: { base_url: fake.url } },
      timeoutMs: options.timeoutMs ?? 2000,
    });
    const dlv = delivery(options.dlv ?? 'dlv_1');
    return provider.send(provider.render(alertEvent(type), dest, dlv, ctx), dest, dlv, ctx);
  };

  it('creates an incident; a retry of the same delivery is idempotent', async () => {
    const first = await send('down', { dlv: 'dlv_idem' });
    const again = await send('down', { dlv: 'dlv_idem' });
    expect(first).toEqual({ outcome: 'ok', provider_reference: fake.incidents[0]!.id });
    expect(again).toEqual(first);
    expect(fake.incidents).toHaveLength(1);
    expect(fake.requests[0]!.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
  });

  it('recovered sends nothing and says so', async () => {
    expect(await send('recovered')).toEqual({ outcome: 'ok', provider_reference: INCIDENT_TOOL_SKIP_REFERENCE });
    expect(fake.requests).toHaveLength(0);
  });

  it('wrong key → reauthorize; unknown severity → payload_rejected', async () => {
    expect((await send('down', { key: 'nope' })).outcome).toBe('reauthorize');
    expect(await send('down', { severity: 'sev_unknown' })).toMatchObject({
      outcome: 'payload_rejected',
      reason: expect.stringContaining('severity_id'),
    });
  });

  it.each([
    ['forbidden', 'reauthorize'],
    ['validation_error', 'payload_rejected'],
    ['server_error', 'retry'],
  ] as Array<[IncidentTool1Failure, SendOutcome]>)('%s → %s', async (failure, outcome) => {
    fake.failNext(failure);
    expect((await send()).outcome).toBe(outcome);
  });

  it('429 → retry with Retry-After', async () => {
    fake.failNext('rate_limited');
    expect(await send()).toMatchObject({ outcome: 'retry', retry_after_ms: 12_000 });
  });

  it('an intelligence incident (anomaly with intelligence_incidents) creates an incident; the event itself does not', async () => {
    const dest = destinationRecord('incident_tool1', { api_key: fake.apiKey, severity_id: fake.severityIds[0] });
    const ctx = providerContext({ providers: { incident_tool1: { base_url: fake.url } } });
    const opened = alertEvent('incident_opened', {
      incident: INTELLIGENCE_INCIDENT,
      cause: 'Latency 840 ms, usually 120 ms ± 15 ms since 12:03.',
      data: { source: 'intelligence', title: INTELLIGENCE_INCIDENT.title },
    });
    const before = fake.incidents.length; // the fake keeps incidents across reset()
    for (const event of [alertEvent('anomaly_alert'), opened])
      await provider.send(provider.render(event, dest, delivery(event.id), ctx), dest, delivery(event.id), ctx);
    expect(fake.incidents.slice(before)).toHaveLength(1);
    expect(fake.incidents[before]!.body).toMatchObject({
      name: 'Incident #13 opened: Latency anomaly: API health',
      summary: expect.stringContaining('Latency 840 ms'),
      mode: 'standard',
    });
  });

  it('timeout → retry', async () => {
    fake.hangNext();
    expect(await send('down', { timeoutMs: 150 })).toEqual({ outcome: 'retry', reason: 'timed out after 150 ms' });
  });
});
