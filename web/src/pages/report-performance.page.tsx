import { lazy, Suspense, useMemo } from 'react';
import { Link } from 'react-router';
import { count, millis, trend } from '../lib/report-format';
import { Figure, ReportFrame, SummaryCards, useReport } from '../ui/report-frame';
import { ReportTable } from '../ui/report-table';

const LatencyChart = lazy(() => import('../ui/latency-chart').then((m) => ({ default: m.LatencyChart })));

/** The chart draws the slowest few monitors (by p95): more lines than that are not readable. */
const CHART_MONITORS = 6;

export default function PerformanceReportPage() {
  const { state, result } = useReport('performance');
  const series = useMemo(() => {
    const monitors = [...(result.data?.monitors ?? [])]
      .filter((m) => m.p95_ms !== null)
      .sort((a, b) => (b.p95_ms ?? 0) - (a.p95_ms ?? 0))
      .slice(0, CHART_MONITORS);
    return monitors.map((m) => ({
      label: m.name,
      // A local day's date at UTC midnight: the axis shows the report's days, not instants.
      times: m.daily.map((d) => Date.parse(`${d.date}T00:00:00Z`) / 1000),
      values: m.daily.map((d) => d.p95_ms),
    }));
  }, [result.data]);
  return (
    <ReportFrame kind="performance" state={state} result={result}>
      {(r) => (
        <>
          <SummaryCards>
            <Figure id="monitors" label="Monitors" value={count(r.summary.monitors)} />
            <Figure id="checks" label="Checks" value={count(r.summary.checks)} />
          </SummaryCards>
          <section aria-labelledby="chart">
            <h2 id="chart">p95 per day</h2>
            {series.length === 0 ? (
              <p className="muted">No measured check in this period.</p>
            ) : (
              <Suspense fallback={<p role="status">Loading chart…</p>}>
                <LatencyChart
                  series={series}
                  label={`p95 response time per day for ${series.map((s) => s.label).join(', ')}; the figures are in the table below`}
                />
              </Suspense>
            )}
            {r.monitors.length > CHART_MONITORS && (
              <p className="muted small">The {CHART_MONITORS} monitors with the highest p95 are drawn.</p>
            )}
          </section>
          <section aria-labelledby="per-monitor">
            <h2 id="per-monitor">Per monitor</h2>
            {r.monitors.length === 0 ? (
              <p className="muted">No monitor in this period.</p>
            ) : (
              <ReportTable
                columns={[
                  'Monitor',
                  'p50',
                  'p95',
                  'p99',
                  'p95 vs previous period',
                  { label: 'Mean', secondary: true },
                  { label: 'Min – max', secondary: true },
                  { label: 'Checks (measured)', secondary: true },
                  'Anomalies',
                ]}
                testId="performance-table"
              >
                {r.monitors.map((m) => (
                  <tr key={m.monitor_id} data-monitor={m.monitor_id}>
                    <th scope="row">
                      <Link to={`/monitors/${m.monitor_id}`}>{m.name}</Link>
                    </th>
                    <td data-col="p50">{millis(m.p50_ms)}</td>
                    <td data-col="p95">{millis(m.p95_ms)}</td>
                    <td data-col="p99">{millis(m.p99_ms)}</td>
                    <td>
                      {trend(m.trend_percent)}
                      {m.previous.p95_ms !== null && (
                        <span className="muted small"> (was {millis(m.previous.p95_ms)})</span>
                      )}
                    </td>
                    <td className="secondary">{millis(m.mean_ms)}</td>
                    <td className="secondary">
                      {millis(m.min_ms)} – {millis(m.max_ms)}
                    </td>
                    <td className="secondary">
                      {count(m.checks)} ({count(m.successful_checks)})
                    </td>
                    <td>
                      <Anomalies list={m.anomalies} />
                    </td>
                  </tr>
                ))}
              </ReportTable>
            )}
            <p className="muted small">
              Percentiles from merged latency sketches (within 1 %) of successful checks; the trend compares p95 with
              the period of the same length just before.
            </p>
          </section>
        </>
      )}
    </ReportFrame>
  );
}

/** How many anomalies a row shows before "show all": a monitor with hundreds made the page 15,000 px tall. */
const SHOWN_ANOMALIES = 2;
const SEVERITY_RANK: Record<string, number> = { critical: 0, warning: 1, info: 2 };

/**
 * A monitor's anomalies: a count by severity, the most severe (then latest) few, and the rest behind "show all"
 * (a disclosure: collapsed, it takes no room; opened, every anomaly is there).
 */
function Anomalies({
  list,
}: {
  list: ReadonlyArray<{ id: string; severity: string; summary: string; started_at: string }>;
}) {
  if (list.length === 0) return <>—</>;
  const ranked = [...list].sort(
    (a, b) =>
      (SEVERITY_RANK[a.severity] ?? 3) - (SEVERITY_RANK[b.severity] ?? 3) ||
      Date.parse(b.started_at) - Date.parse(a.started_at),
  );
  const bySeverity = new Map<string, number>();
  for (const a of list) bySeverity.set(a.severity, (bySeverity.get(a.severity) ?? 0) + 1);
  const counts = [...bySeverity]
    .sort((a, b) => (SEVERITY_RANK[a[0]] ?? 3) - (SEVERITY_RANK[b[0]] ?? 3))
    .map(([sev, n]) => `${n} ${sev}`)
    .join(', ');
  const line = (a: (typeof list)[number]) => (
    <p key={a.id} className="small">
      {a.severity}: {a.summary}
    </p>
  );
  return (
    <div className="anomalies" data-anomalies={list.length}>
      {list.length > SHOWN_ANOMALIES && <p className="small muted">{`${list.length} anomalies (${counts})`}</p>}
      {ranked.slice(0, SHOWN_ANOMALIES).map(line)}
      {list.length > SHOWN_ANOMALIES && (
        <details>
          <summary className="small">Show all {list.length}</summary>
          {ranked.slice(SHOWN_ANOMALIES).map(line)}
        </details>
      )}
    </div>
  );
}
