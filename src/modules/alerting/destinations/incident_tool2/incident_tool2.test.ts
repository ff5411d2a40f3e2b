import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  startIncidentTool2Fake,
  type IncidentTool2Fake,
  type IncidentTool2Failure,
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
import { incidentTool2Provider as provider } from './incident_tool2.provider.ts';

const INTELLIGENCE_INCIDENT = {
  id: 'inc_7',
  number: 13,
  url: 'https://tocsin.example.com/incidents/inc_7',
  title: 'Slow responses: API health',
  opened_at: Date.parse('2026-03-01T12:03:00Z'),
};

describe('incident_tool2 render', () => {
  const dest = destinationRecord('incident_tool2', { api_key: 'secret' });
  it.each([
    ['down', 'normal'],
    ['test', 'test'],
    ['recovered', null],
    ['incident_resolved', null],
    ['still_down', null],
  ] as Array<[EventType, string | null]>)('%s → kind %s', (type, kind) => {
    const req = provider.render(alertEvent(type), dest, delivery(), renderCtx);
    expect(req?.data.attributes.kind ?? null).toBe(kind);
  });
  it('JSON:API body for down', () => {
    expect(provider.render(alertEvent('down'), dest, delivery(), renderCtx)).toMatchObject({
      data: {
        type: 'incidents',
        attributes: {
          title: 'API health is down',
          started_at: '2026-03-01T12:03:00Z',
          url: 'https://tocsin.example.com/incidents/inc_1',
        },
      },
    });
  });
});

describe('incident_tool2 send (against the Rootly fake)', () => {
  let fake: IncidentTool2Fake;
  beforeAll(async () => {
    fake = await startIncidentTool2Fake();
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  const send = async (type: EventType = 'down', options: { key?: string; timeoutMs?: number } = {}) => {
    const dest = destinationRecord('incident_tool2', { api_key: options.key ?? fake.apiKey });
    const ctx = providerContext({
      providers: { incident_tool2: { base_url: fake.url } },
      timeoutMs: options.timeoutMs ?? 2000,
    });
    return provider.send(provider.render(alertEvent(type), dest, delivery(), ctx), dest, delivery(), ctx);
  };

  it('creates an incident (201) with the JSON:API content type', async () => {
    expect(await send()).toEqual({ outcome: 'ok', provider_reference: fake.incidents[0]!.id });
    expect(fake.requests[0]!.headers['content-type']).toBe('application/vnd.api+json');
  });

  it('recovered is never auto-resolved', async () => {
    expect(await send('recovered')).toEqual({ outcome: 'ok', provider_reference: INCIDENT_TOOL_SKIP_REFERENCE });
    expect(fake.requests).toHaveLength(0);
  });

  it('wrong key → reauthorize', async () => {
    expect((await send('down', { key: 'bad' })).outcome).toBe('reauthorize');
  });

  it.each([
    ['required_field', 'payload_rejected'],
    ['not_found', 'destination_broken'],
    ['server_error', 'retry'],
    ['rate_limited', 'retry'],
  ] as Array<[IncidentTool2Failure, SendOutcome]>)('%s → %s', async (failure, outcome) => {
    fake.failNext(failure);
    expect((await send()).outcome).toBe(outcome);
  });

  it('429 with Retry-After', async () => {
    fake.failNext({
      status: 429,
      headers: { 'retry-after': '20' },
      body: { errors: [{ title: 'Request Limit Exceeded' }] },
    });
    expect(await send()).toMatchObject({ outcome: 'retry', retry_after_ms: 20_000 });
  });

  it('an intelligence incident creates a Rootly incident labelled with its source; the event itself does not', async () => {
    const dest = destinationRecord('incident_tool2', { api_key: fake.apiKey });
    const ctx = providerContext({ providers: { incident_tool2: { base_url: fake.url } } });
    const opened = alertEvent('incident_opened', {
      incident: INTELLIGENCE_INCIDENT,
      cause: '3 checks above alert_latency_ms 800 ms (2,400 ms).',
      data: { source: 'intelligence', title: INTELLIGENCE_INCIDENT.title },
    });
    const before = fake.incidents.length; // the fake keeps incidents across reset()
    for (const event of [alertEvent('performance_anomaly'), opened])
      await provider.send(provider.render(event, dest, delivery(event.id), ctx), dest, delivery(event.id), ctx);
    expect(fake.incidents.slice(before)).toHaveLength(1);
    expect(fake.incidents[before]!.attributes).toMatchObject({
      title: 'Incident #13 opened: Slow responses: API health',
      summary: expect.stringContaining('alert_latency_ms 800 ms'),
      kind: 'normal',
      labels: { source: 'tocsin', tocsin_monitor: 'mon_1', tocsin_incident_source: 'intelligence' },
    });
  });

  it('timeout → retry', async () => {
    fake.hangNext();
    expect(await send('down', { timeoutMs: 150 })).toEqual({ outcome: 'retry', reason: 'timed out after 150 ms' });
  });
});
