import { hbarChart } from './report-pdf.charts.ts';
import type { ReportPdf } from './report-pdf.document.ts';
import { formatCount, formatInstant } from './report-pdf.format.ts';
import type { PdfLayout } from './report.kinds.ts';
import type { IntelligenceEventShape, IntelligenceReportShape } from './report.shapes.ts';
import { plural } from '../../platform/plural.ts';

const sorted = (counts: Record<string, number>) =>
  Object.entries(counts).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));

/** Events carry a monitor id; a generator may add the monitor's name. */
const monitorOf = (e: IntelligenceEventShape & { monitor_name?: string }) => e.monitor_name ?? e.monitor_id;

function body(pdf: ReportPdf, r: IntelligenceReportShape): void {
  const tz = r.period.timezone;
  const categories = sorted(r.summary.by_category);
  if (categories.length > 0) {
    const max = Math.max(...categories.map((c) => c[1]));
    hbarChart(pdf, pdf.box(30 + categories.length * 16), {
      title: 'Events per category',
      max,
      bars: categories.map(([label, value]) => ({ label, value, text: String(value) })),
    });
  }
  const names = new Map<string, string>();
  for (const e of r.events) names.set(e.monitor_id, monitorOf(e));
  pdf.heading('Monitors with the most events');
  pdf.table(
    [
      { header: 'Monitor', width: 0.75, value: (m: [string, number]) => names.get(m[0]) ?? m[0] },
      { header: 'Events', width: 0.25, align: 'right', value: (m: [string, number]) => String(m[1]) },
    ],
    sorted(r.summary.by_monitor).slice(0, 20),
    { empty: 'No events in this period.' },
  );
  pdf.heading(`Events (${r.events.length})`);
  pdf.table(
    [
      { header: 'Started', width: 0.17, value: (e) => formatInstant(e.started_at, tz) },
      { header: 'Monitor', width: 0.18, value: (e) => monitorOf(e) },
      { header: 'Category', width: 0.12, value: (e) => e.category },
      { header: 'Severity', width: 0.1, value: (e) => e.severity },
      { header: 'What happened', width: 0.43, wrap: true, value: (e) => e.summary },
    ],
    r.events,
    { empty: 'No events in this period.' },
  );
  pdf.heading(`Correlations (${r.correlations.length})`);
  pdf.table(
    [
      { header: 'From', width: 0.2, value: (c) => formatInstant(c.window.from, tz) },
      { header: 'To', width: 0.2, value: (c) => formatInstant(c.window.to, tz) },
      {
        header: 'Monitors',
        width: 0.35,
        wrap: true,
        value: (c) => c.monitor_ids.map((id) => names.get(id) ?? id).join(', '),
      },
      {
        header: 'Shared',
        width: 0.15,
        value: (c) => (typeof c.shared === 'string' ? c.shared : JSON.stringify(c.shared)),
      },
      { header: 'Events', width: 0.1, align: 'right', value: (c) => String(c.events.length) },
    ],
    r.correlations,
    { empty: 'No correlated events in this period.' },
  );
}

export const intelligenceLayout: PdfLayout<IntelligenceReportShape> = {
  title: 'Intelligence report',
  figures: (r) => {
    const count = (severity: string) => r.events.filter((e) => e.severity === severity).length;
    const top = sorted(r.summary.by_category)[0];
    return [
      { label: 'Events', value: formatCount(r.events.length) },
      { label: 'Critical', value: formatCount(count('critical')) },
      { label: 'Warnings', value: formatCount(count('warning')) },
      { label: 'Monitors with events', value: formatCount(Object.keys(r.summary.by_monitor).length) },
      { label: 'Correlations', value: formatCount(r.correlations.length), note: 'events shared by monitors' },
      { label: 'Most frequent', value: top ? top[0] : '—', note: top ? plural(top[1], 'event') : undefined },
    ].map((f) => (f.note === undefined ? { label: f.label, value: f.value } : { ...f, note: f.note }));
  },
  body,
};
