import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { unwrap } from '../api/client';
import { useApi } from '../api/context';
import { can, useSession } from '../api/session';

export default function StatusPagesPage() {
  const api = useApi();
  const { session } = useSession();
  const pages = useQuery({
    queryKey: ['status-pages'],
    queryFn: async () => unwrap(await api.client.GET('/api/v1/status-pages', { params: { query: { limit: 200 } } })),
  });
  return (
    <>
      <div className="page-head">
        <h1>Status pages</h1>
        {can(session.role).write && (
          <Link className="button primary" to="/status-pages/new">
            New status page
          </Link>
        )}
      </div>
      {pages.isError && <p role="alert">{pages.error.message}</p>}
      {pages.data?.data.length === 0 && <p>No status pages yet.</p>}
      {pages.data && pages.data.data.length > 0 && (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Title</th>
                <th scope="col">Public page</th>
                <th scope="col">Monitors</th>
                <th scope="col">Visibility</th>
              </tr>
            </thead>
            <tbody>
              {pages.data.data.map((p) => (
                <tr key={p.id}>
                  <td>
                    <Link to={`/status-pages/${p.id}`}>{p.title}</Link>
                  </td>
                  <td>
                    <a href={`/status/${p.slug}`} target="_blank" rel="noreferrer">
                      /status/{p.slug}
                    </a>
                  </td>
                  <td>{p.monitor_ids.length}</td>
                  <td>{p.public ? 'Public' : 'Hidden'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
