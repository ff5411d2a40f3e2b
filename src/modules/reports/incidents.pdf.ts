import { barChart, dayLabel, niceAxis } from './report-pdf.charts.ts';
import type { ReportPdf } from './report-pdf.document.ts';
import { formatCount, formatDuration, formatInstant, localDate } from './report-pdf.format.ts';
import type { PdfLayout } from './report.kinds.ts';
import type { IncidentsReportShape } from './report.shapes.ts';

/**
 * Incidents listed in the document's table: pdfkit keeps every page until the end ("Page X of Y"), about 30 KB of
 * memory per row (20,000 rows: 460 pages, 10 s and 600 MiB), so a longer list is cut here; the figures and the chart
 * still count every incident, and the CSV and JSON exports list them all.
 */
export const PDF_INCIDENT_ROWS = 5000;

/** The local dates of [from, to) in `timeZone` (steps of 6 h catch every day, DST days included). */
export function localDates(from: string, to: string, timeZone: string): string[] {
  const out: string[] = [];
  const end = Date.parse(to);
  for (let t = Date.parse(from); t < end; t += 6 * 3_600_000) {
    const d = localDate(new Date(t).toISOString(), timeZone);
    if (out.at(-1) !== d) out.push(d);
  }
  const last = localDate(new Date(end - 1).toISOString(), timeZone);
  if (out.at(-1) !== last) out.push(last);
  return out;
}

/** Incidents opened per local day: the report's `daily`, or counted from its incidents. */
export function openedPerDay(r: IncidentsReportShape): Array<{ date: string; opened: number }> {
  if (r.daily) return r.daily;
  const counts = new Map(localDates(r.period.from, r.period.to, r.period.timezone).map((d) => [d, 0]));
  for (const i of r.incidents) {
    const d = localDate(i.opened_at, r.period.timezone);
    if (counts.has(d)) counts.set(d, counts.get(d)! + 1);
  }
  return [...counts].map(([date, opened]) => ({ date, opened }));
}

function body(pdf: ReportPdf, r: IncidentsReportShape): void {
  const tz = r.period.timezone;
  const days = openedPerDay(r);
  const max = Math.max(1, ...days.map((d) => d.opened));
  const axis = niceAxis(0, max, Math.min(max, 4));
  barChart(pdf, pdf.box(180), {
    title: 'Incidents opened per day',
    labels: days.map((d) => dayLabel(d.date)),
    values: days.map((d) => d.opened),
    axis: { ...axis, ticks: axis.ticks.filter((t) => Number.isInteger(t)) },
    format: (v) => String(v),
  });
  const sources = Object.entries(r.summary.by_source).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  pdf.heading('By source');
  pdf.table(
    [
      { header: 'Source', width: 0.7, value: (s: [string, number]) => s[0] },
      { header: 'Incidents', width: 0.3, align: 'right', value: (s: [string, number]) => String(s[1]) },
    ],
    sources,
    { empty: 'No incidents in this period.' },
  );
  pdf.heading(`Incidents (${r.incidents.length})`);
  if (r.incidents.length > PDF_INCIDENT_ROWS)
    pdf.paragraph(
      `The table lists the first ${formatCount(PDF_INCIDENT_ROWS)} incidents of ${formatCount(r.incidents.length)} ` +
        'in opening order; the CSV and JSON exports (/reports/incidents/export) list every one.',
    );
  pdf.table(
    [
      { header: '#', width: 0.07, align: 'right', value: (i) => String(i.number) },
      { header: 'Title', width: 0.3, value: (i) => i.title },
      { header: 'Source', width: 0.1, value: (i) => i.source },
      { header: 'Status', width: 0.11, value: (i) => i.status },
      { header: 'Opened', width: 0.17, value: (i) => formatInstant(i.opened_at, tz) },
      { header: 'To ack', width: 0.1, align: 'right', value: (i) => formatDuration(i.time_to_acknowledge_seconds) },
      { header: 'To resolve', width: 0.15, align: 'right', value: (i) => formatDuration(i.time_to_resolve_seconds) },
    ],
    r.incidents.length > PDF_INCIDENT_ROWS ? r.incidents.slice(0, PDF_INCIDENT_ROWS) : r.incidents,
    { empty: 'No incidents in this period.' },
  );
}

export const incidentsLayout: PdfLayout<IncidentsReportShape> = {
  title: 'Incidents report',
  figures: (r) => {
    const open = r.incidents.filter((i) => i.resolved_at === null).length;
    const s = r.summary;
    return [
      { label: 'Incidents', value: formatCount(s.count) },
      { label: 'Still open', value: formatCount(open), note: 'at the end of the period' },
      { label: 'Sources', value: formatCount(Object.keys(s.by_source).length) },
      { label: 'MTTA', value: formatDuration(s.mtta_seconds), note: `median ${formatDuration(s.median_tta_seconds)}` },
      { label: 'MTTR', value: formatDuration(s.mttr_seconds), note: `median ${formatDuration(s.median_ttr_seconds)}` },
      {
        label: 'Acknowledged',
        value: formatCount(r.incidents.filter((i) => i.acknowledged_at !== null).length),
      },
    ];
  },
  body,
};
