import { dayLabel, lineChart, type LineSeries } from './report-pdf.charts.ts';
import type { ReportPdf, TableColumn } from './report-pdf.document.ts';
import { formatCount, formatInstant, formatMs } from './report-pdf.format.ts';
import type { PdfLayout } from './report.kinds.ts';
import type { Percentiles, PerformanceMonitor, PerformanceReport } from './report.types.ts';

const median = (xs: number[]): number | null => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

const KEYS = ['p50_ms', 'p95_ms', 'p99_ms'] as const;

/** p50 solid, p95 dashed, p99 dotted: the three lines stay apart in greyscale. */
function seriesOf(values: (key: (typeof KEYS)[number]) => Array<number | null>): LineSeries[] {
  return [
    { name: 'p50', values: values('p50_ms'), width: 1.4 },
    { name: 'p95', values: values('p95_ms'), dash: [5, 2.5] },
    { name: 'p99', values: values('p99_ms'), dash: [1.2, 1.8], width: 1 },
  ];
}

/** Per day, the median over the monitors of their own daily percentile (sketches of different monitors are not merged). */
export function fleetDaily(r: PerformanceReport): {
  dates: string[];
  value: (k: keyof Percentiles, i: number) => number | null;
} {
  const byDate = new Map<string, Record<keyof Percentiles, number[]>>();
  for (const m of r.monitors) {
    for (const d of m.daily) {
      const e = byDate.get(d.date) ?? { p50_ms: [], p95_ms: [], p99_ms: [] };
      for (const k of KEYS) if (d[k] !== null) e[k].push(d[k]);
      byDate.set(d.date, e);
    }
  }
  const dates = [...byDate.keys()].sort();
  return { dates, value: (k, i) => median(byDate.get(dates[i]!)![k]) };
}

const trend = (v: number | null) => (v === null ? '—' : `${v > 0 ? '+' : ''}${v} %`);

export const PERFORMANCE_COLUMNS: ReadonlyArray<TableColumn<PerformanceMonitor>> = [
  { header: 'Monitor', width: 0.22, value: (m) => m.name },
  { header: 'Checks', width: 0.08, align: 'right', value: (m) => formatCount(m.checks) },
  { header: 'Mean', width: 0.11, align: 'right', value: (m) => formatMs(m.mean_ms) },
  { header: 'p50', width: 0.11, align: 'right', value: (m) => formatMs(m.p50_ms) },
  { header: 'p95', width: 0.11, align: 'right', value: (m) => formatMs(m.p95_ms) },
  { header: 'p99', width: 0.11, align: 'right', value: (m) => formatMs(m.p99_ms) },
  { header: 'Trend p95', width: 0.13, align: 'right', value: (m) => trend(m.trend_percent) },
  { header: 'Anomalies', width: 0.13, align: 'right', value: (m) => String(m.anomalies.length) },
];

function body(pdf: ReportPdf, r: PerformanceReport): void {
  const tz = r.period.timezone;
  const fleet = fleetDaily(r);
  lineChart(pdf, pdf.box(200), {
    title:
      r.monitors.length === 1
        ? `Response time per day: ${r.monitors[0]!.name} (ms)`
        : 'Response time per day: median of the monitors’ daily percentiles (ms)',
    labels: fleet.dates.map(dayLabel),
    series: seriesOf((k) => fleet.dates.map((_, i) => fleet.value(k, i))),
    format: (v) => `${v}`,
  });
  const slowest = r.monitors
    .filter((m) => m.p95_ms !== null)
    .sort((a, b) => b.p95_ms! - a.p95_ms! || a.name.localeCompare(b.name))
    .slice(0, r.monitors.length === 1 ? 0 : 4);
  if (slowest.length > 0) pdf.heading('Slowest monitors by p95', 14, 160);
  for (const m of slowest) {
    lineChart(pdf, pdf.box(150), {
      title: `${m.name} (ms)`,
      labels: m.daily.map((d) => dayLabel(d.date)),
      series: seriesOf((k) => m.daily.map((d) => d[k])),
      format: (v) => `${v}`,
    });
  }
  pdf.heading(`All monitors (${r.monitors.length})`);
  pdf.table(PERFORMANCE_COLUMNS, r.monitors, { empty: 'No monitors in this report.' });
  const names = new Map(r.monitors.map((m) => [m.monitor_id, m.name]));
  const anomalies = r.monitors
    .flatMap((m) => m.anomalies.map((a) => ({ ...a, monitor: names.get(m.monitor_id) ?? m.monitor_id })))
    .sort((a, b) => a.started_at.localeCompare(b.started_at));
  pdf.heading(`Performance anomalies (${anomalies.length})`);
  pdf.table(
    [
      { header: 'Monitor', width: 0.22, value: (a) => a.monitor },
      { header: 'Started', width: 0.18, value: (a) => formatInstant(a.started_at, tz) },
      { header: 'Severity', width: 0.1, value: (a) => a.severity },
      { header: 'What happened', width: 0.5, wrap: true, value: (a) => a.summary },
    ],
    anomalies.slice(0, 50),
    { empty: 'No performance anomalies in this period.' },
  );
  if (anomalies.length > 50)
    pdf.paragraph(`The first 50 of ${anomalies.length} anomalies are listed (JSON and CSV have all).`);
}

export const performanceLayout: PdfLayout<PerformanceReport> = {
  title: 'Performance report',
  figures: (r) => {
    const p = (k: keyof Percentiles) => median(r.monitors.flatMap((m) => (m[k] === null ? [] : [m[k]])));
    const slower = r.monitors.filter((m) => m.trend_percent !== null && m.trend_percent > 10).length;
    const anomalies = r.monitors.reduce((n, m) => n + m.anomalies.length, 0);
    // the first figure stands for the report where it is one section of several
    return [
      { label: 'Median p95', value: formatMs(p('p95_ms')), note: 'median over the monitors' },
      { label: 'Median p50', value: formatMs(p('p50_ms')), note: 'median over the monitors' },
      { label: 'Anomalies', value: formatCount(anomalies), note: 'from intelligence' },
      { label: 'Monitors', value: formatCount(r.summary.monitors) },
      { label: 'Checks', value: formatCount(r.summary.checks) },
      { label: 'Slower than before', value: formatCount(slower), note: 'monitors with p95 up > 10 %' },
    ];
  },
  body,
};
