import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../api/context';
import { useSession } from '../api/session';
import { dateTime, relativeTime } from '../lib/format';
import { Card, ErrorState, PageHeader } from '../ui/kit';

interface SessionRow {
  id: string;
  created_at: string;
  last_seen_at: string;
  user_agent: string | null;
  ip: string | null;
  current: boolean;
}

export default function ProfilePage() {
  const api = useApi();
  const queryClient = useQueryClient();
  const { session } = useSession();
  const sessions = useQuery({
    queryKey: ['sessions'],
    queryFn: () => api.json<{ data: SessionRow[] }>('GET', '/api/v1/auth/sessions'),
  });
  const end = useMutation({
    mutationFn: (id: string) => api.json('DELETE', `/api/v1/auth/sessions/${encodeURIComponent(id)}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['sessions'] }),
  });
  return (
    <>
      <PageHeader title="Profile" />
      <div className="card-stack">
        <Card title="You">
          <dl className="facts">
            <div>
              <dt>Name</dt>
              <dd>{session.user.name ?? '—'}</dd>
            </div>
            <div>
              <dt>Email</dt>
              <dd>{session.user.email}</dd>
            </div>
            <div>
              <dt>Role</dt>
              <dd>
                {session.role} in {session.organization.name}
              </dd>
            </div>
          </dl>
        </Card>
        <Card title="Where you are signed in">
          {sessions.isError && <ErrorState message={sessions.error.message} onRetry={() => void sessions.refetch()} />}
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Browser</th>
                  <th scope="col">Address</th>
                  <th scope="col">Signed in</th>
                  <th scope="col">Last seen</th>
                  <th scope="col">Action</th>
                </tr>
              </thead>
              <tbody>
                {sessions.data?.data.map((s) => (
                  <tr key={s.id}>
                    <td className="small">{s.user_agent ?? 'unknown'}</td>
                    <td>{s.ip ?? '—'}</td>
                    <td>{dateTime(s.created_at)}</td>
                    <td>{relativeTime(s.last_seen_at)}</td>
                    <td>
                      {s.current ? (
                        'This browser'
                      ) : (
                        <button type="button" onClick={() => end.mutate(s.id)} disabled={end.isPending}>
                          End<span className="visually-hidden"> the session from {s.user_agent ?? 'unknown'}</span>
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {end.error && <p role="alert">{end.error.message}</p>}
        </Card>
      </div>
    </>
  );
}
