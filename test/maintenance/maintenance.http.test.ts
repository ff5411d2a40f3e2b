/**
 * /api/v1/maintenance-windows (DECISIONS §16) through the real app on SQLite and PostgreSQL: CRUD, the computed
 * fields, ending an occurrence early, the preview of covered monitors, a monitor's next window, and every 422 (the
 * field named, nothing saved).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ManualClock, type TestApp } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { clientOf } from '../reports/reports.helpers.ts';

type Client = ReturnType<typeof clientOf>;

describe.each(testDialects())('maintenance windows API on %s', (dialect) => {
  let t: TestApp;
  const clock = new ManualClock('2026-11-28T09:00:00.000Z');

  beforeAll(async () => {
    t = await createTestApp({ dialect, clock });
  });
  afterAll(async () => {
    await t.close();
  });

  async function client(): Promise<Client> {
    return clientOf(t, await t.createOrg());
  }

  async function count(c: Client): Promise<number> {
    const list = await c.call('GET', '/api/v1/maintenance-windows?limit=200');
    return list.body.data.length as number;
  }

  it('creates, reads, lists, updates and deletes a recurring window; next_start_at is computed in its zone', async () => {
    clock.set('2026-11-28T09:00:00Z'); // a Saturday
    const c = await client();
    const id = await c.createMonitor({ name: 'DB', tags: ['db'] });
    const created = await c.call('POST', '/api/v1/maintenance-windows', {
      name: 'Sunday patching',
      monitor_ids: [id],
      schedule: { type: 'recurring', rrule: 'FREQ=WEEKLY;BYDAY=SU', start_time: '03:00', duration_minutes: 90 },
      timezone: 'Europe/Berlin',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^mnt_/),
      name: 'Sunday patching',
      description: null,
      monitor_ids: [id],
      tags: [],
      schedule: {
        type: 'recurring',
        rrule: 'FREQ=WEEKLY;BYDAY=SU',
        start_time: '03:00',
        duration_minutes: 90,
        start_date: '2026-11-28',
      },
      timezone: 'Europe/Berlin',
      suppress_alerts: true,
      exclude_from_sla: true,
      status_page_ids: [],
      announce_minutes_before: 0,
      active: false,
      // Sunday 29 Nov 03:00 CET = 02:00Z, for 90 minutes.
      next_start_at: '2026-11-29T02:00:00.000Z',
      next_end_at: '2026-11-29T03:30:00.000Z',
    });
    const wid = created.body.id as string;
    expect((await c.call('GET', `/api/v1/maintenance-windows/${wid}`)).body).toEqual(created.body);
    expect((await c.call('GET', '/api/v1/maintenance-windows')).body).toMatchObject({
      data: [{ id: wid }],
      next_cursor: null,
    });

    clock.set('2026-11-29T02:30:00Z');
    const during = await c.call('GET', `/api/v1/maintenance-windows/${wid}`);
    expect(during.body).toMatchObject({ active: true, next_start_at: '2026-11-29T02:00:00.000Z' });
    const mon = await c.call('GET', `/api/v1/monitors/${id}`);
    expect(mon.body.status).toBe('maintenance');
    const next = await c.call('GET', `/api/v1/monitors/${id}/maintenance`);
    expect(next.body).toEqual({
      next: {
        maintenance_window_id: wid,
        name: 'Sunday patching',
        starts_at: '2026-11-29T02:00:00.000Z',
        ends_at: '2026-11-29T03:30:00.000Z',
        active: true,
      },
    });

    const patched = await c.call('PATCH', `/api/v1/maintenance-windows/${wid}`, {
      name: 'Sunday patching (db)',
      exclude_from_sla: false,
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Sunday patching (db)', exclude_from_sla: false, monitor_ids: [id] });

    const ended = await c.call('POST', `/api/v1/maintenance-windows/${wid}/end`);
    expect(ended.status).toBe(200);
    // The occurrence in progress ended now; the next is the following Sunday.
    expect(ended.body).toMatchObject({ active: false, next_start_at: '2026-12-06T02:00:00.000Z' });
    expect((await c.call('GET', `/api/v1/monitors/${id}`)).body.status).not.toBe('maintenance');
    const again = await c.call('POST', `/api/v1/maintenance-windows/${wid}/end`);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('conflict');

    expect((await c.call('DELETE', `/api/v1/maintenance-windows/${wid}`)).status).toBe(204);
    expect((await c.call('GET', `/api/v1/maintenance-windows/${wid}`)).status).toBe(404);
    expect(await count(c)).toBe(0);
  });

  it('a window by tag covers monitors tagged later; the preview lists what a window would cover', async () => {
    clock.set('2026-11-28T09:00:00Z');
    const c = await client();
    const a = await c.createMonitor({ name: 'A', tags: ['edge'] });
    await c.createMonitor({ name: 'B', tags: ['core'] });
    const preview = await c.call('POST', '/api/v1/maintenance-windows/preview', { tags: ['edge'] });
    expect(preview.status).toBe(200);
    expect(preview.body.monitors.map((m: { name: string }) => m.name)).toEqual(['A']);
    const w = await c.call('POST', '/api/v1/maintenance-windows', {
      name: 'Edge now',
      tags: ['edge'],
      schedule: { type: 'once', starts_at: '2026-11-28T08:00:00Z', ends_at: '2026-11-28T12:00:00Z' },
    });
    expect(w.body.active).toBe(true);
    const later = await c.createMonitor({ name: 'C', tags: ['edge'] });
    const list = await c.call('GET', '/api/v1/monitors?limit=200');
    const status = Object.fromEntries(list.body.data.map((m: { name: string; status: string }) => [m.name, m.status]));
    expect(status).toEqual({ A: 'maintenance', B: 'pending', C: 'maintenance' });
    const after = await c.call('POST', '/api/v1/maintenance-windows/preview', { tags: ['edge'], monitor_ids: [] });
    expect(after.body.monitors.map((m: { id: string }) => m.id).sort()).toEqual([a, later].sort());
  });

  it('answers 422 naming the field, and saves nothing, for each kind of bad input', async () => {
    clock.set('2026-11-28T09:00:00Z');
    const c = await client();
    const other = await client();
    const mine = await c.createMonitor({ name: 'Mine' });
    const foreign = await other.createMonitor({ name: 'Theirs' });
    const foreignPage = await other.call('POST', '/api/v1/status-pages', { slug: 'theirs-page', title: 'Theirs' });
    expect(foreignPage.status).toBe(201);
    const once = { type: 'once', starts_at: '2026-12-01T00:00:00Z', ends_at: '2026-12-01T02:00:00Z' };
    const cases: Array<{ body: Record<string, unknown>; field: string; issue: RegExp }> = [
      {
        body: { name: 'x', monitor_ids: [mine], schedule: { ...once, ends_at: '2026-11-30T00:00:00Z' } },
        field: 'schedule.ends_at',
        issue: /after schedule\.starts_at/,
      },
      {
        body: {
          name: 'x',
          monitor_ids: [mine],
          schedule: { type: 'recurring', rrule: 'FREQ=YEARLY', start_time: '01:00', duration_minutes: 10 },
        },
        field: 'schedule.rrule',
        issue: /FREQ=YEARLY is not supported/,
      },
      {
        body: {
          name: 'x',
          monitor_ids: [mine],
          schedule: { type: 'recurring', rrule: 'FREQ=DAILY;BYSETPOS=1', start_time: '01:00', duration_minutes: 10 },
        },
        field: 'schedule.rrule',
        issue: /BYSETPOS is not supported/,
      },
      {
        body: { name: 'x', monitor_ids: [mine], schedule: once, timezone: 'Mars/Olympus' },
        field: 'timezone',
        issue: /unknown IANA time zone/,
      },
      {
        body: { name: 'x', monitor_ids: [mine], schedule: once, timezone: '+02:00' },
        field: 'timezone',
        issue: /unknown IANA/,
      },
      {
        body: { name: 'x', monitor_ids: [mine, foreign], schedule: once },
        field: 'monitor_ids[1]',
        issue: /does not exist in this organization/,
      },
      {
        body: { name: 'x', monitor_ids: [mine], schedule: once, status_page_ids: [foreignPage.body.id] },
        field: 'status_page_ids[0]',
        issue: /does not exist in this organization/,
      },
      { body: { name: 'x', schedule: once }, field: 'monitor_ids', issue: /at least one monitor/ },
      {
        body: {
          name: 'x',
          monitor_ids: [mine],
          schedule: { type: 'recurring', rrule: 'FREQ=DAILY', start_time: '25:00', duration_minutes: 10 },
        },
        field: 'schedule.start_time',
        issue: /HH:MM/,
      },
      {
        body: {
          name: 'x',
          monitor_ids: [mine],
          schedule: {
            type: 'recurring',
            rrule: 'FREQ=DAILY',
            start_time: '01:00',
            duration_minutes: 10,
            start_date: '2026-02-30',
          },
        },
        field: 'schedule.start_date',
        issue: /YYYY-MM-DD/,
      },
      {
        body: { name: 'x', monitor_ids: [mine], schedule: once, cron: '* * * * *' },
        field: 'cron',
        issue: /not a known field/,
      },
      {
        body: { name: 'x', monitor_ids: [mine], schedule: { type: 'once', starts_at: '2026-12-01T00:00:00Z' } },
        field: 'schedule.ends_at',
        issue: /required for a once schedule/,
      },
      {
        body: { name: 'x', monitor_ids: [mine], schedule: { ...once, rrule: 'FREQ=DAILY' } },
        field: 'schedule.rrule',
        issue: /not a field of a once schedule/,
      },
    ];
    for (const { body, field, issue } of cases) {
      const res = await c.call('POST', '/api/v1/maintenance-windows', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.code).toBe('validation_failed');
      const detail = (res.body.error.details as Array<{ field: string; issue: string }>).find((d) => d.field === field);
      expect(detail, `${field} in ${JSON.stringify(res.body.error.details)}`).toBeDefined();
      expect(detail!.issue).toMatch(issue);
    }
    expect(await count(c)).toBe(0);

    // A PATCH that would break the window is refused whole; the stored window is unchanged.
    const ok = await c.call('POST', '/api/v1/maintenance-windows', { name: 'ok', monitor_ids: [mine], schedule: once });
    expect(ok.status).toBe(201);
    const bad = await c.call('PATCH', `/api/v1/maintenance-windows/${ok.body.id}`, {
      name: 'renamed',
      timezone: 'Nowhere/Land',
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details).toContainEqual({ field: 'timezone', issue: expect.stringMatching(/unknown IANA/) });
    expect((await c.call('GET', `/api/v1/maintenance-windows/${ok.body.id}`)).body.name).toBe('ok');
    // Another organization's window is 404, never 403; the preview refuses foreign monitors.
    expect((await other.call('GET', `/api/v1/maintenance-windows/${ok.body.id}`)).status).toBe(404);
    const preview = await c.call('POST', '/api/v1/maintenance-windows/preview', { monitor_ids: [foreign] });
    expect(preview.status).toBe(422);
    expect(preview.body.error.details[0].field).toBe('monitor_ids[0]');
  });

  it('needs the maintenance scopes', async () => {
    const org = await t.createOrg({ scopes: ['monitors:read'] });
    const c = clientOf(t, org);
    const res = await c.call('GET', '/api/v1/maintenance-windows');
    expect(res.status).toBe(403);
    expect(res.body.error.message).toContain('maintenance:read');
  });
});
