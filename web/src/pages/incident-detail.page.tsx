import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { ApiError, unwrap } from '../api/client';
import { useApi } from '../api/context';
import { can, useSession } from '../api/session';
import { dateTime, duration } from '../lib/format';
import { MonitorLink } from '../ui/monitor-link';
import { StatusBadge } from '../ui/status';
import { IncidentDeliveries } from './incident-detail.deliveries';

const EVENT_LABELS: Record<string, string> = {
  opened: 'Opened',
  acknowledged: 'Acknowledged',
  resolved: 'Resolved',
  monitor_down: 'Monitor down',
  monitor_up: 'Monitor up again',
  still_down: 'Reminder: still down',
  monitor_deleted: 'Monitor deleted',
  comment: 'Comment',
  alert_held: 'Alert held (a parent is down)',
  alert_released: 'Alert sent (parents recovered)',
};

export default function IncidentDetailPage() {
  const { id } = useParams() as { id: string };
  const api = useApi();
  const queryClient = useQueryClient();
  const { session } = useSession();
  const allowed = can(session.role);
  const incident = useQuery({
    queryKey: ['incident', id],
    queryFn: async () => unwrap(await api.client.GET('/api/v1/incidents/{id}', { params: { path: { id } } })),
  });
  // A key's actions name the key (its name, for those who may list keys), never its bare id.
  const keyActor = incident.data?.timeline.some((e) => e.actor?.startsWith('key_')) ?? false;
  const keys = useQuery({
    queryKey: ['api-keys', 'names'],
    enabled: keyActor && session.role !== 'viewer',
    retry: false,
    queryFn: async () => unwrap(await api.client.GET('/api/v1/api-keys', { params: { query: { limit: 200 } } })),
  });
  const keyNames = new Map((keys.data?.data ?? []).map((k) => [k.id, k.name]));
  const actorText = (actor: string, name: string | null): string => {
    if (actor === 'auto') return 'Tocsin (automatically)';
    if (name) return name;
    if (actor.startsWith('key_')) return keyNames.has(actor) ? `API key “${keyNames.get(actor)}”` : 'an API key';
    return 'a former member';
  };
  const act = useMutation({
    mutationFn: async (action: 'acknowledge' | 'resolve') => {
      const options = { params: { path: { id }, header: { 'Idempotency-Key': crypto.randomUUID() } } };
      return unwrap(
        action === 'acknowledge'
          ? await api.client.POST('/api/v1/incidents/{id}/acknowledge', options)
          : await api.client.POST('/api/v1/incidents/{id}/resolve', options),
      );
    },
    meta: {
      toast: (i) =>
        (i as { status?: string }).status === 'resolved' ? 'Incident resolved.' : 'Incident acknowledged.',
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['incident', id] });
      void queryClient.invalidateQueries({ queryKey: ['incidents'] });
    },
  });
  if (incident.isError) {
    return (
      <>
        <h1>Incident</h1>
        <p role="alert">
          {incident.error instanceof ApiError && incident.error.status === 404
            ? 'No such incident.'
            : incident.error.message}
        </p>
      </>
    );
  }
  if (!incident.data) return <p role="status">Loading…</p>;
  const i = incident.data;
  return (
    <>
      <div className="page-head">
        <h1>
          #{i.number} {i.title}
        </h1>
        <StatusBadge status={i.status} />
        {allowed.write && i.status !== 'resolved' && (
          <div className="actions">
            {i.status === 'opened' && (
              <button
                type="button"
                className="primary"
                disabled={act.isPending}
                onClick={() => act.mutate('acknowledge')}
              >
                Acknowledge
              </button>
            )}
            <button type="button" disabled={act.isPending} onClick={() => act.mutate('resolve')}>
              Resolve
            </button>
          </div>
        )}
      </div>
      {act.error && (
        <p role="alert" className="form-error">
          {act.error.message}
        </p>
      )}
      <dl className="facts">
        <div>
          <dt>Source</dt>
          <dd>{i.source}</dd>
        </div>
        {i.monitor_id && (
          <div>
            <dt>Monitor</dt>
            <dd>
              <Link to={`/monitors/${i.monitor_id}`}>Open the monitor</Link>
            </dd>
          </div>
        )}
        <div>
          <dt>Cause</dt>
          <dd>{i.cause ?? '—'}</dd>
        </div>
        <div>
          <dt>Duration</dt>
          <dd>{duration(i.duration_seconds)}</dd>
        </div>
        {i.blocked_by && (
          <div className="blocked-by">
            <dt>Blocked by</dt>
            <dd>
              {i.blocked_by.map((id, n) => (
                <span key={id}>
                  {n > 0 && ', '}
                  <MonitorLink id={id} />
                </span>
              ))}
              {i.suppressed_by && (
                <>
                  {' '}
                  (<Link to={`/incidents/${i.suppressed_by}`}>its incident</Link>)
                </>
              )}
              <span className="muted">
                {' '}
                ·{' '}
                {i.alert_released_at
                  ? `alert sent ${dateTime(i.alert_released_at)}, the parents having recovered`
                  : i.status === 'resolved'
                    ? 'never alerted: it recovered while held'
                    : 'alert held until the parents recover'}
              </span>
            </dd>
          </div>
        )}
      </dl>
      <section aria-labelledby="timeline">
        <h2 id="timeline">Timeline</h2>
        <ol className="timeline">
          {i.timeline.map((e, n) => (
            <li key={`${e.at}-${n}`} data-type={e.type}>
              <time dateTime={e.at}>{dateTime(e.at)}</time> <strong>{EVENT_LABELS[e.type] ?? e.type}</strong>
              {e.actor && <span className="muted"> by {actorText(e.actor, e.actor_name)}</span>}
              {e.message && <p>{e.message}</p>}
            </li>
          ))}
        </ol>
      </section>
      <IncidentDeliveries incidentId={i.id} />
      {i.correlations.length > 0 && (
        <section aria-labelledby="correlations">
          <h2 id="correlations">Related: failing together</h2>
          <ul className="plain">
            {i.correlations.map((c) => (
              <li key={c.id} className="correlation" data-attribute={c.attribute}>
                <p>
                  <strong>{c.summary}</strong>
                </p>
                <p className="muted small">
                  Shared {c.attribute.replace('_', ' ')} <code>{c.value}</code> · {dateTime(c.started_at)} –{' '}
                  {dateTime(c.last_seen_at)}
                </p>
                {c.other_monitor_ids.length > 0 && (
                  <p>
                    Also affected:{' '}
                    {c.other_monitor_ids.map((id, n) => (
                      <span key={id}>
                        {n > 0 && ', '}
                        <MonitorLink id={id} />
                      </span>
                    ))}
                  </p>
                )}
              </li>
            ))}
          </ul>
          <p>
            <Link to={`/intelligence${i.monitor_id ? `?monitor_id=${encodeURIComponent(i.monitor_id)}` : ''}`}>
              Intelligence events of this monitor
            </Link>
          </p>
        </section>
      )}
    </>
  );
}
