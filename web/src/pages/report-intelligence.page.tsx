import { Link } from 'react-router';
import { at, count } from '../lib/report-format';
import { CountTable } from '../ui/report-charts';
import { Figure, ReportFrame, SummaryCards, useReport } from '../ui/report-frame';
import { ReportTable } from '../ui/report-table';
import { plural } from '../lib/format';

const SEVERITY_ICON = { critical: '✖', warning: '!', info: 'i' } as const;

export default function IntelligenceReportPage() {
  const { state, result } = useReport('intelligence');
  return (
    <ReportFrame kind="intelligence" state={state} result={result}>
      {(r) => {
        const names = new Map(r.events.map((e) => [e.monitor_id, e.monitor_name ?? e.monitor_id]));
        const byKind = new Map<string, number>();
        for (const e of r.events) byKind.set(e.kind, (byKind.get(e.kind) ?? 0) + 1);
        return (
          <>
            <SummaryCards>
              <Figure id="events" label="Events" value={count(r.summary.events)} />
              <Figure id="critical" label="Critical" value={count(r.summary.by_severity.critical)} />
              <Figure id="warning" label="Warning" value={count(r.summary.by_severity.warning)} />
              <Figure id="info" label="Info" value={count(r.summary.by_severity.info)} />
              <Figure id="correlations" label="Correlations" value={count(r.correlations.length)} />
            </SummaryCards>
            <div className="two-columns">
              <CountTable
                caption="Events by category"
                heading="Category"
                rows={Object.entries(r.summary.by_category).map(([label, value]) => ({ label, value }))}
              />
              <CountTable
                caption="Events by kind"
                rows={[...byKind].map(([label, value]) => ({ label: label.replaceAll('_', ' '), value }))}
              />
            </div>
            {Object.keys(r.summary.by_monitor).length > 0 && (
              <CountTable
                caption="Events by monitor"
                heading="Monitor"
                rows={Object.entries(r.summary.by_monitor).map(([id, value]) => ({
                  label: names.get(id) ?? id,
                  value,
                }))}
              />
            )}
            <section aria-labelledby="events-list">
              <h2 id="events-list">Events</h2>
              {r.events.length === 0 ? (
                <p className="muted">No event in this period.</p>
              ) : (
                <ReportTable columns={['Started', 'Monitor', 'Severity', 'Category / kind', 'Summary', 'Ended']}>
                  {r.events.map((e) => (
                    <tr key={e.id}>
                      <td>{at(e.started_at, r.period.timezone)}</td>
                      <th scope="row">
                        <Link to={`/monitors/${e.monitor_id}`}>{e.monitor_name ?? e.monitor_id}</Link>
                      </th>
                      <td>
                        <span aria-hidden="true">{SEVERITY_ICON[e.severity]}</span> {e.severity}
                      </td>
                      <td>
                        {e.category} / {e.kind.replaceAll('_', ' ')}
                      </td>
                      <td>{e.summary}</td>
                      <td>{e.ended_at ? at(e.ended_at, r.period.timezone) : 'ongoing'}</td>
                    </tr>
                  ))}
                </ReportTable>
              )}
            </section>
            <section aria-labelledby="correlations-list">
              <h2 id="correlations-list">Correlations</h2>
              {r.correlations.length === 0 ? (
                <p className="muted">No monitors failed or turned anomalous together in this period.</p>
              ) : (
                <ul className="plain">
                  {r.correlations.map((c) => (
                    <li key={c.id}>
                      <strong>{c.summary}</strong>{' '}
                      <span className="muted">
                        ({c.shared.attribute.replaceAll('_', ' ')} {c.shared.value};{' '}
                        {plural(c.monitor_ids.length, 'monitor')}, {plural(c.events.length, 'event')};{' '}
                        {at(c.window.from, r.period.timezone)} – {at(c.window.to, r.period.timezone)})
                      </span>
                    </li>
                  ))}
                </ul>
              )}
            </section>
          </>
        );
      }}
    </ReportFrame>
  );
}
