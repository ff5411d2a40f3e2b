import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Observation } from '../../src/modules/checks/index.ts';
import { bearer, createTestApp, ManualClock, type TestApp } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { rows } from './engine.helpers.ts';

const DAY = 86_400_000;

function tlsObservation(at: number, days: number): Observation {
  return {
    status: 'up',
    started_at: at,
    duration_ms: 5,
    timings: { dns_ms: null, connect_ms: 1, tls_ms: 3, ttfb_ms: null, download_ms: null, total_ms: 5 },
    http_status: null,
    assertions: [],
    error: null,
    events: [
      {
        type: 'cert_expiring',
        data: { days_to_expiry: days, valid_to: new Date(at + days * DAY).toISOString(), subject: 'example.test' },
      },
    ],
  };
}

describe.each(testDialects())('cert_expiring events on %s', (dialect) => {
  let t: TestApp;
  const clock = new ManualClock(Date.parse('2026-06-01T08:00:00.000Z'));
  beforeAll(async () => {
    t = await createTestApp({ dialect, clock });
  });
  afterAll(async () => {
    await t.close();
  });

  it('are recorded in the outbox at most once per monitor per day', async () => {
    const org = await t.createOrg();
    const created = await t.tocsin.app.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      headers: bearer(org.apiKey),
      payload: { type: 'tls', target: 'example.test:443', interval_seconds: 60 },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json<{ id: string }>().id;
    const engine = t.tocsin.services.checks.engine;
    const at = clock.now();
    const apply = (when: number, days: number) =>
      engine.applyResults('test', [
        { monitorId: id, regionCode: 'local', dueAt: when, observation: tlsObservation(when, days) },
      ]);
    await apply(at, 10);
    await apply(at + 60_000, 10);
    await apply(at + 3_600_000, 10);
    await apply(at + DAY, 9);
    const events = await rows<{ payload: string }>(
      t.tocsin.database,
      "select payload from domain_event where type = 'cert_expiring' and monitor_id = ? order by seq",
      [id],
    );
    expect(events.map((e) => (JSON.parse(e.payload) as { days_to_expiry: number }).days_to_expiry)).toEqual([10, 9]);
  });
});
