import { describe, expect, it } from 'vitest';
import { alertEvent, delivery, destinationRecord, renderCtx } from '../../../../test/fakes/alert-events.ts';
import type { EventType } from './destination.contract.ts';
import { isResolution } from './destination.message.ts';
import { createProviderRegistry, DESTINATION_TYPES, messageFor } from './index.ts';

/** An outbox payload as the intelligence module writes it (payloadOf in intelligence.service.ts). */
function payload(
  kind: EventType,
  fields: { category: string; severity: string; summary: string; before: unknown; after: unknown },
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    intelligence_event_id: `ine_${kind}`,
    monitor_name: 'API health',
    target: 'https://api.example.com/health',
    region_code: 'eu-west',
    kind,
    started_at: '2026-03-01T12:00:00.000Z',
    ended_at: null,
    ...fields,
    ...extra,
  };
}

/** Each intelligence event with its payload and the fragments a reader must find in every provider's rendering. */
const CASES: ReadonlyArray<{ type: EventType; data: Record<string, unknown>; expected: string[] }> = [
  {
    type: 'significant_change',
    data: payload('significant_change', {
      category: 'dns',
      severity: 'warning',
      summary: 'DNS A changed from 192.0.2.1 to 192.0.2.9.',
      before: { facet: 'dns:A', values: ['192.0.2.1'] },
      after: { facet: 'dns:A', values: ['192.0.2.9'] },
    }),
    expected: [
      'Significant dns change: API health',
      'Changed: dns:A (warning)',
      'From: 192.0.2.1',
      'To: 192.0.2.9',
      'DNS A changed from 192.0.2.1 to 192.0.2.9.',
      'Region: eu-west',
    ],
  },
  {
    type: 'performance_anomaly',
    data: payload(
      'performance_anomaly',
      {
        category: 'performance',
        severity: 'warning',
        summary: 'Response time 900 ms is above alert_latency_ms 300 ms (3 checks in a row).',
        before: { threshold_ms: 300 },
        after: { latency_ms: 900, threshold_ms: 300 },
      },
      { latency_ms: 900, threshold_ms: 300 },
    ),
    expected: ['Slow responses: API health', 'Latency: 900 ms (threshold 300 ms)', '(3 checks in a row)'],
  },
  {
    type: 'performance_recovered',
    data: payload(
      'performance_recovered',
      {
        category: 'performance',
        severity: 'info',
        summary: 'Response time back to 40 ms, within alert_latency_ms 300 ms (3 checks in a row; slowest was 900 ms).',
        before: { peak_ms: 900, threshold_ms: 300 },
        after: { latency_ms: 40, threshold_ms: 300 },
      },
      { latency_ms: 40, threshold_ms: 300 },
    ),
    expected: [
      'Response times back to normal: API health',
      'Latency: 40 ms (threshold 300 ms); slowest was 900 ms',
      'Response time back to 40 ms',
    ],
  },
  {
    type: 'anomaly_alert',
    data: payload(
      'anomaly_alert',
      {
        category: 'performance',
        severity: 'warning',
        summary: 'Latency rose from a usual 120 ms (± 15 ms) to 840 ms for 10 min (hourly baseline).',
        before: { expected_median_ms: 120, expected_mad_ms: 15 },
        after: { latency_ms: 840, baseline: 'hourly' },
      },
      { latency_ms: 840 },
    ),
    expected: ['Anomaly detected: API health', 'Latency: 840 ms (usual 120 ms ± 15 ms)', 'for 10 min'],
  },
  {
    type: 'anomaly_recovered',
    data: payload(
      'anomaly_recovered',
      {
        category: 'performance',
        severity: 'info',
        summary: 'Latency back to 130 ms, within the usual 120 ms (± 15 ms); the anomaly peaked at 900 ms.',
        before: { peak_ms: 900 },
        after: { latency_ms: 130, expected_median_ms: 120, expected_mad_ms: 15 },
      },
      { latency_ms: 130 },
    ),
    expected: ['Anomaly over: API health', 'Latency: 130 ms (usual 120 ms ± 15 ms); peaked at 900 ms'],
  },
  {
    type: 'anomaly_flapping',
    data: payload('anomaly_flapping', {
      category: 'performance',
      severity: 'warning',
      summary: 'Checks are flapping between normal and failing/slow: 42 % state change over the last 21 checks.',
      before: null,
      after: { percent_state_change: 42, flapping: true },
    }),
    expected: ['Flapping: API health', 'State changes: 42 % of recent checks', 'flapping between normal'],
  },
  {
    type: 'security_grade_downgraded',
    data: payload(
      'security_grade_downgraded',
      {
        category: 'security',
        severity: 'warning',
        summary: 'TLS grade dropped from A to C: TLS 1.0 offered; RSA key of 1024 bits.',
        before: { grade_kind: 'tls', grade: 'A' },
        after: { grade_kind: 'tls', grade: 'C', reasons: ['TLS 1.0 offered', 'RSA key of 1024 bits'] },
      },
      { grade: 'C', grade_kind: 'tls', previous_grade: 'A' },
    ),
    expected: [
      'Security grade dropped A → C: API health',
      'Grade (tls): A → C',
      'Reasons: TLS 1.0 offered, RSA key of 1024 bits',
    ],
  },
  {
    type: 'security_grade_recovered',
    data: payload(
      'security_grade_recovered',
      {
        category: 'security',
        severity: 'info',
        summary: 'TLS grade recovered from C to A (it was A before the drop).',
        before: { grade_kind: 'tls', grade: 'C' },
        after: { grade_kind: 'tls', grade: 'A', reasons: ['TLS 1.2 and 1.3 only'] },
      },
      { grade: 'A', grade_kind: 'tls', previous_grade: 'C' },
    ),
    expected: ['Security grade recovered to A: API health', 'Grade (tls): C → A', 'Reasons: TLS 1.2 and 1.3 only'],
  },
];

