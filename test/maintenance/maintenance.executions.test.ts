import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExecutionsStore } from '../../src/modules/checks/executions/index.ts';
import { bearer, createTestApp, ManualClock, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { execution } from '../store/executions.fixtures.ts';

const NOW = Date.parse('2026-11-22T10:00:00.000Z');
const MIN = 60_000;

/** DECISIONS §16: executions inside a maintenance occurrence are stored like any other and say `in_maintenance`. */
describe.each(testDialects())('executions in maintenance (%s)', (dialect) => {
  let t: TestApp;
  let owner: TestOrg;
  let clock: ManualClock;
  let monitorId: string;
  const get = (url: string) => t.tocsin.app.inject({ method: 'GET', url, headers: bearer(owner.apiKey) });

  beforeAll(async () => {
    clock = new ManualClock(NOW - 3 * 60 * MIN);
    t = await createTestApp({ dialect, clock });
    owner = await t.createOrg();
    const made = await t.tocsin.app.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      headers: bearer(owner.apiKey),
      payload: { target: 'https://db.example.com', tags: ['db'] },
    });
    monitorId = (made.json() as { id: string }).id;
    // By tag, from 60 to 30 minutes before NOW.
    const window = await t.tocsin.app.inject({
      method: 'POST',
      url: '/api/v1/maintenance-windows',
      headers: bearer(owner.apiKey),
      payload: {
        name: 'Database upgrade',
        tags: ['db'],
        schedule: {
          type: 'once',
          starts_at: new Date(NOW - 60 * MIN).toISOString(),
          ends_at: new Date(NOW - 30 * MIN).toISOString(),
        },
      },
    });
    expect(window.statusCode, window.body).toBe(201);
    clock.set(NOW);
    const batch = Array.from({ length: 12 }, (_, i) =>
      execution({
        organizationId: owner.organizationId,
        monitorId,
        startedAt: NOW - 115 * MIN + i * 10 * MIN,
        status: 'down',
        intervalSeconds: 600,
      }),
    );
    await t.tocsin.database.transaction((tx) => new ExecutionsStore().recordBatch(tx, batch));
  });
  afterAll(async () => t.close());

  it('marks exactly the executions that started inside the occurrence, in the list and one by one', async () => {
    const list = await get(`/api/v1/monitors/${monitorId}/executions?limit=50`);
    expect(list.statusCode).toBe(200);
    const rows = (list.json() as { data: Array<{ id: string; started_at: string; in_maintenance: boolean }> }).data;
    const inside = rows
      .filter((r) => r.in_maintenance)
      .map((r) => r.started_at)
      .sort();
    // Starts at NOW-115, -105, …, -5 minutes: -55, -45 and -35 are inside [NOW-60, NOW-30).
    expect(inside).toEqual([NOW - 55 * MIN, NOW - 45 * MIN, NOW - 35 * MIN].map((t) => new Date(t).toISOString()));
    expect(rows).toHaveLength(12);
    const one = rows.find((r) => r.started_at === new Date(NOW - 45 * MIN).toISOString())!;
    const single = await get(`/api/v1/executions/${one.id}`);
    expect(single.json()).toMatchObject({ id: one.id, in_maintenance: true });
    const outside = rows.find((r) => r.started_at === new Date(NOW - 25 * MIN).toISOString())!;
    expect((await get(`/api/v1/executions/${outside.id}`)).json()).toMatchObject({ in_maintenance: false });
  });
});
