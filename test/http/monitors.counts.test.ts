/**
 * GET /monitors/counts (issue 36: the overview's counts without the list): per status as shown, maintenance (by id and
 * by tag, never a paused monitor) included, agreeing with the list's status filter; the caller's organization and key
 * environments only; the list's other filters; on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ManualClock, type TestApp } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { at, clientOf } from '../reports/reports.helpers.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies in assertions

const ZERO = { up: 0, degraded: 0, down: 0, pending: 0, paused: 0, maintenance: 0 };

describe.each(testDialects())('monitor counts per status on %s', (dialect) => {
  let t: TestApp;
  const clock = new ManualClock('2026-06-01T09:00:00.000Z');

  beforeAll(async () => {
    t = await createTestApp({ dialect, clock });
  });
  afterAll(async () => {
    await t.close();
  });

  it('counts each status shown, agrees with the list filter, and keeps to the caller', async () => {
    const org = await t.createOrg();
    const c = clientOf(t, org);
    const counts = async (query = '', key = org.apiKey) => {
      const res = await t.tocsin.app.inject({
        method: 'GET',
        url: `/api/v1/monitors/counts${query}`,
        headers: { authorization: `Bearer ${key}` },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as Json;
    };
    expect(await counts()).toEqual({ total: 0, by_status: ZERO });

    const up = await c.createMonitor({ name: 'Up', tags: ['web'] });
    const up2 = await c.createMonitor({ name: 'Up 2', type: 'http' });
    const down = await c.createMonitor({ name: 'Down', tags: ['web'] });
    const slow = await c.createMonitor({ name: 'Slow', config: { degraded_latency_ms: 500 } });
    await c.createMonitor({ name: 'Pending' });
    const paused = await c.createMonitor({ name: 'Paused', tags: ['db'] });
    const byId = await c.createMonitor({ name: 'Window by id' });
    const byTag = await c.createMonitor({ name: 'Window by tag', tags: ['db'] });
    for (const id of [up, up2, byId, byTag]) await c.check(id, 'up', at('2026-06-01T09:30:00Z'));
    await c.check(down, 'down', at('2026-06-01T09:30:00Z'));
    await c.check(down, 'down', at('2026-06-01T09:31:00Z'));
    // Degraded as the state machine stores it (its rules are tested with the checks).
    await t.tocsin.database
      .tables<{ monitor: { id: string; status: string } }>()
      .updateTable('monitor')
      .set({ status: 'degraded' })
      .where('id', '=', slow)
      .execute();
    expect((await c.call('POST', `/api/v1/monitors/${paused}/pause`)).status).toBe(200);
    const w = await c.call('POST', '/api/v1/maintenance-windows', {
      name: 'Upgrade',
      monitor_ids: [byId],
      tags: ['db'],
      schedule: { type: 'once', starts_at: '2026-06-01T10:00:00Z', ends_at: '2026-06-01T11:00:00Z' },
    });
    expect(w.status, JSON.stringify(w.body)).toBe(201);
    // Another organization's monitors are never counted.
    const other = clientOf(t, await t.createOrg());
    const theirs = await other.createMonitor({ name: 'Theirs' });
    await other.check(theirs, 'down', at('2026-06-01T09:30:00Z'));

    expect(await counts()).toEqual({
      total: 8,
      by_status: { up: 4, degraded: 1, down: 1, pending: 1, paused: 1, maintenance: 0 },
    });
    clock.set('2026-06-01T10:30:00Z');
    const inside = await counts();
    // The paused monitor tagged `db` stays paused; the window's two others read as maintenance.
    expect(inside).toEqual({
      total: 8,
      by_status: { up: 2, degraded: 1, down: 1, pending: 1, paused: 1, maintenance: 2 },
    });
    // Each count is what the list's filter of that status lists.
    for (const [status, n] of Object.entries(inside.by_status as Record<string, number>)) {
      const list = await c.call('GET', `/api/v1/monitors/summaries?status=${status}&limit=1`);
      expect(list.body.total, status).toBe(n);
    }
    // The list's other filters narrow the counts.
    expect(await counts('?tag=web')).toEqual({ total: 2, by_status: { ...ZERO, up: 1, down: 1 } });
    expect(await counts('?q=window')).toEqual({ total: 2, by_status: { ...ZERO, maintenance: 2 } });
    expect(await counts('?environment=staging')).toEqual({ total: 0, by_status: ZERO });

    // A key limited to staging counts staging monitors only.
    const key = await c.call('POST', '/api/v1/api-keys', {
      name: 'stg',
      scopes: ['monitors:read', 'monitors:write'],
      environments: ['staging'],
    });
    expect(key.status, JSON.stringify(key.body)).toBe(201);
    const staging = clientOf(t, { ...org, apiKey: key.body.key as string });
    await staging.createMonitor({ name: 'Staging' });
    expect(await counts('', key.body.key as string)).toEqual({ total: 1, by_status: { ...ZERO, pending: 1 } });
    // The owner's key sees every environment; its filter picks one.
    expect((await counts()).total).toBe(9);
    expect(await counts('?environment=staging')).toEqual({ total: 1, by_status: { ...ZERO, pending: 1 } });

    const bad = await c.call('GET', '/api/v1/monitors/counts?status=up');
    expect(bad.status).toBe(422);
  });
});
