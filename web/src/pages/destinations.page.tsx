import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { unwrap } from '../api/client';
import { useApi } from '../api/context';
import { can, useSession } from '../api/session';
import { words } from '../lib/destination-types';
import { DestinationType } from '../ui/destination-type';
import { relativeTime } from '../lib/format';

export default function DestinationsPage() {
  const api = useApi();
  const { session } = useSession();
  const list = useQuery({
    queryKey: ['destinations'],
    enabled: can(session.role).admin,
    queryFn: async () => unwrap(await api.client.GET('/api/v1/auth/organization/webhooks', {})),
  });
  if (!can(session.role).admin) {
    return (
      <>
        <h1>Destinations</h1>
        <p role="alert">Only owners and admins manage destinations.</p>
      </>
    );
  }
  return (
    <>
      <div className="page-head">
        <h1>Destinations</h1>
        <Link className="button primary" to="/destinations/new">
          New destination
        </Link>
      </div>
      {list.isError && <p role="alert">{list.error.message}</p>}
      {list.data?.data.length === 0 && <p>No destinations yet: alerts go by email to verified members.</p>}
      {list.data && list.data.data.length > 0 && (
        <div className="table-wrap">
          <table className="stack-narrow">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">Events</th>
                <th scope="col">Last success</th>
                <th scope="col">Last failure</th>
              </tr>
            </thead>
            <tbody>
              {list.data.data.map((d) => (
                <tr key={d.id}>
                  <td>
                    <Link to={`/destinations/${d.id}`}>{d.name}</Link>
                    {d.needs_reauthorization && <span className="badge badge-down"> Needs reauthorization</span>}
                  </td>
                  <td data-label="Type">
                    <DestinationType type={d.type} />
                  </td>
                  <td data-label="Events">{d.events.map(words).join(', ')}</td>
                  <td data-label="Last success">{relativeTime(d.last_success_at)}</td>
                  <td data-label="Last failure">
                    {d.last_failure_at ? `${relativeTime(d.last_failure_at)}: ${d.last_failure_reason ?? ''}` : 'never'}
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
