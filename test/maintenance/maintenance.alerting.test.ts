/**
 * Maintenance windows on the alert path (DECISIONS §16), through the real write path (CheckEngine.applyResults → the
 * incidents decision and its maintenance gate), the maintenance-events role and the availability report, on SQLite
 * and PostgreSQL. Every expected figure is worked out by hand in the comments.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MaintenanceEventsRole } from '../../src/modules/maintenance/index.ts';
import { createTestApp, ManualClock, type TestApp } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { at, clientOf } from '../reports/reports.helpers.ts';

describe.each(testDialects())('maintenance windows on the alert path on %s', (dialect) => {
  let t: TestApp;
  const clock = new ManualClock('2026-03-01T09:00:00.000Z');

  beforeAll(async () => {
    t = await createTestApp({ dialect, clock });
  });
  afterAll(async () => {
    await t.close();
  });

  /** A maintenance-events role as a process would build it (each call: a fresh one, like a restarted process). */
  function role(): MaintenanceEventsRole {
    const s = t.tocsin.services;
    return new MaintenanceEventsRole({
      database: t.tocsin.database,
      clock,
      logger: t.tocsin.logger,
      events: s.events,
      incidents: s.incidents,
      monitors: s.monitors,
      windows: s.maintenance,
    });
  }

  /** The organization's outbox events of these types, in order. */
  async function eventsOf(organizationId: string, ...types: string[]) {
    const all = await t.tocsin.services.events.readAfter(0, 100_000);
    return all.filter((e) => e.organizationId === organizationId && types.includes(e.type));
  }

  async function setup(day: string, windowBody: Record<string, unknown> = {}) {
    clock.set(`${day}T09:00:00Z`);
    const org = await t.createOrg();
    const c = clientOf(t, org);
    const id = await c.createMonitor({ name: 'Checkout' });
    const w = await c.call('POST', '/api/v1/maintenance-windows', {
      name: 'Database upgrade',
      monitor_ids: [id],
      schedule: { type: 'once', starts_at: `${day}T10:00:00Z`, ends_at: `${day}T11:00:00Z` },
      ...windowBody,
    });
    expect(w.status).toBe(201);
    return { org, c, id, windowId: w.body.id as string };
  }

  it('an outage that starts inside a window and outlasts it gives one down, at the end, and downtime from the end', async () => {
    const day = '2026-03-02';
    const { org, c, id } = await setup(day);
    await c.check(id, 'up', at(`${day}T09:50:00Z`));
    clock.set(`${day}T10:05:00Z`);
    expect((await role().runPass()).emitted).toBe(1); // maintenance_started
    await c.check(id, 'down', at(`${day}T10:10:00Z`));
    await c.check(id, 'down', at(`${day}T10:11:00Z`)); // threshold reached inside: held, no incident, no down
    await c.check(id, 'down', at(`${day}T10:50:00Z`));
    expect(await eventsOf(org.organizationId, 'down', 'incident_opened')).toEqual([]);
    clock.set(`${day}T10:30:00Z`);
    // Checks keep running and are stored; the monitor reads as in maintenance.
    expect((await c.call('GET', `/api/v1/monitors/${id}`)).body.status).toBe('maintenance');
    const stored = await c.call('GET', `/api/v1/monitors/${id}/executions?limit=10`);
    expect(stored.body.data).toHaveLength(4);

    // The window ends at 11:00; the role's pass at 11:01 (and a restarted process's pass after it) judges once.
    await c.check(id, 'down', at(`${day}T11:00:30Z`));
    clock.set(`${day}T11:01:00Z`);
    const [first, second] = await Promise.all([role().runPass(), role().runPass()]);
    expect(first.emitted + second.emitted).toBe(1); // maintenance_ended, once between two processes
    expect(first.judged + second.judged).toBe(1);
    expect((await role().runPass()).emitted).toBe(0);
    const downs = await eventsOf(org.organizationId, 'down');
    expect(downs).toHaveLength(1);
    expect(downs[0]).toMatchObject({ monitorId: id, occurredAt: at(`${day}T11:00:00Z`) });

    await c.check(id, 'up', at(`${day}T11:30:00Z`)); // recovered: down 11:00 → 11:30 = 1 800 s
    clock.set(`${day}T12:00:00Z`);
    expect((await role().runPass()).judged).toBe(0);
    expect(await eventsOf(org.organizationId, 'down')).toHaveLength(1);
    expect(await eventsOf(org.organizationId, 'recovered')).toHaveLength(1);
    const kinds = (await eventsOf(org.organizationId, 'maintenance_started', 'maintenance_ended')).map((e) => [
      e.type,
      new Date(e.occurredAt).toISOString(),
    ]);
    expect(kinds).toEqual([
      ['maintenance_started', `${day}T10:00:00.000Z`],
      ['maintenance_ended', `${day}T11:00:00.000Z`],
    ]);

    const incidents = await c.call('GET', `/api/v1/incidents?monitor_id=${id}`);
    expect(incidents.body.data).toHaveLength(1);
    expect(incidents.body.data[0]).toMatchObject({
      opened_at: `${day}T11:00:00.000Z`,
      down_since: `${day}T11:00:00.000Z`,
      resolved_at: `${day}T11:30:00.000Z`,
      duration_seconds: 1800,
    });

    // 09:50 → 12:00 = 7 800 s: maintenance 10:00 → 11:00 = 3 600 s (the failures inside are neither up nor down),
    // down 11:00 → 11:30 = 1 800 s, up 2 400 s; uptime = 100 × 2 400 / 4 200 = 57.14286 %.
    const r = await c.call(
      'GET',
      `/api/v1/reports/availability?from=${day}T09:50:00Z&to=${day}T12:00:00Z&monitor_ids=${id}`,
    );
    expect(r.status).toBe(200);
    expect(r.body.monitors[0]).toMatchObject({
      downtime_seconds: 1800,
      maintenance_seconds: 3600,
      monitored_seconds: 4200,
      incident_count: 1,
    });
    expect(r.body.monitors[0].uptime_percent).toBeCloseTo((100 * 2400) / 4200, 4);
    const csv = await c.call(
      'GET',
      `/api/v1/reports/availability?format=csv&from=${day}T09:50:00Z&to=${day}T12:00:00Z&monitor_ids=${id}`,
    );
    const [header, row] = csv.raw.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    const cols = header!.split(',');
    expect(row!.split(',')[cols.indexOf('maintenance_seconds')]).toBe('3600');
  });

  it('an outage inside a window that recovers inside it sends nothing and opens nothing', async () => {
    const day = '2026-03-03';
    const { org, c, id } = await setup(day);
    await c.check(id, 'up', at(`${day}T09:50:00Z`));
    await c.check(id, 'down', at(`${day}T10:10:00Z`));
    await c.check(id, 'down', at(`${day}T10:11:00Z`));
    await c.check(id, 'up', at(`${day}T10:30:00Z`));
    clock.set(`${day}T11:05:00Z`);
    await role().runPass();
    await c.check(id, 'up', at(`${day}T11:10:00Z`));
    expect(await eventsOf(org.organizationId, 'down', 'recovered', 'incident_opened', 'still_down')).toEqual([]);
    expect((await c.call('GET', `/api/v1/incidents?monitor_id=${id}`)).body.data).toEqual([]);
  });

  it('an outage that outlives the window but recovers before the role looks is still one outage from the end', async () => {
    const day = '2026-03-04';
    const { org, c, id } = await setup(day);
    await c.check(id, 'up', at(`${day}T09:50:00Z`));
    await c.check(id, 'down', at(`${day}T10:40:00Z`));
    await c.check(id, 'down', at(`${day}T10:41:00Z`)); // held
    await c.check(id, 'up', at(`${day}T11:10:00Z`)); // no pass since 11:00: the recovery judges the held outage
    clock.set(`${day}T11:20:00Z`);
    expect((await role().runPass()).judged).toBe(0);
    const events = (await eventsOf(org.organizationId, 'down', 'recovered')).map((e) => [e.type, e.occurredAt]);
    expect(events).toEqual([
      ['down', at(`${day}T11:00:00Z`)],
      ['recovered', at(`${day}T11:10:00Z`)],
    ]);
  });

  it('a window with suppress_alerts false still alerts; an end-early judges a still-failing monitor from then', async () => {
    const day = '2026-03-05';
    const loud = await setup(day, { suppress_alerts: false });
    await loud.c.check(loud.id, 'up', at(`${day}T09:50:00Z`));
    await loud.c.check(loud.id, 'down', at(`${day}T10:10:00Z`));
    await loud.c.check(loud.id, 'down', at(`${day}T10:11:00Z`));
    expect(await eventsOf(loud.org.organizationId, 'down')).toHaveLength(1);

    const quiet = await setup('2026-03-06');
    const d = '2026-03-06';
    await quiet.c.check(quiet.id, 'up', at(`${d}T09:50:00Z`));
    await quiet.c.check(quiet.id, 'down', at(`${d}T10:10:00Z`));
    await quiet.c.check(quiet.id, 'down', at(`${d}T10:11:00Z`));
    clock.set(`${d}T10:20:00Z`);
    expect((await quiet.c.call('POST', `/api/v1/maintenance-windows/${quiet.windowId}/end`)).status).toBe(200);
    clock.set(`${d}T10:20:05Z`);
    const pass = await role().runPass();
    expect(pass.judged).toBe(1);
    const downs = await eventsOf(quiet.org.organizationId, 'down');
    expect(downs.map((e) => e.occurredAt)).toEqual([at(`${d}T10:20:00Z`)]);
    const ended = await eventsOf(quiet.org.organizationId, 'maintenance_ended');
    expect(ended).toHaveLength(1);
    expect(ended[0]!.payload).toMatchObject({ ends_at: `${d}T10:20:00.000Z`, maintenance_window_id: quiet.windowId });
  });

  it('one role across passes (as a process runs it) emits what an edit, an end-early or a new window changes', async () => {
    // The role keeps each window's occurrences and the emissions it knows of in memory between passes: an edit of the
    // schedule, an occurrence ended early and a window created meanwhile must each show at the next pass all the same.
    const day = '2026-03-08';
    const { org, c, windowId } = await setup(day); // once, 10:00–11:00
    const kept = role();
    clock.set(`${day}T10:05:00Z`);
    expect((await kept.runPass()).emitted).toBe(1); // started 10:00
    clock.set(`${day}T10:05:05Z`);
    expect((await kept.runPass()).emitted).toBe(0);
    // Moved to 10:30–12:00: the 10:00 occurrence is gone, the new one starts at 10:30.
    const moved = await c.call('PATCH', `/api/v1/maintenance-windows/${windowId}`, {
      schedule: { type: 'once', starts_at: `${day}T10:30:00Z`, ends_at: `${day}T12:00:00Z` },
    });
    expect(moved.status).toBe(200);
    clock.set(`${day}T10:30:05Z`);
    expect((await kept.runPass()).emitted).toBe(1); // started 10:30
    clock.set(`${day}T10:40:00Z`);
    expect((await c.call('POST', `/api/v1/maintenance-windows/${windowId}/end`)).status).toBe(200);
    clock.set(`${day}T10:40:05Z`);
    expect((await kept.runPass()).emitted).toBe(1); // ended 10:40
    const other = await c.call('POST', '/api/v1/maintenance-windows', {
      name: 'Daily',
      tags: ['nightly'],
      schedule: { type: 'recurring', rrule: 'FREQ=DAILY', start_time: '10:45', duration_minutes: 5 },
      timezone: 'UTC',
    });
    expect(other.status).toBe(201);
    clock.set(`${day}T10:45:05Z`);
    expect((await kept.runPass()).emitted).toBe(1); // the new window's started 10:45
    clock.set(`${day}T10:50:05Z`);
    expect((await kept.runPass()).emitted).toBe(1); // its ended 10:50
    clock.set(`${day}T10:50:10Z`);
    expect((await kept.runPass()).emitted).toBe(0);
    const kinds = (await eventsOf(org.organizationId, 'maintenance_started', 'maintenance_ended')).map((e) => [
      e.type,
      (e.payload as { starts_at: string }).starts_at,
      (e.payload as { ends_at: string }).ends_at,
    ]);
    expect(kinds).toEqual([
      ['maintenance_started', `${day}T10:00:00.000Z`, `${day}T11:00:00.000Z`],
      ['maintenance_started', `${day}T10:30:00.000Z`, `${day}T12:00:00.000Z`],
      ['maintenance_ended', `${day}T10:30:00.000Z`, `${day}T10:40:00.000Z`],
      ['maintenance_started', `${day}T10:45:00.000Z`, `${day}T10:50:00.000Z`],
      ['maintenance_ended', `${day}T10:45:00.000Z`, `${day}T10:50:00.000Z`],
    ]);
  });

  it("the gate's windows follow every change at once, also one made through another process's service", async () => {
    // coveringAt keeps an organization's windows between downs and reads them again when their version moves: a create,
    // an edit, an end-early and a delete each change what covers the monitor, and are seen by the next call.
    const day = '2026-03-09';
    clock.set(`${day}T10:00:00Z`);
    const org = await t.createOrg();
    const c = clientOf(t, org);
    const id = await c.createMonitor({ name: 'Gated', tags: ['db'] });
    const monitor = { id, tags: ['db'] };
    const s = t.tocsin.services;
    const gate = s.maintenance; // the gate's instance (main.ts)
    const { MaintenanceService } = await import('../../src/modules/maintenance/index.ts');
    const elsewhere = new MaintenanceService({ database: t.tocsin.database, monitors: s.monitors, statusPages: null });
    const covering = async () =>
      (await gate.coveringAt(t.tocsin.database, org.organizationId, monitor, clock.now())).map((x) => x.window.name);
    expect(await covering()).toEqual([]);

    const w = await c.call('POST', '/api/v1/maintenance-windows', {
      name: 'By tag',
      tags: ['db'],
      schedule: { type: 'once', starts_at: `${day}T09:00:00Z`, ends_at: `${day}T12:00:00Z` },
    });
    expect(w.status).toBe(201);
    expect(await covering()).toEqual(['By tag']);
    // The same write twice in one millisecond still moves the version (updated_at is always later than before).
    const actor = (await s.auth.authenticate(org.apiKey))!;
    const ctx = { actor, db: t.tocsin.database, clock };
    await elsewhere.update(ctx, w.body.id as string, { tags: ['web'] });
    expect(await covering()).toEqual([]);
    await elsewhere.update(ctx, w.body.id as string, { tags: ['db'] });
    expect(await covering()).toEqual(['By tag']);
    clock.set(`${day}T10:30:00Z`);
    await elsewhere.end(ctx, w.body.id as string);
    expect(await covering()).toEqual([]);
    const other = await elsewhere.create(ctx, {
      name: 'By id',
      monitor_ids: [id],
      schedule: { type: 'once', starts_at: `${day}T10:00:00Z`, ends_at: `${day}T11:00:00Z` },
    });
    expect(await covering()).toEqual(['By id']);
    await elsewhere.delete(ctx, other.id);
    expect(await covering()).toEqual([]);
  });

  it('a still-down reminder waits while the monitor is in maintenance', async () => {
    const day = '2026-03-07';
    clock.set(`${day}T09:00:00Z`);
    const org = await t.createOrg();
    const c = clientOf(t, org);
    const id = await c.createMonitor({ name: 'Reminded', config: { reminder_interval_minutes: 10 } });
    await c.check(id, 'up', at(`${day}T09:00:00Z`));
    await c.check(id, 'down', at(`${day}T09:40:00Z`));
    await c.check(id, 'down', at(`${day}T09:41:00Z`)); // incident opens before the window
    const w = await c.call('POST', '/api/v1/maintenance-windows', {
      name: 'Fix',
      monitor_ids: [id],
      schedule: { type: 'once', starts_at: `${day}T10:00:00Z`, ends_at: `${day}T11:00:00Z` },
    });
    expect(w.status).toBe(201);
    const { IncidentRemindersRole } = await import('../../src/modules/incidents/index.ts');
    const { MaintenanceAlertGate } = await import('../../src/modules/maintenance/index.ts');
    const s = t.tocsin.services;
    const reminders = new IncidentRemindersRole({
      incidents: s.incidents,
      monitors: s.monitors,
      clock,
      logger: t.tocsin.logger,
      maintenance: new MaintenanceAlertGate({
        windows: s.maintenance,
        monitors: s.monitors,
        database: t.tocsin.database,
      }),
    });
    clock.set(`${day}T10:30:00Z`);
    expect(await reminders.tick()).toBe(0); // inside the window: paused, the incident stays open
    expect((await c.call('GET', `/api/v1/incidents?monitor_id=${id}`)).body.data[0].status).toBe('opened');
    clock.set(`${day}T11:05:00Z`);
    expect(await reminders.tick()).toBe(1);
  });
});
