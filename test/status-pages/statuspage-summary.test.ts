/**
 * /status/{slug}/api/v2/summary.json, status.json and components.json in Atlassian Statuspage's shape (DECISIONS
 * §18), on SQLite and PostgreSQL: every answer validates against a JSON Schema written from Statuspage's published
 * API documentation (statuspage-v2.schema.ts), and says what the page shows: an outage with its incident and
 * updates, maintenance scheduled then in progress, recovery. Open to any origin, cached briefly.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { at, clientOf } from '../reports/reports.helpers.ts';
import { createTestApp, ManualClock, type TestApp } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import {
  STATUSPAGE_COMPONENTS_SCHEMA,
  STATUSPAGE_STATUS_SCHEMA,
  STATUSPAGE_SUMMARY_SCHEMA,
} from './statuspage-v2.schema.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies in assertions

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
const validators = {
  summary: ajv.compile(STATUSPAGE_SUMMARY_SCHEMA),
  status: ajv.compile(STATUSPAGE_STATUS_SCHEMA),
  components: ajv.compile(STATUSPAGE_COMPONENTS_SCHEMA),
};

describe.each(testDialects())('Statuspage-shaped JSON on %s', (dialect) => {
  let t: TestApp;
  const clock = new ManualClock('2026-06-01T08:00:00.000Z');

  beforeAll(async () => {
    t = await createTestApp({ dialect, clock });
  });
  afterAll(async () => {
    await t.close();
  });

  async function read(slug: string, file: 'summary' | 'status' | 'components'): Promise<Json> {
    const res = await t.tocsin.app.inject({ method: 'GET', url: `/status/${slug}/api/v2/${file}.json` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['cache-control']).toBe('public, max-age=30');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'");
    const body = res.json() as Json;
    const validate = validators[file];
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    return body;
  }

  it('tells an outage, its incident and updates, announced maintenance and the recovery', async () => {
    const c = clientOf(t, await t.createOrg());
    const api = await c.createMonitor({ name: 'Public API' });
    const web = await c.createMonitor({ name: 'Website <main>' });
    const jobs = await c.createMonitor({ name: 'Jobs' });
    for (const id of [api, web, jobs]) await c.check(id, 'up', at('2026-06-01T08:00:00Z'));
    const slug = `sp-json-${dialect}`;
    const page = await c.call('POST', '/api/v1/status-pages', {
      slug,
      title: 'Acme status',
      monitor_ids: [api, web, jobs],
    });
    expect(page.status).toBe(201);
    const pageUrl = `${t.tocsin.config.publicUrl}/status/${slug}`;

    let s = await read(slug, 'summary');
    expect(s.page).toEqual({
      id: page.body.id,
      name: 'Acme status',
      url: pageUrl,
      time_zone: 'Etc/UTC',
      updated_at: '2026-06-01T08:00:00.000Z',
    });
    expect(s.status).toEqual({ indicator: 'none', description: 'All Systems Operational' });
    expect(s.components.map((x: Json) => [x.id, x.name, x.status, x.position])).toEqual([
      [api, 'Public API', 'operational', 1],
      [web, 'Website <main>', 'operational', 2],
      [jobs, 'Jobs', 'operational', 3],
    ]);
    expect(s.components[0]).toMatchObject({
      page_id: page.body.id,
      group_id: null,
      group: false,
      only_show_if_degraded: false,
      created_at: '2026-06-01T08:00:00.000Z',
      start_date: '2026-06-01',
    });
    expect(s.incidents).toEqual([]);
    expect(s.scheduled_maintenances).toEqual([]);

    // The API goes down (confirmed on the second failing check); someone acknowledges the incident.
    clock.set('2026-06-01T09:01:00Z');
    await c.check(api, 'down', at('2026-06-01T09:00:00Z'));
    await c.check(api, 'down', at('2026-06-01T09:01:00Z'));
    const open = ((await c.call('GET', '/api/v1/incidents')).body.data as Json[]).filter((i) => i.status === 'opened');
    expect(open).toHaveLength(1);
    clock.set('2026-06-01T09:10:00Z');
    expect((await c.call('POST', `/api/v1/incidents/${open[0]!.id}/acknowledge`)).status).toBe(200);
    const w = await c.call('POST', '/api/v1/maintenance-windows', {
      name: 'Website move',
      description: 'The website moves to a new host.',
      monitor_ids: [web],
      schedule: { type: 'once', starts_at: '2026-06-01T12:00:00Z', ends_at: '2026-06-01T13:00:00Z' },
      status_page_ids: [page.body.id],
      announce_minutes_before: 240,
    });
    expect(w.status).toBe(201);

    clock.set('2026-06-01T09:30:00Z');
    s = await read(slug, 'summary');
    expect(s.status).toEqual({ indicator: 'major', description: 'Partial System Outage' });
    expect(s.components.map((x: Json) => x.status)).toEqual(['major_outage', 'operational', 'operational']);
    expect(s.components[0].updated_at).toBe('2026-06-01T09:01:00.000Z');
    expect(s.page.updated_at).toBe('2026-06-01T09:01:00.000Z');
    expect(s.incidents).toHaveLength(1);
    const incident = s.incidents[0];
    expect(incident).toMatchObject({
      id: open[0]!.id,
      name: open[0]!.title,
      status: 'identified',
      impact: 'major',
      started_at: '2026-06-01T09:00:00.000Z',
      created_at: '2026-06-01T09:01:00.000Z',
      updated_at: '2026-06-01T09:10:00.000Z',
      resolved_at: null,
      monitoring_at: null,
      shortlink: pageUrl,
      page_id: page.body.id,
    });
    expect(incident.components.map((x: Json) => x.id)).toEqual([api]);
    expect(incident.incident_updates.map((u: Json) => [u.status, u.body, u.display_at])).toEqual([
      ['identified', 'The problem with Public API is being worked on.', '2026-06-01T09:10:00.000Z'],
      ['investigating', 'We are investigating a problem with Public API.', '2026-06-01T09:00:00.000Z'],
    ]);
    expect(incident.incident_updates[1].affected_components).toEqual([
      { code: api, name: 'Public API', old_status: 'operational', new_status: 'major_outage' },
    ]);
    expect(s.scheduled_maintenances).toHaveLength(1);
    expect(s.scheduled_maintenances[0]).toMatchObject({
      id: w.body.id,
      name: 'Website move',
      status: 'scheduled',
      impact: 'maintenance',
      scheduled_for: '2026-06-01T12:00:00.000Z',
      scheduled_until: '2026-06-01T13:00:00.000Z',
      shortlink: pageUrl,
    });
    expect(s.scheduled_maintenances[0].components.map((x: Json) => x.id)).toEqual([web]);
    expect(s.scheduled_maintenances[0].incident_updates[0]).toMatchObject({
      status: 'scheduled',
      body: 'The website moves to a new host.',
    });

    // status.json and components.json are the same page, cut down.
    const st = await read(slug, 'status');
    expect(st).toEqual({ page: s.page, status: s.status });
    const comps = await read(slug, 'components');
    expect(comps).toEqual({ page: s.page, components: s.components });

    // Every monitor down: critical.
    await c.check(web, 'down', at('2026-06-01T09:31:00Z'));
    await c.check(web, 'down', at('2026-06-01T09:32:00Z'));
    await c.check(jobs, 'down', at('2026-06-01T09:31:00Z'));
    await c.check(jobs, 'down', at('2026-06-01T09:32:00Z'));
    clock.set('2026-06-01T09:33:00Z');
    s = await read(slug, 'summary');
    expect(s.status).toEqual({ indicator: 'critical', description: 'Major System Outage' });
    expect(s.incidents).toHaveLength(3);

    // All recovered; the website's maintenance is in progress.
    for (const id of [api, web, jobs]) await c.check(id, 'up', at('2026-06-01T12:29:00Z'));
    clock.set('2026-06-01T12:30:00Z');
    s = await read(slug, 'summary');
    expect(s.status).toEqual({ indicator: 'none', description: 'Service Under Maintenance' });
    expect(s.components.map((x: Json) => x.status)).toEqual(['operational', 'under_maintenance', 'operational']);
    expect(s.incidents).toEqual([]);
    expect(s.scheduled_maintenances.map((m: Json) => m.status)).toEqual(['in_progress']);
  });

  it('answers 404 for an unknown page and a page that is not public', async () => {
    const c = clientOf(t, await t.createOrg());
    const hidden = await c.call('POST', '/api/v1/status-pages', {
      slug: `sp-hidden-${dialect}`,
      title: 'Internal',
      public: false,
    });
    expect(hidden.status).toBe(201);
    for (const url of [
      `/status/sp-hidden-${dialect}/api/v2/summary.json`,
      `/status/sp-hidden-${dialect}/api/v2/status.json`,
      '/status/no-such-page/api/v2/components.json',
      `/status/sp-hidden-${dialect}/badge.svg`,
    ]) {
      const res = await t.tocsin.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    }
  });
});
