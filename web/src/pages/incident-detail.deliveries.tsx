import { DestinationType } from '../ui/destination-type';
import { useInfiniteQuery } from '@tanstack/react-query';
import { unwrap } from '../api/client';
import { useApi } from '../api/context';
import type { components } from '../api/schema';
import { dateTime, plural } from '../lib/format';
import { StatusBadge } from '../ui/status';

type Delivery = components['schemas']['IncidentDelivery'];

const EVENT_LABELS: Record<string, string> = {
  down: 'Down',
  recovered: 'Recovered',
  still_down: 'Reminder: still down',
  incident_opened: 'Incident opened',
  incident_acknowledged: 'Acknowledged',
  incident_resolved: 'Resolved',
};

/** While a delivery is still to be tried, its outcome changes without an incident event: read again this often. */
const UNSETTLED_REFRESH_MS = 15_000;

/** One group per destination (or member address), in the order they first appear (oldest event first). */
function byTarget(
  deliveries: readonly Delivery[],
): Array<{ key: string; title: string; kind: string | null; rows: Delivery[] }> {
  const groups = new Map<string, { key: string; title: string; kind: string | null; rows: Delivery[] }>();
  for (const d of deliveries) {
    const key = d.destination ? d.destination.id : `member:${d.member?.user_id ?? d.id}`;
    const title = d.destination
      ? (d.destination.name ?? 'Deleted destination')
      : `Organization email to ${d.member?.email ?? 'a member'}`;
    const kind = d.destination ? (d.destination.type ?? null) : 'email';
    const group = groups.get(key) ?? { key, title, kind, rows: [] };
    group.rows.push(d);
    groups.set(key, group);
  }
  return [...groups.values()];
}

function OutcomeText({ d }: { d: Delivery }) {
  if (d.outcome === 'delivered') return <>{d.delivered_at && <> at {dateTime(d.delivered_at)}</>}</>;
  if (d.outcome === 'logged') return <> {d.note ?? 'not sent'}</>;
  if (d.outcome === 'retrying')
    return (
      <>
        {' '}
        attempt {d.attempts} failed: {d.last_error ?? 'no reason given'}; next attempt {dateTime(d.next_attempt_at)}
      </>
    );
  if (d.outcome === 'failed')
    return (
      <>
        {' '}
        gave up after {plural(d.attempts, 'attempt')}: {d.last_error ?? 'no reason given'}
      </>
    );
  return null;
}

/** The incident's alerts per destination: each event it carried and how its delivery went (GET …/deliveries). */
export function IncidentDeliveries({ incidentId }: { incidentId: string }) {
  const api = useApi();
  const list = useInfiniteQuery({
    queryKey: ['incident', incidentId, 'deliveries'],
    initialPageParam: undefined as string | undefined,
    queryFn: async ({ pageParam }) =>
      unwrap(
        await api.client.GET('/api/v1/incidents/{id}/deliveries', {
          params: { path: { id: incidentId }, query: { limit: 200, ...(pageParam ? { cursor: pageParam } : {}) } },
        }),
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    refetchInterval: (query) =>
      query.state.data?.pages.some((p) => p.data.some((d) => d.status === 'pending' || d.status === 'in_flight'))
        ? UNSETTLED_REFRESH_MS
        : false,
  });
  const deliveries = list.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <section aria-labelledby="deliveries">
      <h2 id="deliveries">Deliveries</h2>
      {list.isError && <p role="alert">{list.error.message}</p>}
      {list.isPending && <p role="status">Loading…</p>}
      {list.isSuccess && deliveries.length === 0 && <p className="muted">No alert was sent for this incident.</p>}
      {byTarget(deliveries).map((g) => (
        <div key={g.key} className="delivery-target" data-destination={g.key}>
          <h3>
            {g.title}{' '}
            <span className="muted small">
              (<DestinationType type={g.kind} />)
            </span>
          </h3>
          <ol className="delivery-list">
            {g.rows.map((d) => (
              <li key={d.id} data-outcome={d.outcome} data-event={d.event.type}>
                <time dateTime={d.event.occurred_at}>{dateTime(d.event.occurred_at)}</time>{' '}
                <strong>{EVENT_LABELS[d.event.type] ?? d.event.type}</strong> <StatusBadge status={d.outcome} />
                <span className="small">
                  <OutcomeText d={d} />
                </span>
              </li>
            ))}
          </ol>
        </div>
      ))}
      {list.hasNextPage && (
        <button type="button" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
          Show more deliveries
        </button>
      )}
    </section>
  );
}
