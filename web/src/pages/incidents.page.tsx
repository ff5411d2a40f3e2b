import { useInfiniteQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { unwrap } from '../api/client';
import { useApi } from '../api/context';
import { duration, relativeTime } from '../lib/format';
import { EmptyState, ErrorState, PageHeader } from '../ui/kit';
import { StatusBadge } from '../ui/status';

const STATUSES = ['opened', 'acknowledged', 'resolved'] as const;
const SOURCES = ['monitor', 'api', 'intelligence', 'manual'] as const;
type Status = (typeof STATUSES)[number];
type Source = (typeof SOURCES)[number];

export default function IncidentsPage() {
  const api = useApi();
  const [params, setParams] = useSearchParams();
  const status = (STATUSES as readonly string[]).includes(params.get('status') ?? '')
    ? (params.get('status') as Status)
    : undefined;
  const source = (SOURCES as readonly string[]).includes(params.get('source') ?? '')
    ? (params.get('source') as Source)
    : undefined;
  const monitorId = params.get('monitor_id') ?? undefined;
  const list = useInfiniteQuery({
    queryKey: ['incidents', 'list', status, source, monitorId],
    initialPageParam: undefined as string | undefined,
    queryFn: async ({ pageParam }) =>
      unwrap(
        await api.client.GET('/api/v1/incidents', {
          params: {
            query: {
              limit: 50,
              ...(status ? { status } : {}),
              ...(source ? { source } : {}),
              ...(monitorId ? { monitor_id: monitorId } : {}),
              ...(pageParam ? { cursor: pageParam } : {}),
            },
          },
        }),
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  const set = (name: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  };
  const incidents = list.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <>
      <PageHeader
        title="Incidents"
        lead={
          <span className="muted">
            Every outage and manual incident, newest first. Open ones need someone: acknowledge, then resolve.
          </span>
        }
      />
      <form className="filters" aria-label="Filter incidents" onSubmit={(e) => e.preventDefault()}>
        <label>
          Status
          <select value={status ?? ''} onChange={(e) => set('status', e.target.value)}>
            <option value="">Any</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label>
          Source
          <select value={source ?? ''} onChange={(e) => set('source', e.target.value)}>
            <option value="">Any</option>
            {SOURCES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
      </form>
      {list.isPending && <p role="status">Loading…</p>}
      {list.isError && <ErrorState message={list.error.message} onRetry={() => void list.refetch()} />}
      {list.isSuccess && incidents.length === 0 && (
        <EmptyState
          icon={status || source ? '∅' : '✔'}
          tone={status || source ? 'neutral' : 'up'}
          title={status || source ? 'No incidents match these filters' : 'No incidents yet'}
        >
          <p>
            {status || source
              ? 'Try another status or source.'
              : 'When a monitor goes down, its incident appears here.'}
          </p>
        </EmptyState>
      )}
      {incidents.length > 0 && (
        <div className="table-wrap table-card">
          <table className="stack-narrow">
            <thead>
              <tr>
                <th scope="col">Status</th>
                <th scope="col">Incident</th>
                <th scope="col">Source</th>
                <th scope="col">Opened</th>
                <th scope="col">Duration</th>
              </tr>
            </thead>
            <tbody>
              {incidents.map((i) => (
                <tr key={i.id}>
                  <td>
                    <StatusBadge status={i.status} />
                  </td>
                  <td>
                    <Link to={`/incidents/${i.id}`}>
                      #{i.number} {i.title}
                    </Link>
                    {i.cause && <span className="muted small"> {i.cause}</span>}
                  </td>
                  <td data-label="Source">{i.source}</td>
                  <td data-label="Opened">
                    <time dateTime={i.opened_at}>{relativeTime(i.opened_at)}</time>
                  </td>
                  <td data-label="Duration">{duration(i.duration_seconds)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list.hasNextPage && (
        <button type="button" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
          Load more
        </button>
      )}
    </>
  );
}
