import { barChart, dayLabel, uptimeAxis } from './report-pdf.charts.ts';
import { COLOURS, type Box, type ReportPdf, type TableColumn } from './report-pdf.document.ts';
import { formatCount, formatDuration, formatInstantOrDash, formatNumber, formatPercent } from './report-pdf.format.ts';
import type { PdfLayout } from './report.kinds.ts';
import type { AvailabilityMonitor, AvailabilityReport } from './report.types.ts';

/** The mean of the monitors' uptime on each day (monitors without monitored time that day left out). */
export function meanDailyUptime(r: AvailabilityReport): { dates: string[]; values: Array<number | null> } {
  const sums = new Map<string, { sum: number; n: number }>();
  for (const m of r.monitors) {
    for (const d of m.daily) {
      const s = sums.get(d.date) ?? { sum: 0, n: 0 };
      if (d.uptime_percent !== null) {
        s.sum += d.uptime_percent;
        s.n++;
      }
      sums.set(d.date, s);
    }
  }
  const dates = [...sums.keys()].sort();
  return { dates, values: dates.map((d) => (sums.get(d)!.n > 0 ? sums.get(d)!.sum / sums.get(d)!.n : null)) };
}

/**
 * "Days" (downtime per day): a monitor's days as a strip: a hairline for the period and, for each day with downtime, a bar whose height is that
 * day's share of downtime (at least a visible tick); a day without monitored time is a gap in the hairline.
 */
function dayStrip(pdf: ReportPdf, m: AvailabilityMonitor, box: Box): void {
  const { doc } = pdf;
  const n = m.daily.length;
  if (n === 0) return;
  const step = box.w / n;
  const base = box.y + box.h;
  doc.lineWidth(0.4).strokeColor(COLOURS.grid);
  let from = -1;
  m.daily.forEach((d, i) => {
    const monitored = d.uptime_percent !== null;
    if (monitored && from < 0) from = i;
    if ((!monitored || i === n - 1) && from >= 0) {
      const to = monitored ? i + 1 : i;
      doc.moveTo(box.x + from * step, base).lineTo(box.x + to * step, base);
      from = -1;
    }
  });
  doc.stroke();
  m.daily.forEach((d, i) => {
    if (d.downtime_seconds <= 0 || d.uptime_percent === null) return;
    const h = Math.max(3, (box.h * (100 - d.uptime_percent)) / 100);
    doc
      .rect(box.x + i * step, base - h, Math.max(step * 0.8, 0.8), h)
      .fillColor(COLOURS.text)
      .fill();
  });
}

export const AVAILABILITY_COLUMNS: ReadonlyArray<TableColumn<AvailabilityMonitor>> = [
  { header: 'Monitor', width: 0.21, value: (m) => m.name },
  { header: 'Uptime %', width: 0.095, align: 'right', value: (m) => formatNumber(m.uptime_percent) },
  { header: 'Downtime', width: 0.1, align: 'right', value: (m) => formatDuration(m.downtime_seconds) },
  { header: 'Paused', width: 0.09, align: 'right', value: (m) => formatDuration(m.paused_seconds) },
  // Maintenance excluded from the SLA: neither uptime nor downtime (DECISIONS §16).
  { header: 'Maint.', width: 0.095, align: 'right', value: (m) => formatDuration(m.maintenance_seconds) },
  { header: 'Coverage %', width: 0.115, align: 'right', value: (m) => formatNumber(m.coverage_percent) },
  {
    header: 'Failed',
    width: 0.1,
    align: 'right',
    value: (m) => `${formatCount(m.failed_checks)} / ${formatCount(m.checks)}`,
  },
  { header: 'Incidents', width: 0.095, align: 'right', value: (m) => formatCount(m.incident_count) },
  { header: 'Days', width: 0.1, value: () => '', draw: dayStrip },
];

/**
 * Degraded time (DECISIONS §20) has a table of its own: the monitors table has no room for another column at a
 * readable size, and degraded time is up time (already inside "Uptime %").
 */
const DEGRADED_COLUMNS: ReadonlyArray<TableColumn<AvailabilityMonitor>> = [
  { header: 'Monitor', width: 0.4, value: (m) => m.name },
  { header: 'Degraded', width: 0.2, align: 'right', value: (m) => formatDuration(m.degraded_seconds) },
  { header: 'Uptime %', width: 0.2, align: 'right', value: (m) => formatNumber(m.uptime_percent) },
  { header: 'Downtime', width: 0.2, align: 'right', value: (m) => formatDuration(m.downtime_seconds) },
];

