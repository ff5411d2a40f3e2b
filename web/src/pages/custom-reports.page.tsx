import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { unwrap } from '../api/client';
import { useApi } from '../api/context';
import { can, useSession } from '../api/session';
import { dateTime } from '../lib/format';
import { useMemberNames, VISIBILITY_LABELS } from './custom-report.shared';

/** The custom reports this person may see: name, owner, visibility, last change. */
export default function CustomReportsPage() {
  const api = useApi();
  const { session } = useSession();
  const reports = useQuery({
    queryKey: ['custom-reports'],
    queryFn: async () => unwrap(await api.client.GET('/api/v1/custom-reports', { params: { query: { limit: 200 } } })),
  });
  const names = useMemberNames();
  return (
    <>
      <div className="page-head">
        <h1>Custom reports</h1>
        {can(session.role).write && (
          <Link className="button primary" to="/custom-reports/new">
            New custom report
          </Link>
        )}
      </div>
      <p className="muted">
        Named pages of widgets, each one of the six reports over its own monitors or tags. See also{' '}
        <Link to="/scheduled-reports">scheduled reports</Link>.
      </p>
      {reports.isError && <p role="alert">{reports.error.message}</p>}
      {reports.isPending && <p role="status">Loading…</p>}
      {reports.data?.data.length === 0 && <p>No custom reports yet.</p>}
      {reports.data && reports.data.data.length > 0 && (
        <div className="table-wrap">
          <table className="custom-reports">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Owner</th>
                <th scope="col">Visibility</th>
                <th scope="col" className="hide-narrow">
                  Widgets
                </th>
                <th scope="col" className="hide-narrow">
                  Updated
                </th>
              </tr>
            </thead>
            <tbody>
              {reports.data.data.map((r) => (
                <tr key={r.id}>
                  <td>
                    <Link to={`/custom-reports/${r.id}`}>{r.name}</Link>
                  </td>
                  <td>{r.owner_id === session.user.id ? 'You' : (names.get(r.owner_id) ?? 'Service account')}</td>
                  <td>
                    {VISIBILITY_LABELS[r.visibility]}
                    {r.visibility === 'shared' && ` (${r.shared_with_user_ids.length})`}
                  </td>
                  <td className="hide-narrow">{r.widgets.length}</td>
                  <td className="hide-narrow">{dateTime(r.updated_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
