import { DestinationType } from '../ui/destination-type';
import { dateTime, plural } from '../lib/format';
import { at } from '../lib/report-format';
import { DeliveryBadge, type ScheduledReportRun } from './scheduled-report.shared';

/**
 * The latest runs, newest first: period (in the schedule's zone), how it was started, its status, and each
 * delivery's destination (with its address for email), outcome and reason.
 */
export function RunsTable(props: { runs: ScheduledReportRun[]; timezone: string; addresses: Map<string, string> }) {
  const { runs, timezone, addresses } = props;
  if (runs.length === 0) return <p className="muted">No runs yet.</p>;
  return (
    <div className="table-wrap">
      <table className="runs">
        <thead>
          <tr>
            <th scope="col">Started</th>
            <th scope="col">Status</th>
            <th scope="col">Deliveries</th>
            <th scope="col" className="hide-narrow">
              Period reported
            </th>
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => (
            <tr key={run.id} data-run={run.id} data-status={run.status}>
              <td>
                {dateTime(run.started_at)}
                <span className="muted small"> · {run.manual ? 'Run now' : 'Scheduled'}</span>
              </td>
              <td>
                <DeliveryBadge status={run.status} />
              </td>
              <td>
                <ul className="plain deliveries">
                  {run.deliveries.map((d) => (
                    <li key={d.destination_id} data-destination={d.destination_id}>
                      <strong>{d.destination_name ?? 'Deleted destination'}</strong>{' '}
                      {d.destination_type && (
                        <span className="muted small">
                          (<DestinationType type={d.destination_type} />
                          {addresses.has(d.destination_id) && ` · ${addresses.get(d.destination_id)}`})
                        </span>
                      )}{' '}
                      <DeliveryBadge status={d.status} />
                      {d.attempts > 1 && <span className="muted small"> after {plural(d.attempts, 'attempt')}</span>}
                      {d.last_error && <span className="delivery-reason"> — {d.last_error}</span>}
                    </li>
                  ))}
                  {run.missing_destinations > 0 && (
                    <li>
                      <DeliveryBadge status="failed" /> {run.missing_destinations} destination
                      {run.missing_destinations > 1 ? 's' : ''} deleted before the run was sent
                    </li>
                  )}
                  {run.deliveries.length === 0 && run.missing_destinations === 0 && (
                    <li className="muted">Being handed to the destinations…</li>
                  )}
                </ul>
              </td>
              <td className="hide-narrow">
                {at(run.period.from, timezone)} – {at(run.period.to, timezone)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
