/**
 * `format=pdf` on every report route, through the real app on SQLite and PostgreSQL: 200 `application/pdf` with an
 * attachment file name, a document poppler reads, the organization's name on the first page, the monitor's Unicode
 * name and the JSON's figures in the text; bad input still answers the 422 envelope.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ManualClock, type TestApp } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { at, clientOf } from './reports.helpers.ts';

const NAME = 'Zürich – 東京 – Łódź';
const ROUTES = [
  ['availability', 'availability'],
  ['performance', 'performance'],
  ['sla', 'sla'],
  ['incidents', 'incidents'],
  ['intelligence', 'intelligence'],
  ['monitor-health', 'monitor-health'],
] as const;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tocsin-pdf-http-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function pdfText(body: Buffer, name: string): string[] {
  const file = join(dir, `${name}-${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, body);
  const count = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }))![1]);
  return Array.from({ length: count }, (_, i) =>
    execFileSync('pdftotext', ['-layout', '-f', String(i + 1), '-l', String(i + 1), file, '-'], { encoding: 'utf8' }),
  );
}

describe.each(testDialects())('report PDFs over HTTP on %s', (dialect) => {
  let t: TestApp;
  const clock = new ManualClock('2026-05-01T00:00:00.000Z');

  beforeAll(async () => {
    t = await createTestApp({ dialect, clock, configFile: { plans: { enterprise: { interval_floor_seconds: 1 } } } });
  });
  afterAll(async () => {
    await t.close();
  });

  async function orgWithOutage() {
    const org = await t.createOrg();
    const c = clientOf(t, org);
    clock.set('2026-05-01T00:00:00Z');
    const shop = await c.createMonitor({ name: NAME, tags: ['shop'] });
    await c.check(shop, 'up', at('2026-05-01T00:00:00Z'), 'local', 100);
    await c.check(shop, 'down', at('2026-05-01T02:00:00Z'));
    await c.check(shop, 'down', at('2026-05-01T02:01:00Z'));
    await c.check(shop, 'up', at('2026-05-01T02:10:00Z'), 'local', 150);
    await c.check(shop, 'up', at('2026-05-01T03:00:00Z'), 'local', 130);
    const sla = await c.call('POST', '/api/v1/sla-targets', {
      name: `Shop ${NAME}`,
      monitor_ids: [shop],
      target_percent: 99.9,
      period: 'monthly',
    });
    expect(sla.status).toBe(201);
    clock.set('2026-05-02T00:00:00Z');
    const orgName = (await t.tocsin.services.orgs.getOrganization(org.organizationId)).name;
    return { c, shop, orgName };
  }

  it('every report route answers format=pdf with a named PDF attachment', async () => {
    const { c, orgName } = await orgWithOutage();
    const q = 'from=2026-05-01T00:00:00Z&to=2026-05-02T00:00:00Z&timezone=Europe/Berlin';
    for (const [path, kind] of ROUTES) {
      const res = await c.call('GET', `/api/v1/reports/${path}?${q}&format=pdf`);
      expect([path, res.status]).toEqual([path, 200]);
      expect(res.raw.headers['content-type']).toBe('application/pdf');
      expect(res.raw.headers['content-disposition']).toBe(
        `attachment; filename="tocsin-${kind}-2026-05-01-2026-05-02.pdf"`,
      );
      const pages = pdfText(res.raw.rawPayload, kind);
      expect(pages[0]).toContain(orgName);
      expect(pages[0]).toContain('Europe/Berlin');
      expect(pages[0]).toContain('2026-05-01 02:00 – 2026-05-02 02:00');
      pages.forEach((p, i) => expect(p, path).toContain(`Page ${i + 1} of ${pages.length}`));
    }
  });

  it('the availability, performance and SLA PDFs show the JSON figures and the Unicode name', async () => {
    const { c } = await orgWithOutage();
    const q = 'from=2026-05-01T00:00:00Z&to=2026-05-02T00:00:00Z';
    const av = (await c.call('GET', `/api/v1/reports/availability?${q}`)).body;
    const avPdf = pdfText((await c.call('GET', `/api/v1/reports/availability?${q}&format=pdf`)).raw.rawPayload, 'av');
    const avText = avPdf.join('\n');
    expect(avText).toContain(NAME);
    expect(avPdf[0]).toContain(`${av.summary.uptime_percent} %`);
    const row = avText.split('\n').find((l) => l.includes(NAME) && l.includes(String(av.monitors[0].uptime_percent)));
    expect(row).toBeDefined();
    // the outage of 2026-05-01 02:00 → 02:10 UTC, with its cause, in the longest incidents
    expect(av.monitors[0].downtime_seconds).toBe(600);
    expect(avText).toMatch(/2026-05-01 02:00\s+2026-05-01 02:10\s+10 min 0 s/);

    const perf = (await c.call('GET', `/api/v1/reports/performance?${q}`)).body;
    const perfText = pdfText(
      (await c.call('GET', `/api/v1/reports/performance?${q}&format=pdf`)).raw.rawPayload,
      'perf',
    ).join('\n');
    const perfRow = perfText.split('\n').find((l) => l.includes(NAME) && l.includes(`${perf.monitors[0].p50_ms} ms`));
    expect(perfRow).toBeDefined();
    expect(perfRow).toContain(`${perf.monitors[0].p95_ms} ms`);

    const sla = (await c.call('GET', `/api/v1/reports/sla?${q}`)).body;
    const slaText = pdfText((await c.call('GET', `/api/v1/reports/sla?${q}&format=pdf`)).raw.rawPayload, 'sla').join(
      '\n',
    );
    expect(slaText).toContain(`Shop ${NAME}`);
    // seconds print as the JSON has them, rounded to 5 decimals (floating-point noise off)
    const budget = Math.round(sla.targets[0].current.error_budget_seconds * 1e5) / 1e5;
    expect(slaText).toContain(`(${budget} s)`);
  });

  it('bad input with format=pdf is the 422 envelope, not a document', async () => {
    const { c } = await orgWithOutage();
    const res = await c.call('GET', '/api/v1/reports/availability?format=pdf&timezone=Mars/Olympus');
    expect(res.status).toBe(422);
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain('timezone');
    const unknown = await c.call('GET', '/api/v1/reports/availability?format=docx');
    expect(unknown.status).toBe(422);
  });
});
