import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { unwrap } from '../api/client';
import { useApi } from '../api/context';
import { can, useSession } from '../api/session';
import { dateTime } from '../lib/format';

export const IMPACT_LABEL = { critical: 'Critical', major: 'Major', minor: 'Minor', none: 'None' } as const;
export const KIND_LABEL = { incident: 'Incident', maintenance: 'Maintenance', info: 'Information' } as const;
export const STATUS_LABEL = {
  investigating: 'Investigating',
  identified: 'Identified',
  monitoring: 'Monitoring',
  resolved: 'Resolved',
} as const;

/** The notices of one status page, drafts included, newest first. */
export default function StatusPageNoticesPage() {
  const { id } = useParams();
  const api = useApi();
  const { session } = useSession();
  const page = useQuery({
    queryKey: ['status-page', id],
    queryFn: async () => unwrap(await api.client.GET('/api/v1/status-pages/{id}', { params: { path: { id: id! } } })),
  });
  const notices = useQuery({
    queryKey: ['status-page-notices', id],
    queryFn: async () =>
      unwrap(
        await api.client.GET('/api/v1/status-pages/{id}/notices', {
          params: { path: { id: id! }, query: { limit: 200 } },
        }),
      ),
  });
  return (
    <>
      <p>
        <Link to={`/status-pages/${id}`}>← {page.data?.title ?? 'Status page'}</Link>
      </p>
      <div className="page-head">
        <h1>Notices{page.data ? `: ${page.data.title}` : ''}</h1>
        {can(session.role).write && (
          <Link className="button primary" to={`/status-pages/${id}/notices/new`}>
            New notice
          </Link>
        )}
      </div>
      {notices.isError && <p role="alert">{notices.error.message}</p>}
      {notices.data?.data.length === 0 && <p>No notices yet.</p>}
      {notices.data && notices.data.data.length > 0 && (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Title</th>
                <th scope="col">Kind</th>
                <th scope="col">Impact</th>
                <th scope="col">Status</th>
                <th scope="col">Visibility</th>
                <th scope="col">Updated</th>
              </tr>
            </thead>
            <tbody>
              {notices.data.data.map((n) => (
                <tr key={n.id}>
                  <td>
                    <Link to={`/status-pages/${id}/notices/${n.id}`}>{n.title}</Link>
                    {n.automatic && <span className="tag">drafted from incident</span>}
                  </td>
                  <td>{KIND_LABEL[n.kind]}</td>
                  <td>{IMPACT_LABEL[n.impact]}</td>
                  <td>{n.status ? STATUS_LABEL[n.status] : 'Open'}</td>
                  <td>{n.published ? 'Published' : 'Draft'}</td>
                  <td>{dateTime(n.updated_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
