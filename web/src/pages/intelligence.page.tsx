import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ApiError, unwrap } from '../api/client';
import { useApi } from '../api/context';
import { useAllMonitors } from '../api/monitors';
import { monitorLabels } from '../lib/monitor-label';
import { dateTime, plural } from '../lib/format';
import {
  CATEGORY_LABELS,
  EventItem,
  groupByDay,
  KIND_LABELS,
  type IntelligenceCategory,
  type IntelligenceKind,
} from '../ui/intelligence-events';
import { SecurityGrades } from '../ui/security-grades';

const CATEGORIES = Object.keys(CATEGORY_LABELS) as IntelligenceCategory[];
const KINDS = Object.keys(KIND_LABELS) as IntelligenceKind[];

/**
 * The organization's intelligence events as a timeline (newest first, by day), filtered by category, kind and
 * monitor in the URL; for one monitor also its security grades; and the correlations of the last 24 hours.
 */
export default function IntelligencePage() {
  const api = useApi();
  const [params, setParams] = useSearchParams();
  const category = CATEGORIES.find((c) => c === params.get('category'));
  const kind = KINDS.find((k) => k === params.get('kind'));
  const monitorId = params.get('monitor_id') || undefined;
  const set = (name: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  };
  const { monitors } = useAllMonitors({});
  const labels = monitorLabels(monitors);
  const names = useMemo(() => new Map(monitors.map((m) => [m.id, m.name])), [monitors]);
  const events = useInfiniteQuery({
    queryKey: ['intelligence', 'events', category, kind, monitorId],
    initialPageParam: undefined as string | undefined,
    queryFn: async ({ pageParam }) =>
      unwrap(
        await api.client.GET('/api/v1/intelligence/events', {
          params: {
            query: {
              limit: 50,
              ...(category && { category }),
              ...(kind && { kind }),
              ...(monitorId && { monitor_id: monitorId }),
              ...(pageParam && { cursor: pageParam }),
            },
          },
        }),
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    // Events are not on the live stream; a minute-old timeline is current enough for changes and anomalies.
    refetchInterval: 60_000,
  });
  const correlations = useQuery({
    queryKey: ['intelligence', 'correlations'],
    queryFn: async () => unwrap(await api.client.GET('/api/v1/intelligence/correlations', {})),
    refetchInterval: 60_000,
  });
  const list = events.data?.pages.flatMap((p) => p.data) ?? [];
  const groups = groupByDay(list);
  const monitorName = monitorId ? (names.get(monitorId) ?? monitorId) : undefined;
  const shownCorrelations = (correlations.data?.data ?? []).filter(
    (c) => !monitorId || c.monitor_ids.includes(monitorId),
  );
  return (
    <>
      <h1>{monitorName ? `Intelligence: ${monitorName}` : 'Intelligence'}</h1>
      <p className="muted">
        What the checks reveal beyond up and down: changes (DNS, certificates, headers, content, infrastructure),
        latency anomalies, slow periods, flapping and security grades.
      </p>
      <form className="filters" role="search" aria-label="Filter events" onSubmit={(e) => e.preventDefault()}>
        <label>
          Category
          <select value={category ?? ''} onChange={(e) => set('category', e.target.value)}>
            <option value="">Any</option>
            {CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {CATEGORY_LABELS[c]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Kind
          <select value={kind ?? ''} onChange={(e) => set('kind', e.target.value)}>
            <option value="">Any</option>
            {KINDS.map((k) => (
              <option key={k} value={k}>
                {KIND_LABELS[k]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Monitor
          <select value={monitorId ?? ''} onChange={(e) => set('monitor_id', e.target.value)}>
            <option value="">Any</option>
            {monitorId && !names.has(monitorId) && <option value={monitorId}>{monitorId}</option>}
            {monitors.map((m) => (
              <option key={m.id} value={m.id}>
                {labels.get(m.id) ?? m.name}
              </option>
            ))}
          </select>
        </label>
      </form>
      {monitorId && (
        <>
          <p>
            <Link to={`/monitors/${monitorId}`}>Open the monitor</Link>
          </p>
          <SecurityGrades monitorId={monitorId} />
        </>
      )}
      <section aria-labelledby="events-heading">
        <h2 id="events-heading">Events</h2>
        <p className="muted" role="status" aria-live="polite">
          {events.isPending
            ? 'Loading events…'
            : `${plural(list.length, 'event')}${events.hasNextPage ? ' so far' : ''}`}
        </p>
        {events.isError && (
          <p role="alert" className="form-error">
            {events.error instanceof ApiError && events.error.status === 404
              ? 'No such monitor.'
              : events.error.message}
          </p>
        )}
        {!events.isPending && list.length === 0 && !events.isError && (
          <p>
            No events{category || kind || monitorId ? ' match these filters' : ' yet'}. Latency baselines need two hours
            of checks; changes need two checks that agree.
          </p>
        )}
        {groups.map((g) => (
          <section key={g.key} aria-labelledby={`day-${g.key}`} className="intel-day">
            <h3 id={`day-${g.key}`}>{g.label}</h3>
            <ol className="timeline">
              {g.events.map((e) => (
                <EventItem
                  key={e.id}
                  event={e}
                  monitorName={names.get(e.monitor_id)}
                  showMonitor={monitorId === undefined}
                />
              ))}
            </ol>
          </section>
        ))}
        {events.hasNextPage && (
          <button type="button" disabled={events.isFetchingNextPage} onClick={() => void events.fetchNextPage()}>
            {events.isFetchingNextPage ? 'Loading more…' : 'Show older events'}
          </button>
        )}
      </section>
      <section aria-labelledby="correlations-heading">
        <h2 id="correlations-heading">Correlations (last 24 hours)</h2>
        {correlations.isError && <p role="alert">{correlations.error.message}</p>}
        {correlations.isSuccess && shownCorrelations.length === 0 && (
          <p className="muted">
            None: no monitors failed together sharing an address, CDN, DNS provider, issuer or region.
          </p>
        )}
        <ul className="plain">
          {shownCorrelations.map((c) => (
            <li key={c.id} className="correlation">
              <p>
                <strong>{c.summary}</strong>
              </p>
              <p className="muted small">
                {dateTime(c.started_at)} – {dateTime(c.last_seen_at)} · {Math.round(c.coverage * 100)} % of the monitors
                with this {c.attribute.replace('_', ' ')} ·{' '}
                {c.monitor_ids.map((id, i) => (
                  <span key={id}>
                    {i > 0 && ', '}
                    <Link to={`/monitors/${id}`}>{names.get(id) ?? id}</Link>
                  </span>
                ))}
              </p>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
