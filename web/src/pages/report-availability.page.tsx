import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { unwrap } from '../api/client';
import { useApi } from '../api/context';
import { at, count, pct, span } from '../lib/report-format';
import { UptimeBar } from '../ui/charts';
import { useReportQuery } from '../ui/report-filters';
import { Figure, ReportFrame } from '../ui/report-frame';

export default function AvailabilityReportPage() {
  const api = useApi();
  const state = useReportQuery();
  const result = useQuery({
    queryKey: ['report', 'availability', state.query],
    retry: false,
    placeholderData: keepPreviousData,
    queryFn: async () =>
      unwrap(await api.client.GET('/api/v1/reports/availability', { params: { query: state.query } })),
  });
  return (
    <ReportFrame kind="availability" state={state} result={result}>
      {(r) => (
        <>
          <section aria-labelledby="summary" className="cards">
            <h2 id="summary" className="visually-hidden">
              Summary
            </h2>
            <Figure id="uptime" label="Uptime (all monitors)" value={pct(r.summary.uptime_percent)} />
            <Figure id="downtime" label="Downtime" value={span(r.summary.downtime_seconds)} />
            <Figure id="monitored" label="Monitored time" value={span(r.summary.monitored_seconds)} />
            <Figure id="incidents" label="Incidents" value={count(r.summary.incidents)} />
            <Figure id="monitors" label="Monitors" value={count(r.summary.monitors)} />
          </section>
          <section aria-labelledby="per-monitor">
            <h2 id="per-monitor">Per monitor</h2>
            {r.monitors.length === 0 ? (
              <p className="muted">No monitor existed in this period.</p>
            ) : (
              <div className="table-wrap">
                <table className="report-table" data-testid="availability-table">
                  <thead>
                    <tr>
                      <th scope="col">Monitor</th>
                      <th scope="col">Uptime</th>
                      <th scope="col">Downtime</th>
                      <th scope="col" className="secondary">
                        Paused
                      </th>
                      <th scope="col" className="secondary">
                        Coverage
                      </th>
                      <th scope="col" className="secondary">
                        Checks (failed)
                      </th>
                      <th scope="col">Incidents</th>
                      <th scope="col" className="secondary">
                        Longest
                      </th>
                      <th scope="col">Uptime per day</th>
                    </tr>
                  </thead>
                  <tbody>
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
                  </tbody>
                </table>
              </div>
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
              <div className="table-wrap">
                <table className="report-table">
                  <thead>
                    <tr>
                      <th scope="col">Incident</th>
                      <th scope="col">Monitor</th>
                      <th scope="col">Down since</th>
                      <th scope="col">Duration</th>
                      <th scope="col">Cause</th>
                    </tr>
                  </thead>
                  <tbody>
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
                  </tbody>
                </table>
              </div>
            )}
          </section>
        </>
      )}
    </ReportFrame>
  );
}
