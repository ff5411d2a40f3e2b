/**
 * Status pages announce maintenance (DECISIONS §16): upcoming within the window's announce_minutes_before, and in
 * progress, in the public JSON and HTML, on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ManualClock, type TestApp } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { at, clientOf } from '../reports/reports.helpers.ts';

describe.each(testDialects())('maintenance on status pages on %s', (dialect) => {
  let t: TestApp;
  const clock = new ManualClock('2026-04-01T08:00:00.000Z');

  beforeAll(async () => {
    t = await createTestApp({ dialect, clock });
  });
  afterAll(async () => {
    await t.close();
  });

  it('announces a window ahead, shows it in progress with its systems under maintenance, then drops it', async () => {
    const c = clientOf(t, await t.createOrg());
    const api = await c.createMonitor({ name: 'Public API', tags: ['api'] });
    const web = await c.createMonitor({ name: 'Website' });
    await c.check(api, 'up', at('2026-04-01T08:00:00Z'));
    await c.check(web, 'up', at('2026-04-01T08:00:00Z'));
    const page = await c.call('POST', '/api/v1/status-pages', {
      slug: `mnt-${dialect}`,
      title: 'Acme',
      monitor_ids: [api, web],
      public: true,
    });
    expect(page.status).toBe(201);
    const w = await c.call('POST', '/api/v1/maintenance-windows', {
      name: 'API database migration',
      description: 'Writes may be slow <for a while>.',
      tags: ['api'],
      schedule: { type: 'once', starts_at: '2026-04-01T12:00:00Z', ends_at: '2026-04-01T13:00:00Z' },
      status_page_ids: [page.body.id],
      announce_minutes_before: 120,
    });
    expect(w.status).toBe(201);
    const read = async () => {
      const json = await t.tocsin.app.inject({ method: 'GET', url: `/status/mnt-${dialect}.json` });
      const html = await t.tocsin.app.inject({ method: 'GET', url: `/status/mnt-${dialect}` });
      expect(json.statusCode).toBe(200);
      return { json: json.json(), html: html.body };
    };

    clock.set('2026-04-01T09:59:00Z'); // 2 h 1 min before: not announced yet
    let view = await read();
    expect(view.json.maintenance).toEqual([]);
    expect(view.html).not.toContain('API database migration');

    clock.set('2026-04-01T10:00:00Z'); // 2 h before: announced as scheduled
    view = await read();
    expect(view.json.maintenance).toEqual([
      {
        id: w.body.id,
        name: 'API database migration',
        description: 'Writes may be slow <for a while>.',
        starts_at: '2026-04-01T12:00:00.000Z',
        ends_at: '2026-04-01T13:00:00.000Z',
        in_progress: false,
        monitor_ids: [api],
      },
    ]);
    expect(view.json.monitors.map((m: { status: string }) => m.status)).toEqual(['operational', 'operational']);
    expect(view.html).toContain('<h2 id="mnt-h">Maintenance</h2>');
    expect(view.html).toContain('API database migration');
    expect(view.html).toContain('Scheduled');
    expect(view.html).toContain('Writes may be slow &lt;for a while&gt;.');
    expect(view.html).toContain('Affects: Public API');

    clock.set('2026-04-01T12:30:00Z');
    view = await read();
    expect(view.json.maintenance[0]).toMatchObject({ in_progress: true });
    expect(view.json.monitors.map((m: { status: string }) => m.status)).toEqual(['maintenance', 'operational']);
    expect(view.json.status).toBe('operational');
    expect(view.html).toContain('In progress');
    expect(view.html).toContain('⚒ Under maintenance');

    clock.set('2026-04-01T13:00:00Z');
    view = await read();
    expect(view.json.maintenance).toEqual([]);
    expect(view.json.monitors.map((m: { status: string }) => m.status)).toEqual(['operational', 'operational']);
  });
});
