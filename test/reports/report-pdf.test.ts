/**
 * The PDFs of the six report kinds, read back with poppler (pdfinfo, pdftotext, pdffonts): A4 pages, "Page X of Y"
 * on every page, the table header row again on every page a table continues on, the fonts embedded as subsets, the
 * figures of the JSON in the text, a Unicode monitor name, the first page's facts. Also the documents of several
 * sections (custom reports) in CSV and PDF.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  availabilityFixture,
  incidentsFixture,
  intelligenceFixture,
  monitorHealthFixture,
  performanceFixture,
  slaFixture,
  UNICODE_NAME,
} from '../support/report.fixtures.ts';
import type { ServiceContext } from '../../src/modules/auth/index.ts';
import type { ReportKind } from '../../src/modules/reports/index.ts';
import { ReportBuildPool } from '../../src/modules/reports/report-build.pool.ts';
import { ReportRenderer } from '../../src/modules/reports/report.render.ts';
import { ManualClock } from '../support/app.ts';

const ORG = 'Łódź Monitoring GmbH';
const ctx = {
  actor: { organizationId: 'org_pdf_test' },
  clock: new ManualClock('2026-11-24T00:00:00Z'),
} as unknown as ServiceContext;

let dir: string;
let renderer: ReportRenderer;

/** The text of each page (pdftotext -layout keeps a table row on one line). */
function pages(pdf: Buffer, name: string): string[] {
  const file = join(dir, `${name}.pdf`);
  writeFileSync(file, pdf);
  const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
  const count = Number(/Pages:\s+(\d+)/.exec(info)![1]);
  expect(info).toMatch(/Page size:\s+595\.\d+ x 841\.\d+ pts \(A4\)/);
  return Array.from({ length: count }, (_, i) =>
    execFileSync('pdftotext', ['-layout', '-f', String(i + 1), '-l', String(i + 1), file, '-'], { encoding: 'utf8' }),
  );
}

function fonts(pdf: Buffer, name: string): string[][] {
  const file = join(dir, `${name}-fonts.pdf`);
  writeFileSync(file, pdf);
  return execFileSync('pdffonts', [file], { encoding: 'utf8' })
    .split('\n')
    .slice(2)
    .filter((l) => l.trim().length > 0)
    .map((l) => l.trim().split(/\s+/));
}

