/**
 * The public page's history, through the real engine and the real app on both databases: day bars, uptime windows,
 * incidents current and past, SLA targets, and HTTP caching, against figures computed by hand.
 *
 * Scenario (UTC; failure threshold 2, so an outage begins at its first failing check):
 * - API: created 05-08 00:00, up; down 05-09 10:00 (checks 10:00, 10:01), up again 11:00. One hour down.
 * - Web: created 05-08 00:00, up; paused 05-09 00:00 and still paused.
 * - Jobs: created 05-10 00:00, up; down since 11:00 (checks 11:00, 11:01), still down: an open incident.
 * Page rendered at 05-10 12:00.
 */
import { gunzipSync } from 'node:zlib';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ManualClock, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { at, clientOf } from '../reports/reports.helpers.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are inspected loosely in tests
type Json = Record<string, any>;

for (const dialect of testDialects()) {
  describe(`${dialect}: public status page history`, () => {
    let t: TestApp;
    let org: TestOrg;
    let clock: ManualClock;
    let c: ReturnType<typeof clientOf>;
    const ids: Record<'api' | 'web' | 'jobs', string> = { api: '', web: '', jobs: '' };
    let pageId = '';
    const slug = `history-${dialect}`;

    beforeAll(async () => {
      clock = new ManualClock('2026-05-08T00:00:00.000Z');
      t = await createTestApp({ dialect, clock });
      org = await t.createOrg();
      c = clientOf(t, org);
      ids.api = await c.createMonitor({ name: 'API' });
      ids.web = await c.createMonitor({ name: 'Web' });
      await c.check(ids.api, 'up', at('2026-05-08T00:00:00Z'));
      await c.check(ids.web, 'up', at('2026-05-08T00:00:00Z'));
      clock.set('2026-05-09T00:00:00Z');
      expect((await c.call('POST', `/api/v1/monitors/${ids.web}/pause`)).status).toBe(200);
      clock.set('2026-05-09T10:00:00Z');
      await c.check(ids.api, 'down', at('2026-05-09T10:00:00Z'));
      await c.check(ids.api, 'down', at('2026-05-09T10:01:00Z'));
      await c.check(ids.api, 'up', at('2026-05-09T11:00:00Z'));
      clock.set('2026-05-10T00:00:00Z');
      ids.jobs = await c.createMonitor({ name: 'Jobs' });
      await c.check(ids.jobs, 'up', at('2026-05-10T00:00:00Z'));
      await c.check(ids.jobs, 'down', at('2026-05-10T11:00:00Z'));
      await c.check(ids.jobs, 'down', at('2026-05-10T11:01:00Z'));
      clock.set('2026-05-10T12:00:00Z');
      const page = await c.call('POST', '/api/v1/status-pages', {
        slug,
        title: 'History',
        monitor_ids: [ids.api, ids.web, ids.jobs],
      });
      expect(page.status, JSON.stringify(page.body)).toBe(201);
      expect(page.body.show_sla_targets).toBe(false);
      pageId = page.body.id as string;
      const sla = async (name: string, monitorIds: string[]) =>
        expect(
          (
            await c.call('POST', '/api/v1/sla-targets', {
              name,
              monitor_ids: monitorIds,
              target_percent: 99,
              period: 'monthly',
            })
          ).status,
        ).toBe(201);
      await sla('API monthly', [ids.api]);
      // Covers a monitor that is not on the page: never shown there.
      const other = await c.createMonitor({ name: 'Internal' });
      await sla('With an internal monitor', [ids.api, other]);
    });
    afterAll(async () => t.close());

    const get = (url: string, headers: Record<string, string> = {}) =>
      t.tocsin.app.inject({ method: 'GET', url, headers });

    it('accounts each UTC day and window as the availability report does', async () => {
      const body = (await get(`/status/${slug}.json`)).json() as Json;
      const [api, web, jobs] = body.monitors as Json[];
      expect(api.days).toHaveLength(90);
      expect(api.days[0].day).toBe('2026-02-10');
      expect(api.days[87]).toMatchObject({ day: '2026-05-08', uptime_percent: 100, downtime_seconds: 0 });
      expect(api.days[88]).toMatchObject({
        day: '2026-05-09',
        uptime_percent: 95.83333, // 23 h of 24
        downtime_seconds: 3600,
        monitored_seconds: 86_400,
        checks: 3,
        failures: 2,
      });
      expect(api.days[89]).toMatchObject({ day: '2026-05-10', uptime_percent: 100, monitored_seconds: 12 * 3600 });
      expect(api.days[86]).toMatchObject({ uptime_percent: null, monitored_seconds: 0, paused_seconds: 0 });
      // 60 h monitored since creation, 1 h down.
      expect(api.uptime).toEqual({
        last_24_hours: 100,
        last_7_days: 98.33333,
        last_30_days: 98.33333,
        last_90_days: 98.33333,
      });
      expect(api.uptime_percent).toBe(98.33333);
      expect(web.status).toBe('paused');
      expect(web.days[88]).toMatchObject({ uptime_percent: null, paused_seconds: 86_400 });
      expect(web.uptime).toMatchObject({ last_24_hours: null, last_7_days: 100 });
      expect(jobs.status).toBe('degraded');
      expect(jobs.days[89]).toMatchObject({ uptime_percent: 91.66667, downtime_seconds: 3600 });

      // The same figures as the availability report over the same window.
      const report = await c.call(
        'GET',
        `/api/v1/reports/availability?monitor_ids=${ids.api}&from=2026-05-03T12:00:00Z&to=2026-05-10T12:00:00Z`,
      );
      expect(report.status, JSON.stringify(report.body)).toBe(200);
      expect(report.body.monitors[0].uptime_percent).toBe(api.uptime.last_7_days);
    });

    it('lists the open incident first and the resolved one in the history, public fields only', async () => {
      const body = (await get(`/status/${slug}.json`)).json() as Json;
      // What is sent is what the document describes (PublicStatusPage).
      const doc = (await get('/api/v1/openapi.json')).json() as Json;
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      addFormats.default(ajv);
      const validate = ajv.compile({ $ref: '#/components/schemas/PublicStatusPage', components: doc.components });
      expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
      expect(validate({ ...body, outage: 'some' })).toBe(false);
      expect(body).toMatchObject({ status: 'degraded', outage: 'partial' });
      expect(body.incidents).toEqual([
        expect.objectContaining({
          title: 'Jobs is down',
          monitor_id: ids.jobs,
          started_at: '2026-05-10T11:00:00.000Z',
          opened_at: '2026-05-10T11:01:00.000Z',
          resolved_at: null,
          duration_seconds: 3600,
        }),
      ]);
      expect(body.past_incidents).toEqual([
        expect.objectContaining({
          title: 'API is down',
          status: 'resolved',
          monitor_id: ids.api,
          started_at: '2026-05-09T10:00:00.000Z',
          opened_at: '2026-05-09T10:01:00.000Z',
          resolved_at: '2026-05-09T11:00:00.000Z',
          duration_seconds: 3600,
        }),
      ]);
      expect(body.past_incidents_truncated).toBe(false);
      for (const i of [...body.incidents, ...body.past_incidents]) {
        expect(Object.keys(i).sort()).toEqual(
          [
            'duration_seconds',
            'id',
            'monitor_id',
            'number',
            'opened_at',
            'resolved_at',
            'started_at',
            'status',
            'title',
          ].sort(),
        );
      }
      expect(body.sla_targets).toEqual([]);
    });

    it('renders the HTML with labelled bars, windows, banner and incident history, without scripts', async () => {
      const res = await get(`/status/${slug}`);
      expect(res.statusCode).toBe(200);
      const html = res.body;
      expect(html).not.toMatch(/<script/i);
      expect(html).toContain('! Partial outage<small>1 of 3 systems degraded</small>');
      expect(html).toContain('<li class="partial"><span>2026-05-09: 95.83% uptime, 1 h down</span></li>');
      expect(html).toContain('<li class="paused"><span>2026-05-09: paused, not monitored</span></li>');
      expect(html).toContain('<li class="bad"><span>2026-05-10: 91.66% uptime, 1 h down</span></li>');
      expect(html).toContain('<dl class="up" aria-label="Uptime of API"><div><dt>24 hours</dt><dd>100%</dd></div>');
      expect(html).toContain('<dt>7 days</dt><dd>98.33%</dd>');
      expect(html).toContain('Current incidents');
      expect(html).toContain('since <time datetime="2026-05-10T11:00Z">2026-05-10 11:00 UTC</time> · 1 h so far');
      expect(html).toContain('lasted 1 h');
      expect(html).not.toContain('Service level targets');
      expect(html.length).toBeLessThan(80_000);
    });

    it('shows SLA targets whose monitors are all on the page once the page asks for it', async () => {
      const bad = await c.call('PATCH', `/api/v1/status-pages/${pageId}`, { show_sla_targets: 'yes' });
      expect(bad.status).toBe(422);
      expect(bad.body.error.details).toEqual([{ field: 'show_sla_targets', issue: expect.any(String) }]);
      expect((await c.call('GET', `/api/v1/status-pages/${pageId}`)).body.show_sla_targets).toBe(false);

      const on = await c.call('PATCH', `/api/v1/status-pages/${pageId}`, { show_sla_targets: true });
      expect(on.body.show_sla_targets).toBe(true);
      const body = (await get(`/status/${slug}.json`)).json() as Json;
      // May so far: 60 h monitored, 1 h down; budget 1 % of (60 h + the 516 h left in May) = 5.76 h, 1 h used
      // (17.36111 %). Achieved so far 98.33 % is below 99 %, the budget not spent: the month is still running, so
      // it is neither met nor missed (it used to say met: true, "On target").
      expect(body.sla_targets).toEqual([
        {
          id: expect.stringMatching(/^sla_/),
          name: 'API monthly',
          target_percent: 99,
          period: 'monthly',
          monitor_ids: [ids.api],
          period_from: '2026-05-01T00:00:00.000Z',
          period_to: '2026-06-01T00:00:00.000Z',
          achieved_percent: 98.33333,
          met: null,
          status: 'in_progress',
          error_budget_used_percent: 17.36111,
          error_budget_exhausted: false,
          error_budget_remaining_percent: 82.63889,
        },
      ]);
      const html = (await get(`/status/${slug}`)).body;
      expect(html).toContain(
        '<th scope="row">API monthly</th><td data-h="Target">99%</td><td data-h="Achieved">98.33%</td>',
      );
      expect(html).toContain(
        '<span class="st progress">In progress</span><br><small>17.36% of the error budget used</small>',
      );
      expect(html).not.toContain('On target');

      // Jobs has been down for an hour: at 99.9 % its month's budget (0.1 % of at most 576 h < 35 min) is already
      // spent. Still neither met nor missed in words, but "Budget exhausted".
      const jobsTarget = await c.call('POST', '/api/v1/sla-targets', {
        name: 'Jobs monthly',
        monitor_ids: [ids.jobs],
        target_percent: 99.9,
        period: 'monthly',
      });
      expect(jobsTarget.status).toBe(201);
      try {
        const after = (await get(`/status/${slug}.json`)).json() as Json;
        const jobs = (after.sla_targets as Json[]).find((x) => x.name === 'Jobs monthly')!;
        expect(jobs).toMatchObject({ met: null, status: 'in_progress', error_budget_exhausted: true });
        expect(jobs.error_budget_used_percent).toBeGreaterThan(100);
        expect(jobs.error_budget_remaining_percent).toBeLessThan(0);
        const used = (Math.floor(jobs.error_budget_used_percent * 100) / 100).toFixed(2);
        expect((await get(`/status/${slug}`)).body).toContain(
          `<th scope="row">Jobs monthly</th><td data-h="Target">99.9%</td>`,
        );
        expect((await get(`/status/${slug}`)).body).toContain(
          `<span class="st missed">✕ Budget exhausted</span><br><small>${used}% of the error budget used</small>`,
        );
      } finally {
        await c.call('DELETE', `/api/v1/sla-targets/${jobsTarget.body.id}`);
      }
      expect(html).not.toContain('With an internal monitor');
    });

    it('caches briefly and answers 304 to a matching validator', async () => {
      for (const url of [`/status/${slug}`, `/status/${slug}.json`]) {
        const first = await get(url);
        expect(first.headers['cache-control']).toBe('public, max-age=30');
        const etag = first.headers.etag as string;
        expect(etag).toMatch(/^W\/".+"$/);
        const again = await get(url, { 'if-none-match': etag });
        expect(again.statusCode).toBe(304);
        expect(again.body).toBe('');
        expect((await get(url, { 'if-none-match': 'W/"other"' })).statusCode).toBe(200);
        // A second later the HTML says the same (times to the minute, percentages to 2 decimals): the same
        // validator. The JSON moves on while Jobs is down (its windows' uptime and the open incident's duration).
        clock.advance(1000);
        expect((await get(url, { 'if-none-match': etag })).statusCode).toBe(url.endsWith('.json') ? 200 : 304);
        clock.advance(-1000);
        const zipped = await get(url, { 'accept-encoding': 'gzip, br' });
        expect(zipped.headers['content-encoding']).toBe('gzip');
        expect(zipped.headers.vary).toContain('accept-encoding');
        expect(gunzipSync(zipped.rawPayload).toString('utf8')).toBe(first.body);
      }
    });
  });
}
