import { Link } from 'react-router';
import { at, count, pct, span } from '../lib/report-format';
import { UptimeBar } from '../ui/charts';
import { Figure, ReportFrame, SummaryCards, useReport } from '../ui/report-frame';
import { ReportTable } from '../ui/report-table';

export default function AvailabilityReportPage() {
  const { state, result } = useReport('availability');
  return (
    <ReportFrame kind="availability" state={state} result={result}>
      {(r) => (
        <>
          <SummaryCards>
            <Figure id="uptime" label="Uptime (all monitors)" value={pct(r.summary.uptime_percent)} />
            <Figure id="downtime" label="Downtime" value={span(r.summary.downtime_seconds)} />
            <Figure id="monitored" label="Monitored time" value={span(r.summary.monitored_seconds)} />
            <Figure id="incidents" label="Incidents" value={count(r.summary.incidents)} />
            <Figure id="monitors" label="Monitors" value={count(r.summary.monitors)} />
          </SummaryCards>
          <section aria-labelledby="per-monitor">
            <h2 id="per-monitor">Per monitor</h2>
            {r.monitors.length === 0 ? (
              <p className="muted">No monitor existed in this period.</p>
            ) : (
              <ReportTable
                columns={[
                  'Monitor',
                  'Uptime',
                  'Downtime',
                  { label: 'Paused', secondary: true },
                  { label: 'Coverage', secondary: true },
                  { label: 'Checks (failed)', secondary: true },
                  'Incidents',
                  { label: 'Longest', secondary: true },
                  'Uptime per day',
                ]}
                testId="availability-table"
              >
                {r.monitors.map((m) => (
                  <tr key={m.monitor_id} data-monitor={m.monitor_id}>
                    <th scope="row">
                      <Link to={`/monitors/${m.monitor_id}`}>{m.name}</Link>
                      <span className="muted small target">{m.target}</span>
                    </th>
                    <td data-col="uptime">{pct(m.uptime_percent)}</td>
                    <td data-col="downtime">{span(m.downtime_seconds)}</td>
                    <td className="secondary">{span(m.paused_seconds)}</td>
                    <td className="secondary">{pct(m.coverage_percent)}</td>
                    <td className="secondary">
                      {count(m.checks)} ({count(m.failed_checks)})
                    </td>
                    <td>{count(m.incident_count)}</td>
                    <td className="secondary">{m.incident_count ? span(m.longest_incident_seconds) : '—'}</td>
                    <td className="bar-cell">
                      <UptimeBar
                        days={m.daily.map((d) => ({ day: d.date, uptime: d.uptime_percent }))}
                        label={`${m.name}, uptime per day: ${m.daily
                          .map((d) => `${d.date} ${pct(d.uptime_percent)}`)
                          .join(', ')}`}
                      />
                    </td>
                  </tr>
                ))}
              </ReportTable>
            )}
            <p className="muted small">
              One bar per day of the period ({r.period.timezone}); each day&apos;s uptime is in the bar&apos;s
              description (hover, or read by a screen reader).
            </p>
          </section>
          <section aria-labelledby="incidents-list">
            <h2 id="incidents-list">Incidents</h2>
            {r.monitors.every((m) => m.incidents.length === 0) ? (
              <p className="muted">No incident in this period.</p>
            ) : (
              <ReportTable columns={['Incident', 'Monitor', 'Down since', 'Duration', 'Cause']}>
                {r.monitors.flatMap((m) =>
                  m.incidents.map((i) => (
                    <tr key={i.id}>
                      <th scope="row">
                        <Link to={`/incidents/${i.id}`}>#{i.number}</Link>
                        {i.resolved_at ? '' : ' (open)'}
                      </th>
                      <td>{m.name}</td>
                      <td>
                        <time dateTime={i.down_since}>{at(i.down_since, r.period.timezone)}</time>
                      </td>
                      <td>{span(i.duration_seconds)}</td>
                      <td>{i.cause ?? '—'}</td>
                    </tr>
                  )),
                )}
              </ReportTable>
            )}
          </section>
        </>
      )}
    </ReportFrame>
  );
}
