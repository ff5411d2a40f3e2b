import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { unwrap } from '../api/client';
import { useApi } from '../api/context';
import { can, useSession } from '../api/session';
import { dateTime } from '../lib/format';

/** Maintenance windows (DECISIONS §16): what is planned, what is in progress, and ending one early. */
export default function MaintenanceWindowsPage() {
  const api = useApi();
  const queryClient = useQueryClient();
  const { session } = useSession();
  const writable = can(session.role).write;
  const windows = useQuery({
    queryKey: ['maintenance-windows'],
    queryFn: async () =>
      unwrap(await api.client.GET('/api/v1/maintenance-windows', { params: { query: { limit: 200 } } })),
  });
  const end = useMutation({
    mutationFn: async (id: string) =>
      unwrap(await api.client.POST('/api/v1/maintenance-windows/{id}/end', { params: { path: { id } } })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['maintenance-windows'] }),
  });
  const list = windows.data?.data ?? [];
  return (
    <>
      <div className="page-head">
        <h1>Maintenance windows</h1>
        {writable && (
          <Link className="button primary" to="/maintenance-windows/new">
            New maintenance window
          </Link>
        )}
      </div>
      <p className="muted">
        Inside a window checks keep running, but no incident opens and no alert is sent; a monitor still failing at the
        end is judged from then. Reports count the time as maintenance, neither up nor down.
      </p>
      {windows.isError && <p role="alert">{windows.error.message}</p>}
      {end.error && <p role="alert">{end.error.message}</p>}
      {windows.isPending && <p role="status">Loading…</p>}
      {windows.data && list.length === 0 && <p>No maintenance windows yet.</p>}
      {list.length > 0 && (
        <div className="table-wrap">
          <table className="stack-narrow">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">State</th>
                <th scope="col">Schedule</th>
                <th scope="col">Next (or current) occurrence</th>
                <th scope="col">Covers</th>
                {writable && <th scope="col">Actions</th>}
              </tr>
            </thead>
            <tbody>
              {list.map((w) => (
                <tr key={w.id}>
                  <th scope="row">
                    <Link to={`/maintenance-windows/${w.id}`}>{w.name}</Link>
                  </th>
                  <td data-label="State">
                    <span
                      className={`badge badge-${w.active ? 'maintenance' : 'pending'}`}
                      data-status={w.active ? 'active' : 'idle'}
                    >
                      {w.active ? '⚒ In progress' : 'Planned'}
                    </span>
                  </td>
                  <td data-label="Schedule">
                    {w.schedule.type === 'once'
                      ? 'Once'
                      : `${w.schedule.rrule} at ${w.schedule.start_time} for ${w.schedule.duration_minutes} min`}{' '}
                    ({w.timezone})
                  </td>
                  <td data-label="Next">
                    {w.next_start_at && w.next_end_at
                      ? `${dateTime(w.next_start_at)} – ${dateTime(w.next_end_at)}`
                      : 'none ahead'}
                  </td>
                  <td data-label="Covers">
                    {[
                      w.monitor_ids.length > 0 ? `${w.monitor_ids.length} monitor(s)` : null,
                      w.tags.length > 0 ? `tags ${w.tags.join(', ')}` : null,
                    ]
                      .filter(Boolean)
                      .join('; ')}
                  </td>
                  {writable && (
                    <td className="actions-cell">
                      {w.active && (
                        <button type="button" disabled={end.isPending} onClick={() => end.mutate(w.id)}>
                          End now
                        </button>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
