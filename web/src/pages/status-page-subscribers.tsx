import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../api/client';
import { useApi } from '../api/context';
import { dateTime } from '../lib/format';

/**
 * The subscribers of a status page (DECISIONS §18): email (pending until they confirm) and webhook subscribers,
 * each removable by a writer. Subscribers sign up on the public page; webhooks are added through the API.
 */
export function StatusPageSubscribers({ pageId, writable }: { pageId: string; writable: boolean }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const key = ['status-page', pageId, 'subscribers'];
  const list = useQuery({
    queryKey: key,
    queryFn: async () =>
      unwrap(
        await api.client.GET('/api/v1/status-pages/{id}/subscribers', {
          params: { path: { id: pageId }, query: { limit: 200 } },
        }),
      ),
  });
  const remove = useMutation({
    mutationFn: async (sid: string) =>
      unwrap(
        await api.client.DELETE('/api/v1/status-pages/{id}/subscribers/{sid}', {
          params: { path: { id: pageId, sid } },
        }),
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: key }),
  });
  const rows = list.data?.data ?? [];
  return (
    <section aria-labelledby="subscribers-h">
      <h2 id="subscribers-h">
        Subscribers ({rows.length}
        {list.data?.next_cursor ? '+' : ''})
      </h2>
      {list.isError && <p role="alert">{list.error.message}</p>}
      {remove.isError && <p role="alert">{remove.error.message}</p>}
      {list.data && rows.length === 0 && <p>No subscribers yet.</p>}
      {rows.length > 0 && (
        <table>
          <thead>
            <tr>
              <th scope="col">Subscriber</th>
              <th scope="col">Type</th>
              <th scope="col">Status</th>
              <th scope="col">Since</th>
              {writable && (
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {rows.map((s) => {
              const who = s.email ?? s.url ?? s.id;
              return (
                <tr key={s.id}>
                  <td>{who}</td>
                  <td>{s.type}</td>
                  <td>{s.status === 'pending' ? 'Awaiting confirmation' : 'Confirmed'}</td>
                  <td>{dateTime(s.confirmed_at ?? s.created_at)}</td>
                  {writable && (
                    <td>
                      <button
                        type="button"
                        className="danger"
                        disabled={remove.isPending}
                        aria-label={`Remove ${who}`}
                        onClick={() => {
                          if (window.confirm(`Remove ${who}? Nothing more will be sent to it.`)) remove.mutate(s.id);
                        }}
                      >
                        Remove
                      </button>
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
