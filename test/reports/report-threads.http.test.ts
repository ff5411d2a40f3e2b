import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ManualClock, type TestApp } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { at, clientOf } from './reports.helpers.ts';

/**
 * Every report file is made on the report worker threads (one pool, one time limit): also the kinds the routes
 * used to build on the main thread (incidents, intelligence, monitor health) and custom reports, in every format.
 */
describe.each(testDialects())('report threads on %s', (dialect) => {
  let t: TestApp;
  const clock = new ManualClock('2026-05-01T00:00:00.000Z');

  beforeAll(async () => {
    t = await createTestApp({ dialect, clock, configFile: { plans: { enterprise: { interval_floor_seconds: 1 } } } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('incidents, monitor health and custom reports (JSON and CSV) start a report thread', async () => {
    const renderer = t.tocsin.services.reportRenderer;
    const org = await t.createOrg();
    const c = clientOf(t, org);
    const shop = await c.createMonitor({ name: 'shop' });
    await c.check(shop, 'down', at('2026-05-01T01:00:00Z'));
    await c.check(shop, 'up', at('2026-05-01T02:00:00Z'), 'local', 150);
    clock.set('2026-05-02T00:00:00Z');
    const range = 'from=2026-05-01T00:00:00Z&to=2026-05-02T00:00:00Z';
    const created = await c.call('POST', '/api/v1/custom-reports', {
      name: 'Weekly',
      period: { from: '2026-05-01T00:00:00Z', to: '2026-05-02T00:00:00Z' },
      widgets: [{ kind: 'incidents', title: 'Incidents' }],
    });
    expect(created.status).toBe(201);
    for (const url of [
      `/api/v1/reports/incidents?${range}`,
      `/api/v1/reports/monitor-health?${range}&format=csv`,
      `/api/v1/custom-reports/${String(created.body.id)}/render`,
      `/api/v1/custom-reports/${String(created.body.id)}/render?format=csv`,
    ]) {
      await renderer.close();
      expect([url, renderer.threads]).toEqual([url, 0]);
      const r = await c.call('GET', url);
      expect([url, r.status]).toEqual([url, 200]);
      // built (and encoded) on the thread, which stays up until it idles
      expect([url, renderer.threads]).toEqual([url, 1]);
    }
  });
});
