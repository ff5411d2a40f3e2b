import { hbarChart } from './report-pdf.charts.ts';
import type { ReportPdf } from './report-pdf.document.ts';
import { formatCount } from './report-pdf.format.ts';
import type { PdfLayout } from './report.kinds.ts';
import type { MonitorHealthFindingKind, MonitorHealthReportShape } from './report.shapes.ts';
import { plural } from '../../platform/plural.ts';

export const FINDING_LABELS: Record<MonitorHealthFindingKind, string> = {
  noisy: 'Noisy',
  flapping: 'Flapping',
  misconfigured: 'Misconfigured',
  never_succeeded: 'Never succeeded',
};
const KINDS = Object.keys(FINDING_LABELS) as MonitorHealthFindingKind[];

const countOf = (r: MonitorHealthReportShape, kind: MonitorHealthFindingKind) =>
  r.monitors.reduce((n, m) => n + m.findings.filter((f) => f.kind === kind).length, 0);

function body(pdf: ReportPdf, r: MonitorHealthReportShape): void {
  const counts = KINDS.map((k) => countOf(r, k));
  hbarChart(pdf, pdf.box(30 + KINDS.length * 16), {
    title: 'Findings per kind',
    max: Math.max(1, ...counts),
    bars: KINDS.map((k, i) => ({ label: FINDING_LABELS[k], value: counts[i]!, text: String(counts[i]) })),
  });
  const rows = r.monitors.flatMap((m) => m.findings.map((f) => ({ name: m.name, ...f })));
  pdf.heading(`Findings (${rows.length})`);
  pdf.table(
    [
      { header: 'Monitor', width: 0.25, value: (f) => f.name },
      { header: 'Finding', width: 0.15, value: (f) => FINDING_LABELS[f.kind] ?? f.kind },
      { header: 'Why', width: 0.6, wrap: true, value: (f) => f.reason },
    ],
    rows,
    { empty: 'No monitor was flagged in this period.' },
  );
  const healthy = r.monitors.filter((m) => m.findings.length === 0).length;
  pdf.paragraph(`${healthy} of ${plural(r.monitors.length, 'monitor')} ${healthy === 1 ? 'has' : 'have'} no finding.`);
}

export const monitorHealthLayout: PdfLayout<MonitorHealthReportShape> = {
  title: 'Monitor health report',
  figures: (r) => [
    { label: 'Monitors flagged', value: formatCount(r.monitors.filter((m) => m.findings.length > 0).length) },
    { label: 'Monitors', value: formatCount(r.monitors.length) },
    ...KINDS.map((k) => ({ label: FINDING_LABELS[k], value: formatCount(countOf(r, k)) })),
  ],
  body,
};
