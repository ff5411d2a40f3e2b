import { Readable } from 'node:stream';
import type { ServiceContext } from '../auth/index.ts';
import { IncidentsTally, type IncidentScope, type IncidentsReports } from './incidents.report.ts';
import type { IncidentReportRow, IncidentsReport } from './incidents.report.types.ts';
import { CSV_BOM as BOM, csvDocument, csvLine as line, type CsvCell as Cell } from '../../platform/csv.format.ts';

/** One row per incident (report and export alike): the JSON fields, then the period. */
export const INCIDENTS_CSV_COLUMNS = [
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
] as const;

interface PeriodCells {
  from: string;
  to: string;
  timezone: string;
}

export function incidentCells(r: IncidentReportRow, p: PeriodCells): Cell[] {
  return [
    r.id,
    r.number,
    r.title,
    r.source,
    r.monitor_id,
    r.cause,
    r.status,
    r.opened_at,
    r.down_since,
    r.acknowledged_at,
    r.resolved_at,
    r.duration_seconds,
    r.time_to_acknowledge_seconds,
    r.time_to_resolve_seconds,
    p.from,
    p.to,
    p.timezone,
  ];
}

/** One row per incident of the report (for the renderer's CSV tables too). */
export function incidentsRows(r: IncidentsReport): Cell[][] {
  return r.incidents.map((i) => incidentCells(i, r.period));
}

/** The incidents report as CSV: BOM, header, one CRLF-ended row per incident. */
export function incidentsCsv(r: IncidentsReport): string {
  return csvDocument(INCIDENTS_CSV_COLUMNS, incidentsRows(r));
}

/** The streamed formats; `pdf` is the incidents report's document (ReportsService.incidentsExport). */
export type ExportFormat = 'csv' | 'json';

/**
 * The export as a byte stream: every incident of the scope, one keyset page (2,000 rows) read only when the
 * consumer has taken the previous one (Readable.from pulls the generator as the socket drains), so memory stays
 * flat whatever the number of incidents. CSV: BOM, header, a row per incident. JSON: the incidents report itself
 * (`report`, `period`, `generated_at`, `methodology`, then `incidents` an incident per line, then `summary` and
 * `daily`, counted as the rows went by: only the times to acknowledge and resolve are kept, for the medians).
 * The first page is read before the stream is handed out, so a failing read at the start is an ordinary
 * error response; one that fails later ends the stream with an error (the response is cut short).
 */
export async function incidentsExportStream(
  reports: Pick<IncidentsReports, 'pages'>,
  ctx: ServiceContext,
  scope: IncidentScope,
  format: ExportFormat,
): Promise<Readable> {
  const period: PeriodCells = {
    from: new Date(scope.period.from).toISOString(),
    to: new Date(scope.period.to).toISOString(),
    timezone: scope.period.timezone,
  };
  const pages = reports.pages(ctx, scope);
  const head = await pages.next();
  async function* all(): AsyncGenerator<IncidentReportRow[]> {
    if (head.done === true) return;
    yield head.value;
    yield* pages;
  }
  async function* chunks(): AsyncGenerator<string> {
    if (format === 'csv') {
      yield BOM + line(INCIDENTS_CSV_COLUMNS);
      for await (const page of all()) yield page.map((r) => line(incidentCells(r, period))).join('');
      return;
    }
    const tally = new IncidentsTally(scope);
    const head = JSON.stringify(tally.head());
    let first = true;
    yield `${head.slice(0, -1)},"incidents":[`;
    for await (const page of all()) {
      for (const r of page) tally.add(r);
      const text = page.map((r) => JSON.stringify(r)).join(',\n');
      yield (first ? '\n' : ',\n') + text;
      first = false;
    }
    yield `${first ? '' : '\n'}],"summary":${JSON.stringify(tally.summary())},"daily":${JSON.stringify(tally.daily())}}\n`;
  }
  // Strings become UTF-8 chunks; highWaterMark 1: at most one page waits beyond what the socket buffers.
  return Readable.from(chunks(), { objectMode: false, highWaterMark: 1 });
}
