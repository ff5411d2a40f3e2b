/**
 * Maintenance excluded from the SLA is neither uptime nor downtime everywhere availability is shown (DECISIONS §16):
 * the public status page's day bars, windows and SLA targets agree with the availability report; the monitor-health
 * report judges flapping on the same spans; report PDFs (single reports, custom and scheduled sections) say that
 * maintenance was excluded. On SQLite and PostgreSQL, through the real app.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MaintenanceEventsRole } from '../../src/modules/maintenance/index.ts';
import { createTestApp, ManualClock, type TestApp } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { at, clientOf } from '../reports/reports.helpers.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies in assertions

const MIN = 60_000;
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tocsin-mnt-views-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The PDF's text (poppler), all pages, whitespace collapsed. */
function pdfText(body: Buffer): string {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, body);
  return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
}

describe.each(testDialects())('maintenance in the status page, monitor health and PDFs on %s', (dialect) => {
  let t: TestApp;
  const clock = new ManualClock('2026-03-02T09:00:00.000Z');

  beforeAll(async () => {
    t = await createTestApp({ dialect, clock });
  });
  afterAll(async () => {
    await t.close();
  });

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

  it('the status page counts a window as the availability report does: bars, tooltips, windows, SLA', async () => {
    const day = '2026-03-02';
    clock.set(`${day}T09:00:00Z`);
    const c = clientOf(t, await t.createOrg());
    const id = await c.createMonitor({ name: 'Checkout', tags: ['shop'] });
    const other = await c.createMonitor({ name: 'Website' });
    // By tag: the window covers Checkout, not Website.
    const w = await c.call('POST', '/api/v1/maintenance-windows', {
      name: 'Database upgrade',
      tags: ['shop'],
      schedule: { type: 'once', starts_at: `${day}T10:00:00Z`, ends_at: `${day}T11:00:00Z` },
    });
    expect(w.status).toBe(201);
    const sla = await c.call('POST', '/api/v1/sla-targets', {
      name: 'Checkout',
      monitor_ids: [id],
      target_percent: 50,
      period: 'monthly',
    });
    expect(sla.status).toBe(201);
    const page = await c.call('POST', '/api/v1/status-pages', {
      slug: `mnt-views-${dialect}`,
      title: 'Acme',
      monitor_ids: [id, other],
      public: true,
      show_sla_targets: true,
    });
    expect(page.status, JSON.stringify(page.body)).toBe(201);

    await c.check(id, 'up', at(`${day}T09:50:00Z`));
    await c.check(other, 'up', at(`${day}T09:50:00Z`));
    clock.set(`${day}T10:05:00Z`);
    await role().runPass();
    await c.check(id, 'down', at(`${day}T10:10:00Z`));
    await c.check(id, 'down', at(`${day}T10:11:00Z`));
    await c.check(other, 'down', at(`${day}T10:20:00Z`));
    await c.check(other, 'down', at(`${day}T10:21:00Z`)); // Website: a real outage 10:20 → 10:40
    await c.check(other, 'up', at(`${day}T10:40:00Z`));
    await c.check(id, 'down', at(`${day}T11:00:30Z`));
    clock.set(`${day}T11:01:00Z`);
    await role().runPass(); // judged from the end: down 11:00
    await c.check(id, 'up', at(`${day}T11:30:00Z`));
    clock.set(`${day}T12:00:00Z`);

    const report = await c.call(
      'GET',
      `/api/v1/reports/availability?from=${day}T00:00:00Z&to=2026-03-03T00:00:00Z&timezone=UTC`,
    );
    expect(report.status).toBe(200);
    const row = (mid: string) => report.body.monitors.find((m: Json) => m.monitor_id === mid);
    expect(row(id)).toMatchObject({ downtime_seconds: 1800, maintenance_seconds: 3600 });
    expect(row(other)).toMatchObject({ downtime_seconds: 1200, maintenance_seconds: 0 });

    const json = await t.tocsin.app.inject({ method: 'GET', url: `/status/mnt-views-${dialect}.json` });
    expect(json.statusCode).toBe(200);
    const view = json.json();
    for (const mid of [id, other]) {
      const m = view.monitors.find((x: Json) => x.id === mid);
      const today = m.days[m.days.length - 1];
      const daily = row(mid).daily[0];
      // The same day, the same figures as the report.
      expect(today.day).toBe(daily.date);
      expect(today.downtime_seconds).toBe(daily.downtime_seconds);
      expect(today.uptime_percent).toBeCloseTo(daily.uptime_percent, 4);
      expect(today.maintenance_seconds).toBe(row(mid).maintenance_seconds);
      expect(today.monitored_seconds).toBe(row(mid).monitored_seconds);
      expect(m.uptime.last_24_hours).toBeCloseTo(row(mid).uptime_percent, 4);
    }
    // Checkout: up 600 + 1 800 s, down 1 800 s, maintenance 3 600 s (not 57 % → 36 % with maintenance counted).
    const checkout = view.monitors.find((x: Json) => x.id === id);
    expect(checkout.days.at(-1)).toMatchObject({ maintenance_seconds: 3600, monitored_seconds: 4200 });
    expect(checkout.uptime.last_24_hours).toBeCloseTo((100 * 2400) / 4200, 4);
    // The page's SLA target: the SLA report's current period.
    const slaReport = await c.call('GET', `/api/v1/reports/sla?from=${day}T00:00:00Z&to=2026-03-03T00:00:00Z`);
    expect(slaReport.status).toBe(200);
    expect(view.sla_targets[0].achieved_percent).toBeCloseTo(slaReport.body.targets[0].current.achieved_percent, 4);
    expect(view.sla_targets[0].achieved_percent).toBeCloseTo((100 * 2400) / 4200, 4);

    const html = (await t.tocsin.app.inject({ method: 'GET', url: `/status/mnt-views-${dialect}` })).body;
    expect(html).toContain(
      `<li class="bad mnt"><span>${day}: 57.14% uptime, 30 min down, 1 h maintenance, not counted`,
    );
    expect(html).toContain(`<li class="bad"><span>${day}: `); // Website: no maintenance mark
    expect(html).toContain('<li><i class="maintenance"></i>maintenance (not counted)</li>');
  });

  it('monitor health does not call a monitor flapping for what it did inside a window', async () => {
    clock.set('2026-03-10T00:00:00Z');
    const c = clientOf(t, await t.createOrg());
    const oneFailure = { failure_threshold: 1 };
    const held = await c.createMonitor({ name: 'Held', config: oneFailure, tags: ['held'] });
    const loose = await c.createMonitor({ name: 'Loose', config: oneFailure });
    const t0 = at('2026-03-10T00:00:00Z');
    const w = await c.call('POST', '/api/v1/maintenance-windows', {
      name: 'Network work',
      tags: ['held'],
      schedule: { type: 'once', starts_at: '2026-03-10T00:14:30Z', ends_at: '2026-03-10T00:30:00Z' },
    });
    expect(w.status).toBe(201);
    // The same checks for both: 15 minutes up, then down/up every minute (each a verdict with a threshold of 1).
    for (const id of [held, loose]) {
      for (let m = 0; m < 15; m++) await c.check(id, 'up', t0 + m * MIN);
      for (let m = 15; m < 25; m++) await c.check(id, m % 2 === 1 ? 'down' : 'up', t0 + m * MIN);
      for (let m = 25; m < 40; m++) await c.check(id, 'up', t0 + m * MIN);
    }
    clock.set('2026-03-11T00:00:00Z');
    const r = await c.call('GET', '/api/v1/reports/monitor-health?from=2026-03-10T00:00:00Z&to=2026-03-11T00:00:00Z');
    expect(r.status).toBe(200);
    const kinds = (name: string) =>
      r.body.monitors.find((m: Json) => m.name === name).findings.map((f: Json) => f.kind) as string[];
    expect(kinds('Loose')).toContain('flapping');
    expect(kinds('Held')).not.toContain('flapping');
    expect(r.body.methodology).toContain('maintenance');
  });

  it('report PDFs say maintenance was excluded: availability, SLA and custom report sections', async () => {
    const day = '2026-03-20';
    clock.set(`${day}T09:00:00Z`);
    const c = clientOf(t, await t.createOrg());
    const id = await c.createMonitor({ name: 'Checkout', tags: ['shop'] });
    expect(
      (
        await c.call('POST', '/api/v1/maintenance-windows', {
          name: 'Upgrade',
          monitor_ids: [id],
          schedule: { type: 'once', starts_at: `${day}T10:00:00Z`, ends_at: `${day}T12:00:00Z` },
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await c.call('POST', '/api/v1/sla-targets', {
          name: 'Checkout SLA',
          monitor_ids: [id],
          target_percent: 99,
          period: 'monthly',
        })
      ).status,
    ).toBe(201);
    await c.check(id, 'up', at(`${day}T09:30:00Z`));
    clock.set(`${day}T18:00:00Z`);
    const q = `from=${day}T00:00:00Z&to=2026-03-21T00:00:00Z&timezone=UTC`;
    const excluded = /maintenance windows that exclude maintenance from the SLA/;

    const availability = pdfText((await c.call('GET', `/api/v1/reports/availability?${q}&format=pdf`)).raw.rawPayload);
    expect(availability).toMatch(excluded);
    expect(availability).toContain('Paused Maint. Coverage %'); // the column, its header whole
    expect(availability).toContain('Monitored time Longest incident 1 6 h 30 min 0s maintenance excluded'); // page 1
    expect(availability).toContain('2 h 00 min'); // the monitor's maintenance
    const sla = pdfText((await c.call('GET', `/api/v1/reports/sla?${q}&format=pdf`)).raw.rawPayload);
    expect(sla).toMatch(excluded);

    // A custom report whose first section is not about availability still states the availability methodology.
    const custom = await c.call('POST', '/api/v1/custom-reports', {
      name: 'Mixed',
      period: { from: `${day}T00:00:00Z`, to: '2026-03-21T00:00:00Z' },
      widgets: [
        { kind: 'incidents', title: 'Incidents' },
        { kind: 'availability', title: 'Uptime' },
      ],
    });
    expect(custom.status, JSON.stringify(custom.body)).toBe(201);
    const customPdf = await c.call('GET', `/api/v1/custom-reports/${custom.body.id}/render?format=pdf`);
    expect(customPdf.status).toBe(200);
    const customText = pdfText(customPdf.raw.rawPayload);
    // The closing note states both sections' methodologies (it used to state the first section's only).
    const methodology = customText.slice(customText.lastIndexOf('Methodology'));
    expect(methodology).toContain('Incidents whose time overlaps the period');
    expect(methodology).toMatch(excluded);

    // A scheduled custom report's mailed PDF: test/scheduled-reports/scheduled-reports.delivery.test.ts.
  });
});