function body(pdf: ReportPdf, r: AvailabilityReport): void {
  const tz = r.period.timezone;
  const daily = meanDailyUptime(r);
  barChart(pdf, pdf.box(190), {
    title: 'Uptime per day (mean of the monitors, %)',
    labels: daily.dates.map(dayLabel),
    values: daily.values,
    axis: uptimeAxis(daily.values),
    format: (v) => `${v}`,
    nullNote: 'Dashed outline: no monitored time that day.',
  });
  const worst = r.monitors
    .filter((m) => m.downtime_seconds > 0)
    .sort((a, b) => b.downtime_seconds - a.downtime_seconds || a.name.localeCompare(b.name))
    .slice(0, 10);
  pdf.heading('Most downtime');
  pdf.table(AVAILABILITY_COLUMNS, worst, { size: 7.5, empty: 'No downtime in this period.' });
  pdf.heading(`All monitors (${r.monitors.length})`);
  pdf.paragraph(
    'Days: one mark per day with downtime, as high as that day’s share of downtime; a gap in the line is time ' +
      'the monitor was not monitored (paused, not yet created, deleted). Maint.: time inside maintenance ' +
      'windows that exclude maintenance from the SLA, counted neither as uptime nor as downtime.',
    { size: 7.5, colour: COLOURS.muted },
  );
  pdf.table(AVAILABILITY_COLUMNS, r.monitors, { size: 7.5, empty: 'No monitors in this report.' });
  const degraded = r.monitors
    .filter((m) => m.degraded_seconds > 0)
    .sort((a, b) => b.degraded_seconds - a.degraded_seconds || a.name.localeCompare(b.name));
  if (degraded.length > 0) {
    pdf.heading(`Degraded performance (${formatDuration(r.summary.degraded_seconds)} in all)`);
    pdf.paragraph(
      'Time a monitor was degraded: up, but slower than its degraded_latency_ms or failing in fewer regions than ' +
        'confirm_regions. Not an outage: it counts as uptime.',
      { size: 7.5, colour: COLOURS.muted },
    );
    pdf.table(DEGRADED_COLUMNS, degraded, { size: 7.5 });
  }
  const names = new Map(r.monitors.map((m) => [m.monitor_id, m.name]));
  const longest = r.monitors
    .flatMap((m) => m.incidents.map((i) => ({ ...i, monitor_id: m.monitor_id })))
    .sort((a, b) => b.duration_seconds - a.duration_seconds || a.down_since.localeCompare(b.down_since))
    .slice(0, 25);
  pdf.heading('Longest incidents');
  pdf.table(
    [
      { header: 'Monitor', width: 0.22, value: (i) => names.get(i.monitor_id) ?? i.monitor_id },
      { header: '#', width: 0.05, align: 'right', value: (i) => String(i.number) },
      { header: 'Down since', width: 0.165, value: (i) => formatInstantOrDash(i.down_since, tz) },
      { header: 'Resolved', width: 0.165, value: (i) => formatInstantOrDash(i.resolved_at, tz) },
      { header: 'Duration', width: 0.11, align: 'right', value: (i) => formatDuration(i.duration_seconds) },
      { header: 'Cause', width: 0.29, wrap: true, value: (i) => i.cause ?? '—' },
    ],
    longest,
    { empty: 'No incidents in this period.' },
  );
}

/** Says on the first page that maintenance excluded from the SLA is not in the figures (the table shows how much). */
function maintenanceNote(r: AvailabilityReport): string {
  return r.monitors.some((m) => m.maintenance_seconds > 0) ? 'maintenance excluded' : 'sum over monitors';
}

export const availabilityLayout: PdfLayout<AvailabilityReport> = {
  title: 'Availability report',
  figures: (r) => {
    const longest = Math.max(0, ...r.monitors.map((m) => m.longest_incident_seconds));
    return [
      { label: 'Uptime', value: formatPercent(r.summary.uptime_percent), note: 'up time ÷ monitored time' },
      { label: 'Downtime', value: formatDuration(r.summary.downtime_seconds), note: 'all monitors together' },
      { label: 'Incidents', value: formatCount(r.summary.incidents) },
      { label: 'Monitors', value: formatCount(r.summary.monitors) },
      {
        label: 'Monitored time',
        value: formatDuration(r.summary.monitored_seconds),
        note: maintenanceNote(r),
      },
      { label: 'Longest incident', value: formatDuration(longest) },
    ];
  },
  body,
};
