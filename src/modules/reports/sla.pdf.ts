import { hbarChart } from './report-pdf.charts.ts';
import { COLOURS, type ReportPdf } from './report-pdf.document.ts';
import { formatCount, formatDuration, formatInstant, formatNumber, formatPercent } from './report-pdf.format.ts';
import type { PdfLayout } from './report.kinds.ts';
import type { SlaReport, SlaReportTarget } from './report.types.ts';

const verdict = (status: 'met' | 'missed' | 'no_data') => (status === 'no_data' ? 'no data' : status);

/** Share of the current period's error budget already used, in % (null without a budget). */
export function budgetUsedPercent(t: SlaReportTarget): number | null {
  return t.current.error_budget_used_percent;
}

/** The current period is still running: in progress (and how much budget it used) or exhausted, never met. */
function currentState(t: SlaReportTarget): string {
  const c = t.current;
  if (c.status === 'no_data') return 'no data yet';
  const used =
    c.error_budget_used_percent === null
      ? ''
      : ` — ${formatPercent(c.error_budget_used_percent)} of the error budget used`;
  return c.error_budget_exhausted === true ? `budget exhausted${used}` : `in progress${used}`;
}

function target(pdf: ReportPdf, r: SlaReport, t: SlaReportTarget): void {
  const tz = r.period.timezone;
  const c = t.current;
  pdf.heading(`${t.name} — ${t.target_percent} % ${t.period}`, 12);
  const rows: Array<[string, string]> = [
    ['Current period', `${formatInstant(c.from, tz)} – ${formatInstant(c.to, tz)}`],
    ['Achieved so far', formatPercent(c.achieved_percent)],
    ['Status', currentState(t)],
    ['Downtime', formatDuration(c.downtime_seconds)],
    ['Error budget', `${formatDuration(c.error_budget_seconds)} (${formatNumber(c.error_budget_seconds)} s)`],
    ['Budget used', `${formatDuration(c.error_budget_used_seconds)} (${formatNumber(c.error_budget_used_seconds)} s)`],
    [
      'Budget remaining',
      `${formatDuration(c.error_budget_remaining_seconds)} (${formatNumber(c.error_budget_remaining_seconds)} s, ` +
        `${formatPercent(c.error_budget_remaining_percent)})`,
    ],
    [
      'Burn rate',
      c.burn_rate === null ? '—' : `${formatNumber(c.burn_rate)} × (1 = the budget lasts exactly the period)`,
    ],
  ];
  pdf.table(
    [
      { header: 'Current period', width: 0.3, value: (row: [string, string]) => row[0] },
      { header: '', width: 0.7, value: (row: [string, string]) => row[1] },
    ],
    rows,
  );
  if (t.periods.length > 0) {
    pdf.table(
      [
        { header: 'Earlier period from', width: 0.3, value: (p) => formatInstant(p.from, tz) },
        { header: 'to', width: 0.22, value: (p) => formatInstant(p.to, tz) },
        { header: 'Downtime', width: 0.16, align: 'right', value: (p) => formatDuration(p.downtime_seconds) },
        { header: 'Achieved', width: 0.18, align: 'right', value: (p) => formatPercent(p.achieved_percent) },
        { header: 'Met', width: 0.14, value: (p) => verdict(p.status) },
      ],
      t.periods,
    );
  }
  pdf.table(
    [
      { header: 'Monitor', width: 0.5, value: (m) => m.name },
      { header: 'Achieved', width: 0.25, align: 'right', value: (m) => formatPercent(m.achieved_percent) },
      { header: 'Downtime', width: 0.25, align: 'right', value: (m) => formatDuration(m.downtime_seconds) },
    ],
    t.monitors,
    { empty: 'No monitors.' },
  );
}

function body(pdf: ReportPdf, r: SlaReport): void {
  if (r.targets.length === 0) {
    pdf.paragraph('No SLA targets in this report.', { colour: COLOURS.muted });
    return;
  }
  const shown = r.targets.slice(0, 30);
  const used = shown.map((t) => budgetUsedPercent(t) ?? 0);
  if (shown.length > 0) {
    hbarChart(pdf, pdf.box(30 + shown.length * 16), {
      title: 'Error budget used in the current period',
      max: Math.min(200, Math.max(100, ...used)),
      reference: { value: 100, label: 'whole budget' },
      bars: shown.map((t, i) => ({
        label: t.name,
        value: used[i]!,
        text: budgetUsedPercent(t) === null ? 'no budget' : formatPercent(budgetUsedPercent(t)),
      })),
    });
    if (r.targets.length > shown.length)
      pdf.paragraph(`The chart shows the first ${shown.length} of ${r.targets.length} targets.`);
  }
  for (const t of r.targets) target(pdf, r, t);
}

export const slaLayout: PdfLayout<SlaReport> = {
  title: 'SLA report',
  figures: (r) => {
    const burns = r.targets.flatMap((t) => (t.current.burn_rate === null ? [] : [t.current.burn_rate]));
    const achieved = r.targets.flatMap((t) =>
      t.current.achieved_percent === null ? [] : [t.current.achieved_percent],
    );
    return [
      // the first figure stands for the report where it is one section of several
      {
        label: 'Budget exhausted',
        value: `${r.summary.budget_exhausted} of ${r.summary.targets}`,
        note: 'current periods (not over yet)',
      },
      { label: 'In progress', value: formatCount(r.summary.in_progress), note: 'current periods with data' },
      { label: 'No data', value: formatCount(r.summary.no_data), note: 'no monitored time yet' },
      {
        label: 'Earlier periods met',
        value: `${r.summary.met} of ${r.summary.met + r.summary.missed}`,
        note: 'finished periods listed',
      },
      { label: 'Highest burn rate', value: burns.length > 0 ? `${formatNumber(Math.max(...burns))} ×` : '—' },
      { label: 'Lowest achieved', value: formatPercent(achieved.length > 0 ? Math.min(...achieved) : null) },
    ];
  },
  body,
};
