import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { unwrap } from '../api/client';
import { useApi } from '../api/context';
import { can, useSession } from '../api/session';
import { relativeTime } from '../lib/format';
import { inZone } from '../lib/time-zones';
import { DeliveryBadge, scheduleText, typeLabel } from './scheduled-report.shared';

/** Every schedule: which report, when, the next run, the last run and how it went, paused or not. */
export default function ScheduledReportsPage() {
  const api = useApi();
  const { session } = useSession();
  const schedules = useQuery({
    queryKey: ['scheduled-reports'],
    queryFn: async () =>
      unwrap(await api.client.GET('/api/v1/scheduled-reports', { params: { query: { limit: 200 } } })),
  });
  const customs = useQuery({
    queryKey: ['custom-reports'],
    queryFn: async () => unwrap(await api.client.GET('/api/v1/custom-reports', { params: { query: { limit: 200 } } })),
  });
  const customName = new Map((customs.data?.data ?? []).map((c) => [c.id, c.name]));
  return (
    <>
      <div className="page-head">
        <h1>Scheduled reports</h1>
        {can(session.role).write && (
          <Link className="button primary" to="/scheduled-reports/new">
            New schedule
          </Link>
        )}
      </div>
      <p className="muted">
        A report delivered to destinations at a local time in a time zone. See also{' '}
        <Link to="/custom-reports">custom reports</Link>.
      </p>
      {schedules.isError && <p role="alert">{schedules.error.message}</p>}
      {schedules.isPending && <p role="status">Loading…</p>}
      {schedules.data?.data.length === 0 && <p>No scheduled reports yet.</p>}
      {schedules.data && schedules.data.data.length > 0 && (
        <div className="table-wrap">
          <table className="scheduled-reports">
            <thead>
              <tr>
                <th scope="col">Report</th>
                <th scope="col">Schedule</th>
                <th scope="col">Next run</th>
                <th scope="col" className="hide-narrow">
                  Last run
                </th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {schedules.data.data.map((s) => (
                <tr key={s.id} data-id={s.id}>
                  <td>
                    <Link to={`/scheduled-reports/${s.id}`}>
                      {s.report_type === 'custom'
                        ? `Custom: ${customName.get(s.custom_report_id ?? '') ?? s.custom_report_id}`
                        : typeLabel(s.report_type)}
                    </Link>
                  </td>
                  <td>{scheduleText(s)}</td>
                  <td>{s.enabled ? inZone(Date.parse(s.next_run_at), s.timezone) : 'Paused'}</td>
                  <td className="hide-narrow">
                    {s.last_run_at ? relativeTime(s.last_run_at) : 'never'} <DeliveryBadge status={s.last_status} />
                  </td>
                  <td>
                    <DeliveryBadge status={s.enabled ? 'active' : 'paused'} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