const o = { monitors: 60, days: 31, timezone: 'Europe/Berlin' };
const docs = {
  availability: availabilityFixture(o),
  performance: performanceFixture(o),
  sla: slaFixture({ ...o, targets: 6 }),
  incidents: incidentsFixture({ ...o, incidents: 80 }),
  intelligence: intelligenceFixture({ ...o, events: 50 }),
  monitor_health: monitorHealthFixture(o),
};
const TITLES: Record<ReportKind, string> = {
  availability: 'Availability report',
  performance: 'Performance report',
  sla: 'SLA report',
  incidents: 'Incidents report',
  intelligence: 'Intelligence report',
  monitor_health: 'Monitor health report',
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tocsin-pdf-'));
  // Drawn on a report worker thread, as every report PDF is (ReportBuildPool's compose).
  const pdf = new ReportBuildPool({
    workers: 1,
    timeoutMs: 120_000,
    idleMs: 0,
    compose: new URL('./report-worker.fixture.ts', import.meta.url),
    setup: { organization: ORG },
  });
  renderer = new ReportRenderer({ pdf, organizationName: async () => ORG, builders: {} });
});
afterAll(async () => {
  await renderer.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('report PDFs', () => {
  it.each(Object.keys(docs) as ReportKind[])(
    '%s: first page facts, Page X of Y on every page, embedded subset fonts',
    async (kind) => {
      const doc = docs[kind];
      const file = await renderer.encode(ctx, kind, doc as never, 'pdf');
      expect(file.contentType).toBe('application/pdf');
      // 31 days from 2026-08-01T00:00Z end at 02:00 on 1 September in Berlin: its local last day
      expect(file.filename).toBe(`tocsin-${kind.replace('_', '-')}-2026-08-01-2026-09-01.pdf`);
      expect(file.body.subarray(0, 5).toString()).toBe('%PDF-');
      const text = pages(file.body, kind);
      expect(text.length).toBeGreaterThan(1);
      const first = text[0]!;
      expect(first).toContain(ORG);
      expect(first).toContain(TITLES[kind]);
      expect(first).toContain('Europe/Berlin');
      // the period in the report's zone (Berlin is UTC+2 in August) and the generation time (its end)
      expect(first).toContain('2026-08-01 02:00 – ');
      expect(first).toContain('2026-09-01 02:00');
      text.forEach((p, i) => expect(p).toContain(`Page ${i + 1} of ${text.length}`));
      // the closing note on the last page
      expect(text.at(-1)).toContain('Methodology');
      expect(text.at(-1)).toContain(doc.methodology);
      const embedded = fonts(file.body, kind);
      expect(embedded.length).toBeGreaterThanOrEqual(2);
      for (const f of embedded) {
        // name: a subset tag ABCDEF+; type CID TrueType; emb yes, sub yes, uni yes
        expect(f[0]).toMatch(/^[A-Z]{6}\+(DejaVuSans|DejaVuSans-Bold|DroidSansFallback)$/);
        expect(f.slice(-5, -2)).toEqual(['yes', 'yes', 'yes']);
      }
      expect(embedded.map((f) => f[0]!.slice(7))).toContain('DejaVuSans');
    },
  );

  it('availability: key figures, every monitor with its uptime, the header row on every page of the table', async () => {
    const r = availabilityFixture({ ...o, monitors: 150 }); // the table of all monitors takes 3 pages
    const text = pages((await renderer.encode(ctx, 'availability', r, 'pdf')).body, 'availability-figures');
    expect(r.summary).toMatchObject({ uptime_percent: 99.90944, downtime_seconds: 363_837, incidents: 208 });
    expect(text[0]).toContain('99.90944 %');
    // 363,837 s; (pdftotext may drop the spaces of a big figure: compare without them)
    expect(text[0]!.replace(/\s/g, '')).toContain('4d5h');
    expect(text[0]).toMatch(new RegExp(`Incidents\\s[\\s\\S]*\\b${r.summary.incidents}\\b`));
    const all = text.join('\n');
    expect(all).toContain(UNICODE_NAME);
    const lines = all.split('\n');
    for (const m of r.monitors) {
      const row = lines.find((l) => l.includes(m.name.slice(0, 20)) && l.includes(String(m.uptime_percent)));
      expect(row, m.name).toBeDefined();
    }
    // the table of all monitors starts on page 2 and goes on over more pages: each starts with its header row
    // (a row of a monitors table ends in its failed / checks: 44,640 one-minute checks in 31 days)
    const tablePages = text.slice(1).filter((p) => /\d+ \/ 44640\b/.test(p));
    expect(tablePages.length).toBeGreaterThanOrEqual(2);
    for (const p of tablePages) {
      expect(p).toMatch(/Monitor\s+Uptime %\s+Downtime\s+Paused\s+Maint.\s+Coverage %\s+Failed\s+Incidents\s+Days/);
    }
    // long names are cut with an ellipsis, never run into the next column
    expect(all).toMatch(/search-eu-west-\d{4} [a-z ]*…/);
  });

  it('performance: percentiles of each monitor as in the JSON; the legend names the three lines', async () => {
    const r = docs.performance;
    const all = pages((await renderer.encode(ctx, 'performance', r, 'pdf')).body, 'performance-figures').join('\n');
    for (const label of ['p50', 'p95', 'p99']) expect(all).toContain(label);
    const lines = all.split('\n');
    for (const m of r.monitors) {
      const row = lines.find((l) => l.includes(m.name.slice(0, 15)) && l.includes(`${m.p50_ms} ms`));
      expect(row, m.name).toBeDefined();
      expect(row).toContain(`${m.p95_ms} ms`);
      expect(row).toContain(`${m.p99_ms} ms`);
    }
  });

  it('SLA: each target with its achieved percent, budget in seconds and burn rate; an overspent budget is negative', async () => {
    const r = docs.sla;
    const all = pages((await renderer.encode(ctx, 'sla', r, 'pdf')).body, 'sla-figures').join('\n');
    for (const t of r.targets) {
      expect(all).toContain(`${t.current.achieved_percent} %`);
      expect(all).toContain(`(${t.current.error_budget_seconds} s)`);
      expect(all).toContain(`${t.current.error_budget_remaining_seconds} s`);
      expect(all).toContain(`${t.current.burn_rate} ×`);
    }
    expect(r.targets.some((t) => t.current.error_budget_remaining_seconds < 0)).toBe(true);
    expect(all).toContain('−');
    // The current period is still running: never "met", but in progress or exhausted with the budget's share used.
    expect(all).not.toMatch(/Target met/);
    for (const used of [
      'in progress — 22.40143 %',
      'budget exhausted — 448.02867 %',
      'in progress — 1.12007 %',
      'in progress — 0 %',
      'in progress — 44.80287 %',
      'budget exhausted — 672.04301 %',
    ])
      expect(all).toContain(`${used} of the error`);
  });

  it('incidents: a list longer than the document holds is cut at 5,000 rows, said so, the figures count all', async () => {
    const long = incidentsFixture({ ...o, incidents: 5003 });
    const text = pages((await renderer.encode(ctx, 'incidents', long as never, 'pdf')).body, 'inc-long');
    const all = text.join('\n');
    expect(all).toContain('Incidents (5003)');
    expect(all).toContain('The table lists the first 5000 incidents of 5003');
    expect(text[0]).toMatch(/Incidents\s+Still open[\s\S]*5003/);
    // The rows in opening order: the 5,000th is listed (its number, then its opening time), the 5,001st not.
    expect([long.incidents[4999]!.number, long.incidents[5000]!.number]).toEqual([3782, 4503]);
    expect(all).toMatch(/\b3782\s.*2026-09-01 01:28/);
    expect(all).not.toMatch(/\b4503\s.*2026-09-01 01:35/);
  });

  it('incidents, intelligence and monitor health: their counts and rows', async () => {
    const inc = pages((await renderer.encode(ctx, 'incidents', docs.incidents as never, 'pdf')).body, 'inc').join('\n');
    expect(inc).toContain(`Incidents (${docs.incidents.incidents.length})`);
    expect(docs.incidents.summary.mttr_seconds).toBe(3205.356);
    expect(inc).toContain('53 min 25 s');
    for (const i of docs.incidents.incidents) expect(inc).toMatch(new RegExp(`\\b${i.number}\\s`));
    const intel = pages((await renderer.encode(ctx, 'intelligence', docs.intelligence as never, 'pdf')).body, 'intel');
    expect(intel.join('\n')).toContain(`Events (${docs.intelligence.events.length})`);
    const health = pages(
      (await renderer.encode(ctx, 'monitor_health', docs.monitor_health as never, 'pdf')).body,
      'health',
    );
    const findings = docs.monitor_health.monitors.flatMap((m) => m.findings);
    expect(health.join('\n')).toContain(`Findings (${findings.length})`);
    // the reason is wrapped over lines, never cut: its last word is there
    expect(health.join('\n')).toContain('checks).');
  });

  it('several sections: CSV with a leading section column and equal field counts; PDF with a part per section', async () => {
    const sections = [
      { title: 'Uptime, API', kind: 'availability' as const, report: docs.availability },
      { title: 'SLA', kind: 'sla' as const, report: docs.sla },
    ];
    const csv = await renderer.renderSections(ctx, { title: 'Weekly', period: docs.sla.period, sections }, 'csv');
    expect(csv.contentType).toBe('text/csv; charset=utf-8');
    const text = csv.body.toString('utf8');
    expect(text.startsWith('\uFEFFsection,monitor_id,name,')).toBe(true);
    const rows = text.slice(1).trimEnd().split('\r\n');
    const header = rows[0]!.split(',');
    expect(header).toContain('sla_target_id');
    expect(rows.filter((l) => l.startsWith('"Uptime, API",'))).toHaveLength(docs.availability.monitors.length);
    const slaRows = docs.sla.targets.reduce((n, t) => n + t.periods.length + 1, 0);
    expect(rows.filter((l) => l.startsWith('SLA,'))).toHaveLength(slaRows);
    const pdf = await renderer.renderSections(ctx, { title: 'Weekly', period: docs.sla.period, sections }, 'pdf');
    const p = pages(pdf.body, 'sections');
    expect(p[0]).toContain('Weekly');
    expect(p[0]).toContain('Uptime, API');
    expect(p.some((x, i) => i > 0 && x.includes('Availability report'))).toBe(true);
    expect(p.some((x) => x.includes('SLA report'))).toBe(true);
    // the first page lists the sections with the page each starts on, and that page starts with its title
    for (const section of sections) {
      const entry = new RegExp(`${section.title}\\s+\\S.*report\\s+page (\\d+)`).exec(p[0]!);
      expect(entry, section.title).not.toBeNull();
      expect(p[Number(entry![1]) - 1]).toContain(section.title);
    }
    p.forEach((x, i) => expect(x).toContain(`Page ${i + 1} of ${p.length}`));
  });

  it('empty reports (no monitors, targets, incidents or events) are documents that say so', async () => {
    const e = { monitors: 0, days: 1, timezone: 'America/New_York' };
    const empty = {
      availability: { ...availabilityFixture(e), summary: { ...availabilityFixture(e).summary, uptime_percent: null } },
      performance: performanceFixture(e),
      sla: slaFixture({ ...e, targets: 0 }),
      incidents: incidentsFixture({ ...e, incidents: 0 }),
      intelligence: intelligenceFixture({ ...e, events: 0 }),
      monitor_health: monitorHealthFixture(e),
    };
    const says: Record<ReportKind, string[]> = {
      availability: ['No data in this period.', 'No monitors in this report.', 'No incidents in this period.'],
      performance: ['No data in this period.', 'No monitors in this report.'],
      sla: ['No SLA targets in this report.', '0 of 0'],
      incidents: ['No incidents in this period.'],
      intelligence: ['No events in this period.', 'No correlated events in this period.'],
      monitor_health: ['No monitor was flagged in this period.', '0 of 0 monitors have no finding.'],
    };
    for (const kind of Object.keys(empty) as ReportKind[]) {
      const text = pages((await renderer.encode(ctx, kind, empty[kind] as never, 'pdf')).body, `empty-${kind}`);
      const all = text.join('\n');
      for (const s of says[kind]) expect(all, kind).toContain(s);
      text.forEach((p, i) => expect(p).toContain(`Page ${i + 1} of ${text.length}`));
    }
  });

  it('a kind without a generator or CSV table is an internal error that says so', async () => {
    await expect(renderer.build(ctx, 'incidents', {})).rejects.toMatchObject({
      code: 'internal_error',
      message: expect.stringContaining('incidents report has no generator'),
    });
  });
});
