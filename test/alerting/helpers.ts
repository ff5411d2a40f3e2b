import type { TestApp } from '../support/app.ts';
import { bearer } from '../support/app.ts';
import type { EventType } from '../../src/modules/events/index.ts';

/** Writes one outbox event the way the incidents module / check engine does (in a transaction). */
export async function recordEvent(
  t: TestApp,
  e: {
    organizationId: string;
    type: EventType;
    monitorId?: string | null;
    incidentId?: string | null;
    payload?: Record<string, unknown>;
    occurredAt?: number;
  },
): Promise<string> {
  const { events } = t.tocsin.services;
  const recorded = await t.tocsin.database.transaction((tx) =>
    events.record(tx, {
      organizationId: e.organizationId,
      type: e.type,
      monitorId: e.monitorId ?? null,
      incidentId: e.incidentId ?? null,
      occurredAt: e.occurredAt ?? t.clock.now(),
      payload: e.payload ?? {},
    }),
  );
  return recorded.id;
}

export async function api(
  t: TestApp,
  key: string,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  body?: unknown,
) {
  const res = await t.tocsin.app.inject({
    method,
    url,
    headers: { ...bearer(key), ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { payload: JSON.stringify(body) }),
  });
  return {
    status: res.statusCode,
    body: res.body ? (res.headers['content-type']?.includes('json') ? res.json() : res.body) : null,
  };
}

export const WEBHOOKS = '/api/v1/auth/organization/webhooks';

export async function createMonitor(t: TestApp, key: string, destinationIds: string[] = []): Promise<string> {
  const res = await api(t, key, 'POST', '/api/v1/monitors', {
    name: 'Checkout API',
    target: 'https://checkout.example.com/health',
    interval_seconds: 60,
    config: { alert_destination_ids: destinationIds },
  });
  if (res.status !== 201) throw new Error(`monitor create failed: ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}
