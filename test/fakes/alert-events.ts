/** Fixtures for destination tests: a sample AlertEvent per type, a DestinationRecord, a ProviderContext. */
import {
  createProviderContext,
  type AlertEvent,
  type DestinationRecord,
  type DestinationType,
  type EventType,
  type Mailer,
  type ProviderContext,
  type ProviderEndpoints,
} from '../../src/modules/alerting/destinations/index.ts';

export const T0 = Date.parse('2026-03-01T12:03:00Z');
export const PUBLIC_URL = 'https://tocsin.example.com';

const DATA: Partial<Record<EventType, Record<string, unknown>>> = {
  cert_expiring: { days_to_expiry: 7, expires_at: Date.parse('2026-03-08T12:00:00Z') },
  security_grade_downgraded: { previous_grade: 'A', grade: 'C' },
  security_grade_recovered: { previous_grade: 'C', grade: 'A' },
  significant_change: { category: 'dns', summary: 'A record changed from 192.0.2.1 to 192.0.2.9' },
  performance_anomaly: { latency_ms: 2400, threshold_ms: 800 },
  performance_recovered: { latency_ms: 210, threshold_ms: 800 },
  anomaly_alert: { summary: 'p95 latency 4.1σ above baseline' },
  scheduled_report: {
    report_name: 'Weekly availability',
    period: '2026-02-22 – 2026-03-01',
    report_url: 'https://tocsin.example.com/reports/r1',
  },
};

/** A realistic event: the API health monitor went down 14 minutes before the event (for down/recovered/still_down). */
export function alertEvent(type: EventType, overrides: Partial<AlertEvent> = {}): AlertEvent {
  const downish = type === 'down' || type === 'still_down' || type === 'recovered' || type.startsWith('incident_');
  return {
    id: `evt_${type}`,
    type,
    occurred_at: T0 + 14 * 60_000,
    organization: { id: 'org_1', name: 'Acme' },
    monitor:
      type === 'test' || type === 'scheduled_report'
        ? null
        : { id: 'mon_1', name: 'API health', target: 'https://api.example.com/health', type: 'http' },
    incident: downish
      ? { id: 'inc_1', number: 12, url: `${PUBLIC_URL}/incidents/inc_1`, title: 'API health is down', opened_at: T0 }
      : null,
    cause: downish ? 'HTTP 503 (expected 200)' : null,
    since: downish ? T0 : null,
    data: DATA[type] ?? {},
    ...overrides,
  };
}

/** A record with `config` typed as given, so a provider's render and send accept it as their own type's config. */
export function destinationRecord<const C extends Record<string, unknown>>(
  type: DestinationType,
  config: C,
  overrides: Partial<DestinationRecord<C>> = {},
): DestinationRecord<C> {
  return { id: `dst_${type}`, name: `Ops ${type}`, type, config, state: {}, ...overrides };
}

export function delivery(id = 'dlv_0000000001', attempt = 1): { id: string; attempt: number } {
  return { id, attempt };
}

export function providerContext(
  options: {
    providers?: ProviderEndpoints;
    timeoutMs?: number;
    mailer?: Mailer;
    signingSecret?: string;
    now?: number;
  } = {},
): ProviderContext {
  const ctx = createProviderContext({
    providers: options.providers,
    publicUrl: PUBLIC_URL,
    version: '0.1.0',
    now: () => options.now ?? T0 + 14 * 60_000,
    timeoutMs: options.timeoutMs ?? 2_000,
    mailer: options.mailer,
  });
  return options.signingSecret ? { ...ctx, signingSecret: options.signingSecret } : ctx;
}

export const renderCtx = { publicUrl: PUBLIC_URL, now: () => T0 + 14 * 60_000 };

/** A URL on 127.0.0.1 where nothing listens (connection refused), with a secret-looking path. */
export async function refusedUrl(path = '/services/T/B/secretpart'): Promise<string> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}${path}`;
}