describe('intelligence events: the shared message', () => {
  it.each(CASES)('$type says what happened, from what to what', ({ type, data, expected }) => {
    const m = messageFor(alertEvent(type, { data }));
    const whole = `${m.title}\n${m.text}`;
    for (const fragment of expected) expect(whole).toContain(fragment);
  });

  it('a flapping event that stops is titled so', () => {
    const data = payload('anomaly_flapping', {
      category: 'performance',
      severity: 'info',
      summary: 'Flapping stopped: 8 % state change (stops at 20 %).',
      before: null,
      after: { percent_state_change: 8, flapping: false },
    });
    expect(messageFor(alertEvent('anomaly_flapping', { data })).title).toBe('Flapping stopped: API health');
  });

  it('a certificate or content change shows its summary, not fingerprints', () => {
    const data = payload('significant_change', {
      category: 'tls',
      severity: 'info',
      summary: 'Certificate renewed by Test CA for the same names.',
      before: { facet: 'tls:certificate', values: ['ab12'] },
      after: { facet: 'tls:certificate', values: ['cd34'] },
    });
    const text = messageFor(alertEvent('significant_change', { data })).text;
    expect(text).toContain('Certificate renewed by Test CA');
    expect(text).not.toContain('From: ab12');
  });
});

/**
 * What a provider deliberately renders without text: incident tools create incidents only (for `down`, `test` and an
 * `incident_opened` that produced no `down`, such as an intelligence incident: destination.skip.ts), never for the
 * intelligence event itself; and a PagerDuty resolve carries no payload by the Events API.
 */
function noTextByDesign(destinationType: string, type: EventType): 'null' | 'resolve' | null {
  if (destinationType === 'incident_tool1' || destinationType === 'incident_tool2') return 'null';
  if (destinationType === 'oncall_pager1' && isResolution(type)) return 'resolve';
  return null;
}

describe('intelligence events: every provider renders the summary fields', () => {
  const registry = createProviderRegistry();
  const destinationConfig = {
    url: 'https://chat.googleapis.com/v1/spaces/A/messages',
    channel_id: 'C1',
    chat_id: '1',
    severity_id: 's',
    address: 'a@b.co',
    region: 'us',
  };
  const table = DESTINATION_TYPES.flatMap((destinationType) => CASES.map((c) => ({ destinationType, ...c })));

  it.each(table)('$destinationType × $type', ({ destinationType, type, data, expected }) => {
    const provider = registry.get(destinationType)!;
    const rendered: unknown = provider.render(
      alertEvent(type, { data }),
      destinationRecord(destinationType, destinationConfig),
      delivery(),
      renderCtx,
    );
    const exception = noTextByDesign(destinationType, type);
    if (exception === 'null') return expect(rendered).toBeNull();
    if (exception === 'resolve') return expect(rendered).toMatchObject({ event_action: 'resolve' });
    // JSON escapes only quotes, backslashes and control characters: none of them is in the fragments.
    const text = JSON.stringify(rendered);
    for (const fragment of expected) expect(text).toContain(fragment);
  });
});
