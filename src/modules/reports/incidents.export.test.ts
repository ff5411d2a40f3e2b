import { describe, expect, it } from 'vitest';
import type { ServiceContext } from '../auth/index.ts';
import { incidentsExportStream } from './incidents.export.ts';
import { incidentsReportOf, type IncidentScope } from './incidents.report.ts';
import type { IncidentReportRow } from './incidents.report.types.ts';

const scope: IncidentScope = {
  period: {
    from: Date.parse('2026-05-01T00:00:00Z'),
    to: Date.parse('2026-05-02T00:00:00Z'),
    timezone: 'UTC',
    preset: null,
  },
  monitorIds: null,
  now: Date.parse('2026-05-02T00:00:00Z'),
};

function row(i: number): IncidentReportRow {
  return {
    id: `inc_${i}`,
    number: i,
    title: `Outage ${i}, "db"`,
    source: 'api',
    monitor_id: null,
    cause: null,
    status: 'opened',
    opened_at: '2026-05-01T00:00:00.000Z',
    down_since: '2026-05-01T00:00:00.000Z',
    acknowledged_at: null,
    resolved_at: null,
    duration_seconds: 60,
    time_to_acknowledge_seconds: null,
    time_to_resolve_seconds: null,
  };
}

/** A source of `pages` pages of 100 rows that counts how many pages were read. */
function source(pages: number) {
  const read = { pages: 0 };
  return {
    read,
    reports: {
      async *pages(): AsyncGenerator<IncidentReportRow[]> {
        for (let p = 0; p < pages; p++) {
          read.pages++;
          yield Array.from({ length: 100 }, (_, i) => row(p * 100 + i));
        }
      },
    },
  };
}

const ctx = {} as ServiceContext;

describe('incidents export stream', () => {
  it('reads a page only when the reader has taken the previous one (backpressure)', async () => {
    const { read, reports } = source(1000);
    const stream = await incidentsExportStream(reports, ctx, scope, 'csv');
    const it = stream[Symbol.asyncIterator]();
    await it.next(); // BOM and header
    await it.next(); // page 1
    await new Promise((r) => setTimeout(r, 20));
    // Nobody reads: the generator is not driven ahead (a page in flight at most), not to the 1,000th page.
    expect(read.pages).toBeLessThanOrEqual(2);
    stream.destroy();
    await new Promise((r) => setTimeout(r, 5));
    expect(read.pages).toBeLessThanOrEqual(2);
  });

  it('a read failing at the start is an error of the call, before any stream exists', async () => {
    const failing = {
      // eslint-disable-next-line require-yield -- a source that fails before its first page
      async *pages(): AsyncGenerator<IncidentReportRow[]> {
        throw new Error('database gone');
      },
    };
    await expect(incidentsExportStream(failing, ctx, scope, 'csv')).rejects.toThrow('database gone');
  });

  it('CSV: BOM, header, a CRLF row per incident; JSON: the incidents report, incidents streamed', async () => {
    const csv: string[] = [];
    for await (const chunk of await incidentsExportStream(source(3).reports, ctx, scope, 'csv'))
      csv.push(String(chunk));
    const text = csv.join('');
    expect(text.startsWith('\uFEFFid,number,title,')).toBe(true);
    expect(text.split('\r\n')).toHaveLength(1 + 300 + 1);
    expect(text).toContain('inc_7,7,"Outage 7, ""db""",api,,,opened,');
    const json: string[] = [];
    for await (const chunk of await incidentsExportStream(source(3).reports, ctx, scope, 'json'))
      json.push(String(chunk));
    // The report envelope like every other report (it was a bare array), an incident per line, the summary and
    // days counted while the pages went by: the same document as the incidents report of those rows.
    const text300 = json.join('');
    const parsed = JSON.parse(text300) as { report: string; incidents: IncidentReportRow[] };
    expect(parsed.report).toBe('incidents');
    expect(parsed.incidents.map((r) => r.number)).toEqual(Array.from({ length: 300 }, (_, i) => i));
    const rows = Array.from({ length: 300 }, (_, i) => row(i));
    expect(parsed).toEqual(incidentsReportOf(scope, rows));
    expect(text300.split('\n').filter((l) => l.startsWith('{"id":"inc_'))).toHaveLength(300);
    const empty: string[] = [];
    for await (const chunk of await incidentsExportStream(source(0).reports, ctx, scope, 'json'))
      empty.push(String(chunk));
    expect(JSON.parse(empty.join(''))).toEqual(incidentsReportOf(scope, []));
  });
});
