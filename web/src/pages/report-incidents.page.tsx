import { Link } from 'react-router';
import { at, count, span } from '../lib/report-format';
import { StatusBadge } from '../ui/status';
import { CountTable, DayBars } from '../ui/report-charts';
import { downloadHref, Figure, ReportFrame, SummaryCards, useReport } from '../ui/report-frame';
import { ReportTable } from '../ui/report-table';

export default function IncidentsReportPage() {
  const { state, result } = useReport('incidents');
  return (
    <ReportFrame kind="incidents" state={state} result={result}>
      {(r) => {
        const s = r.summary;
        return (
          <>
            <SummaryCards>
              <Figure
                id="count"
                label="Incidents"
                value={count(s.count)}
                note={`${count(s.opened)} opened in the period`}
              />
              <Figure
                id="mtta"
                label="MTTA"
                value={span(s.mtta_seconds)}
                note={`median ${span(s.median_tta_seconds)}`}
              />
              <Figure
                id="mttr"
                label="MTTR"
                value={span(s.mttr_seconds)}
                note={`median ${span(s.median_ttr_seconds)}`}
              />
              <Figure id="acknowledged" label="Acknowledged" value={count(s.acknowledged)} />
              <Figure id="resolved" label="Resolved" value={count(s.resolved)} />
              <Figure
                id="open"
                label="Open now"
                value={count(s.open)}
                note={`${count(s.open_at_period_end)} open at the period's end`}
              />
            </SummaryCards>
            <div className="two-columns">
              <section aria-labelledby="per-day">
                <h2 id="per-day">Opened per day</h2>
                <DayBars
                  days={r.daily.map((d) => ({ date: d.date, value: d.opened }))}
                  label={`Incidents opened per day: ${r.daily.map((d) => `${d.date} ${d.opened}`).join(', ')}`}
                  describe={(v) => `${v ?? 0} opened`}
                />
              </section>
              <CountTable
                caption="By source"
                heading="Source"
                rows={Object.entries(s.by_source).map(([label, value]) => ({ label, value }))}
              />
            </div>
            <section aria-labelledby="list">
              <h2 id="list">Incidents</h2>
              {r.incidents.length === 0 ? (
                <p className="muted">No incident in this period.</p>
              ) : (
                <ReportTable
                  columns={[
                    'Incident',
                    'Status',
                    'Source',
                    'Opened',
                    'Duration',
                    'To acknowledge',
                    'To resolve',
                    'Cause',
                  ]}
                  testId="incidents-table"
                >
                  {r.incidents.map((i) => (
                    <tr key={i.id}>
                      <th scope="row">
                        <Link to={`/incidents/${i.id}`}>
                          #{i.number} {i.title}
                        </Link>
                      </th>
                      <td>
                        <StatusBadge status={i.status} />
                      </td>
                      <td>{i.source}</td>
                      <td>{at(i.opened_at, r.period.timezone)}</td>
                      <td>{span(i.duration_seconds)}</td>
                      <td>{span(i.time_to_acknowledge_seconds)}</td>
                      <td>{span(i.time_to_resolve_seconds)}</td>
                      <td>{i.cause ?? '—'}</td>
                    </tr>
                  ))}
                </ReportTable>
              )}
              <p className="muted small">
                Every incident whose time overlaps the period, as it stands now. Times to acknowledge and resolve count
                from opening. The same incidents as one streamed file, however many:{' '}
                <a href={downloadHref('incidents', 'csv', state.query, r.period, '/export')}>export (CSV)</a> ·{' '}
                <a href={downloadHref('incidents', 'json', state.query, r.period, '/export')}>export (JSON)</a> ·{' '}
                <a href={downloadHref('incidents', 'pdf', state.query, r.period, '/export')}>export (PDF)</a>.
              </p>
            </section>
          </>
        );
      }}
    </ReportFrame>
  );
}
