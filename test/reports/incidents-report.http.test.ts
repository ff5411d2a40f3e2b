/**
 * The incidents report and the streamed incidents export through the real app, on SQLite and PostgreSQL: a day of
 * incidents worked out by hand (MTTA/MTTR with acknowledged and unacknowledged incidents, one open at the period's
 * end, one across the period's start), CSV against JSON, the export over several keyset pages, environments,
 * plan gate, scopes and the 422s.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, ManualClock, type TestApp } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { seedIncidents } from '../support/incidents.seed.ts';
import { at, clientOf } from './reports.helpers.ts';
import { parseCsv } from './csv.parse.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies in assertions

/** Page count and the text of each page, read back with poppler. */
function pdfPages(body: Buffer): string[] {
  const file = join(mkdtempSync(join(tmpdir(), 'tocsin-incidents-pdf-')), 'incidents.pdf');
  writeFileSync(file, body);
  const count = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }))![1]);
  return Array.from({ length: count }, (_, i) =>
    execFileSync('pdftotext', ['-layout', '-f', String(i + 1), '-l', String(i + 1), file, '-'], { encoding: 'utf8' }),
  );
}

describe.each(testDialects())('incidents report and export on %s', (dialect) => {
  let t: TestApp;
  const clock = new ManualClock('2026-05-01T00:00:00.000Z');

  beforeAll(async () => {
    t = await createTestApp({
      dialect,
      clock,
      configFile: { plans: { enterprise: { interval_floor_seconds: 1 }, team: { reports: false } } },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  /**
   * 2026-05-01 (UTC), failure_threshold 2 (the down verdict comes with the second failure, the outage counts from
   * the first):
   *  #1 shop  down 02:00, opened 02:01, resolved 02:10 (auto)          TTA –      TTR  540  duration  600
   *  #2 api   down 03:00, opened 03:01, resolved 03:05 (staging)        TTA –      TTR  240  duration  300
   *  #3 shop  down 05:00, opened 05:01, acknowledged 05:04, res. 06:01 TTA  180   TTR 3600  duration 3660
   *  #4 api-source incident opened 12:00 by a key, still open           TTA –      TTR –     duration 46800 (→ now)
   *  #5 shop  down 23:00, opened 23:01, ack 23:31, resolved 00:30 next day (after the period)
   *                                                                     TTA 1800   TTR 5340  duration 5400
   * The report is made at 2026-05-02T01:00Z.
   */
  async function dayOfIncidents() {
    const org = await t.createOrg();
    const c = clientOf(t, org);
    clock.set('2026-05-01T00:00:00Z');
    const shop = await c.createMonitor({ name: 'Shop', tags: ['shop'] });
    const api = await c.createMonitor({ name: 'API', tags: ['api'], environment: 'staging' });
    await c.check(shop, 'up', at('2026-05-01T00:00:00Z'));
    await c.check(api, 'up', at('2026-05-01T00:00:00Z'));
    await c.check(shop, 'down', at('2026-05-01T02:00:00Z'));
    await c.check(shop, 'down', at('2026-05-01T02:01:00Z'));
    await c.check(shop, 'up', at('2026-05-01T02:10:00Z'));
    await c.check(api, 'down', at('2026-05-01T03:00:00Z'));
    await c.check(api, 'down', at('2026-05-01T03:01:00Z'));
    await c.check(api, 'up', at('2026-05-01T03:05:00Z'));
    await c.check(shop, 'down', at('2026-05-01T05:00:00Z'));
    await c.check(shop, 'down', at('2026-05-01T05:01:00Z'));
    const open = async () =>
      (await c.call('GET', `/api/v1/incidents?monitor_id=${shop}&status=opened`)).body.data[0].id as string;
    clock.set('2026-05-01T05:04:00Z');
    expect((await c.call('POST', `/api/v1/incidents/${await open()}/acknowledge`)).status).toBe(200);
    await c.check(shop, 'up', at('2026-05-01T06:01:00Z'));
    clock.set('2026-05-01T12:00:00Z');
    const manual = await c.call('POST', '/api/v1/incidents', {
      title: 'Checkout "slow", see\nnotes',
      cause: 'reported by support, ticket #12',
    });
    expect(manual.status).toBe(201);
    await c.check(shop, 'down', at('2026-05-01T23:00:00Z'));
    await c.check(shop, 'down', at('2026-05-01T23:01:00Z'));
    clock.set('2026-05-01T23:31:00Z');
    expect((await c.call('POST', `/api/v1/incidents/${await open()}/acknowledge`)).status).toBe(200);
    await c.check(shop, 'up', at('2026-05-02T00:30:00Z'));
    clock.set('2026-05-02T01:00:00Z');
    return { org, c, shop, api, manualId: manual.body.id as string };
  }

  const DAY = 'from=2026-05-01T00:00:00Z&to=2026-05-02T00:00:00Z';

  it('summary, rows and days worked out by hand; CSV with the same rows, quoting and BOM', async () => {
    const { c, shop, api, manualId } = await dayOfIncidents();
    const r = await c.call('GET', `/api/v1/reports/incidents?${DAY}`);
    expect(r.status).toBe(200);
    const body = r.body;
    expect(body.report).toBe('incidents');
    expect(body.period).toEqual({
      from: '2026-05-01T00:00:00.000Z',
      to: '2026-05-02T00:00:00.000Z',
      timezone: 'UTC',
      preset: null,
    });
    expect(body.summary).toEqual({
      count: 5,
      by_source: { monitor: 4, api: 1, intelligence: 0, manual: 0 },
      mtta_seconds: 990, // (180 + 1800) / 2
      mttr_seconds: 2430, // (540 + 240 + 3600 + 5340) / 4
      median_tta_seconds: 990,
      median_ttr_seconds: 2070, // (540 + 3600) / 2
      opened: 5,
      acknowledged: 2,
      resolved: 4,
      open: 1, // #4
      open_at_period_end: 2, // #4, and #5 (resolved after the period)
    });
    expect(body.daily).toEqual([{ date: '2026-05-01', opened: 5 }]);
    const rows = body.incidents.map((i: Json) => [
      i.number,
      i.source,
      i.monitor_id,
      i.status,
      i.opened_at,
      i.down_since,
      i.duration_seconds,
      i.time_to_acknowledge_seconds,
      i.time_to_resolve_seconds,
    ]);
    expect(rows).toEqual([
      [1, 'monitor', shop, 'resolved', '2026-05-01T02:01:00.000Z', '2026-05-01T02:00:00.000Z', 600, null, 540],
      [2, 'monitor', api, 'resolved', '2026-05-01T03:01:00.000Z', '2026-05-01T03:00:00.000Z', 300, null, 240],
      [3, 'monitor', shop, 'resolved', '2026-05-01T05:01:00.000Z', '2026-05-01T05:00:00.000Z', 3660, 180, 3600],
      [4, 'api', null, 'opened', '2026-05-01T12:00:00.000Z', '2026-05-01T12:00:00.000Z', 46800, null, null],
      [5, 'monitor', shop, 'resolved', '2026-05-01T23:01:00.000Z', '2026-05-01T23:00:00.000Z', 5400, 1800, 5340],
    ]);
    expect(body.incidents[3].id).toBe(manualId);

    const csv = await c.call('GET', `/api/v1/reports/incidents?${DAY}&format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.raw.headers['content-type']).toBe('text/csv; charset=utf-8');
    const text = csv.raw.rawPayload.toString('utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    expect(text).toContain('"Checkout ""slow"", see\nnotes"');
    const table = parseCsv(text.slice(1));
    expect(table[0]).toEqual([
      'id',
      'number',
      'title',
      'source',
      'monitor_id',
      'cause',
      'status',
      'opened_at',
      'down_since',
      'acknowledged_at',
      'resolved_at',
      'duration_seconds',
      'time_to_acknowledge_seconds',
      'time_to_resolve_seconds',
      'period_from',
      'period_to',
      'timezone',
    ]);
    expect(table).toHaveLength(6);
    for (const [i, row] of table.slice(1).entries()) {
      const j = body.incidents[i];
      expect(row).toHaveLength(17);
      expect(row.slice(0, 14)).toEqual(
        [
          j.id,
          j.number,
          j.title,
          j.source,
          j.monitor_id,
          j.cause,
          j.status,
          j.opened_at,
          j.down_since,
          j.acknowledged_at,
          j.resolved_at,
          j.duration_seconds,
          j.time_to_acknowledge_seconds,
          j.time_to_resolve_seconds,
        ].map((v) => (v === null ? '' : String(v))),
      );
    }
    expect(table[4]![2]).toBe('Checkout "slow", see\nnotes');
  });

  it('which incidents a window holds: across its start, resolved exactly at its start, days in a zone', async () => {
    const { c } = await dayOfIncidents();
    // 02:05–…: #1 (02:01–02:10) began before the window: listed, but not opened inside it.
    const across = await c.call('GET', '/api/v1/reports/incidents?from=2026-05-01T02:05:00Z&to=2026-05-01T04:00:00Z');
    expect(across.body.incidents.map((i: Json) => i.number)).toEqual([1, 2]);
    expect(across.body.summary.opened).toBe(1);
    expect(across.body.daily).toEqual([{ date: '2026-05-01', opened: 1 }]);
    // A window starting at 02:10, the moment #1 was resolved, does not hold it ([from, to) overlap).
    const after = await c.call('GET', '/api/v1/reports/incidents?from=2026-05-01T02:10:00Z&to=2026-05-01T04:00:00Z');
    expect(after.body.incidents.map((i: Json) => i.number)).toEqual([2]);
    // America/New_York (EDT, UTC−4): the window runs from April 30 20:00 local; May 1 begins at 04:00Z. #1 (02:01Z)
    // and #2 (03:01Z) fall on April 30 local, #3 (05:01Z), #4 (12:00Z) and #5 (23:01Z) on May 1.
    const ny = await c.call('GET', `/api/v1/reports/incidents?${DAY}&timezone=America/New_York`);
    expect(ny.body.daily).toEqual([
      { date: '2026-04-30', opened: 2 },
      { date: '2026-05-01', opened: 3 },
    ]);
    // Filters: monitor_ids and tags keep only those monitors' incidents (not the key's own incident #4).
    const byTag = await c.call('GET', `/api/v1/reports/incidents?${DAY}&tags=shop`);
    expect(byTag.body.incidents.map((i: Json) => i.number)).toEqual([1, 3, 5]);
  });

  it("a key limited to production sees neither the staging monitor's incidents nor its ids", async () => {
    const { org, c, api } = await dayOfIncidents();
    const key = await c.call('POST', '/api/v1/api-keys', {
      name: 'prod only',
      scopes: ['reports:read'],
      environments: ['production'],
    });
    const prod = clientOf(t, { ...org, apiKey: key.body.key as string });
    const r = await prod.call('GET', `/api/v1/reports/incidents?${DAY}`);
    expect(r.body.incidents.map((i: Json) => i.number)).toEqual([1, 3, 4, 5]);
    expect(r.body.summary.by_source.monitor).toBe(3);
    const exp = await prod.call('GET', `/api/v1/reports/incidents/export?${DAY}&format=json`);
    expect(JSON.parse(exp.raw.body).incidents.map((i: Json) => i.number)).toEqual([1, 3, 4, 5]);
    const staging = await prod.call('GET', `/api/v1/reports/incidents/export?${DAY}&monitor_ids=${api}`);
    expect(staging.status).toBe(422);
    expect(staging.body.error.details[0].field).toBe('monitor_ids[0]');
  });

  // 4,321 incidents as CSV, JSON and a 75-page PDF: about 18 s on a busy machine.
  it(
    'the export streams every incident over several keyset pages, CSV and JSON (the report), and the PDF',
    { timeout: 90_000 },
    async () => {
      const org = await t.createOrg();
      const c = clientOf(t, org);
      const start = at('2026-04-01T00:00:00Z');
      // 4,321 incidents (three keyset pages of 2,000), one every 30 minutes; every third acknowledged after 60 s, every second
      // resolved after 600 s; titles with commas, quotes and line breaks.
      await seedIncidents(t.tocsin.database, org.organizationId, 4321, (i) => ({
        openedAt: start + i * 1_800_000,
        title: `Outage ${i}, "db", line\nbreak`,
        ...(i % 3 === 0 && { acknowledgedAt: start + i * 1_800_000 + 60_000, status: 'acknowledged' as const }),
        ...(i % 2 === 0 && {
          resolvedAt: start + i * 1_800_000 + 600_000,
          resolvedBy: 'auto',
          status: 'resolved' as const,
        }),
      }));
      clock.set('2026-07-01T00:00:00Z');
      const q = 'from=2026-04-01T00:00:00Z&to=2026-07-01T00:00:00Z';
      const report = await c.call('GET', `/api/v1/reports/incidents?${q}`);
      expect(report.body.summary.count).toBe(4321);
      expect(report.body.summary.acknowledged).toBe(1441); // i = 0, 3, …, 4320
      expect(report.body.summary.resolved).toBe(2161);
      expect(report.body.summary.mtta_seconds).toBe(60);
      expect(report.body.summary.mttr_seconds).toBe(600);

      const csv = await c.call('GET', `/api/v1/reports/incidents/export?${q}`);
      expect(csv.status).toBe(200);
      expect(csv.raw.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(csv.raw.headers['content-disposition']).toBe('attachment; filename="incidents.csv"');
      const text = csv.raw.rawPayload.toString('utf8');
      expect(text.startsWith('\uFEFF')).toBe(true);
      const table = parseCsv(text.slice(1));
      expect(table).toHaveLength(4322);
      expect(new Set(table.slice(1).map((r) => r[0])).size).toBe(4321);
      expect(table.slice(1).map((r) => r[0])).toEqual(report.body.incidents.map((i: Json) => i.id));
      expect(table[1]![2]).toBe('Outage 0, "db", line\nbreak');
      const sum = (col: number) => table.slice(1).reduce((s, r) => s + (r[col] === '' ? 0 : Number(r[col])), 0);
      const jsonSum = (f: string) => report.body.incidents.reduce((s: number, i: Json) => s + (i[f] ?? 0), 0);
      expect(sum(11)).toBeCloseTo(jsonSum('duration_seconds'), 6);
      expect(sum(12)).toBeCloseTo(jsonSum('time_to_acknowledge_seconds'), 6);
      expect(sum(13)).toBeCloseTo(jsonSum('time_to_resolve_seconds'), 6);

      const json = await c.call('GET', `/api/v1/reports/incidents/export?${q}&format=json`);
      expect(json.raw.headers['content-type']).toBe('application/json; charset=utf-8');
      // The report envelope like every other report (it was a bare array): the incidents report itself, its summary
      // and days counted while the incidents streamed.
      expect(JSON.parse(json.raw.body)).toEqual(report.body);
      expect(json.raw.body.startsWith('{"report":"incidents","period":')).toBe(true);

      // PDF (it was a 422): the incidents report's document with every incident.
      const pdf = await c.call('GET', `/api/v1/reports/incidents/export?${q}&format=pdf`);
      expect(pdf.status).toBe(200);
      expect(pdf.raw.headers['content-type']).toBe('application/pdf');
      expect(pdf.raw.headers['content-disposition']).toBe('attachment; filename="incidents.pdf"');
      const pages = pdfPages(pdf.raw.rawPayload);
      expect(pages.length).toBeGreaterThan(50);
      expect(pages[0]).toContain('Incidents report');
      expect(pages.join('\n')).toContain('Incidents (4321)');
      pages.forEach((text, i) => expect(text).toContain(`Page ${i + 1} of ${pages.length}`));
      // The last incident (number 4,321, opened 2026-06-30 00:00 UTC) is on the list.
      expect(pages.join('\n')).toMatch(/\b4321\s+Outage 4320/);

      // An empty range is a header only, or the report without incidents.
      const none = 'from=2025-01-01T00:00:00Z&to=2025-02-01T00:00:00Z';
      expect((await c.call('GET', `/api/v1/reports/incidents/export?${none}`)).raw.body).toBe(
        '\uFEFF' + table[0]!.join(',') + '\r\n',
      );
      expect(
        JSON.parse((await c.call('GET', `/api/v1/reports/incidents/export?${none}&format=json`)).raw.body),
      ).toEqual((await c.call('GET', `/api/v1/reports/incidents?${none}`)).body);
    },
  );

  it('the export reads only as fast as its client takes the rows, and stops when the client goes away', async () => {
    const org = await t.createOrg();
    const start = at('2026-01-01T00:00:00Z');
    // 30,000 incidents: 15 pages of 2,000, about 20 MiB of CSV (far more than the loopback socket buffers hold).
    await seedIncidents(t.tocsin.database, org.organizationId, 30_000, (i) => ({
      openedAt: start + i * 60_000,
      title: `Incident ${i}: ${'a long title that fills the socket buffers sooner; '.repeat(8)}`,
    }));
    clock.set('2026-03-01T00:00:00Z');
    const incidents = t.tocsin.services.incidents;
    const original = incidents.pageOverlapping.bind(incidents);
    let pagesRead = 0;
    incidents.pageOverlapping = async (...args: Parameters<typeof original>) => {
      pagesRead++;
      return original(...args);
    };
    try {
      const address = await t.tocsin.app.listen({ port: 0, host: '127.0.0.1' });
      const url = `${address}/api/v1/reports/incidents/export?from=2026-01-01T00:00:00Z&to=2026-03-01T00:00:00Z`;
      const req = request(url, { headers: bearer(org.apiKey) });
      const response = await new Promise<IncomingMessage>((resolve) => req.on('response', resolve).end());
      expect(response.statusCode).toBe(200);
      await new Promise((resolve) => response.once('data', resolve));
      response.pause(); // the client stops reading
      await new Promise((resolve) => setTimeout(resolve, 300));
      const whilePaused = pagesRead;
      expect(whilePaused).toBeGreaterThan(0);
      expect(whilePaused).toBeLessThan(15);
      req.destroy(); // and goes away
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(pagesRead).toBeLessThanOrEqual(whilePaused + 1);
    } finally {
      incidents.pageOverlapping = original;
    }
  });

  it('bad input answers 422 naming the field before anything is streamed; plan gate and scope', async () => {
    const org = await t.createOrg();
    const c = clientOf(t, org);
    const other = clientOf(t, await t.createOrg());
    const foreign = await other.createMonitor({ name: 'Other' });
    const cases: Array<[string, string]> = [
      ['format=pdfx', 'format'],
      ['period=last_year', 'period'],
      ['timezone=Mars/Olympus', 'timezone'],
      ['from=2026-05-02T00:00:00Z&to=2026-05-01T00:00:00Z', 'from'],
      ['from=2025-01-01T00:00:00Z&to=2026-05-01T00:00:00Z', 'to'],
      [`monitor_ids=${foreign}`, 'monitor_ids[0]'],
    ];
    for (const path of ['incidents', 'incidents/export']) {
      for (const [query, field] of cases) {
        const r = await c.call('GET', `/api/v1/reports/${path}?${query}`);
        expect([path, query, r.status]).toEqual([path, query, 422]);
        expect(r.body.error.code).toBe('validation_failed');
        expect(r.body.error.details.map((d: Json) => d.field)).toContain(field);
      }
    }
    // Bad input is refused before a PDF is drawn too.
    const pdf = await c.call('GET', `/api/v1/reports/incidents/export?format=pdf&monitor_ids=${foreign}`);
    expect([pdf.status, pdf.body.error.details[0].field]).toEqual([422, 'monitor_ids[0]']);
    const team = clientOf(t, await t.createOrg({ plan: 'team' }));
    expect((await team.call('GET', '/api/v1/reports/incidents/export')).body.error.code).toBe('plan_upgrade_required');
    const noScope = clientOf(t, await t.createOrg({ scopes: ['incidents:read'] }));
    expect((await noScope.call('GET', '/api/v1/reports/incidents')).body.error.code).toBe('insufficient_scope');
    expect((await noScope.call('GET', '/api/v1/reports/incidents/export')).body.error.code).toBe('insufficient_scope');
  });
});
