import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { unwrap } from '../api/client';
import { useApi } from '../api/context';
import { useAllMonitors } from '../api/monitors';
import { relativeTime } from '../lib/format';
import { StatusBadge } from '../ui/status';

const ORDER = ['down', 'degraded', 'pending', 'up', 'paused'] as const;

export default function OverviewPage() {
  const api = useApi();
  const monitors = useAllMonitors({});
  const open = useQuery({
    queryKey: ['incidents', 'open'],
    queryFn: async () => {
      const [opened, acknowledged] = await Promise.all([
        api.client.GET('/api/v1/incidents', { params: { query: { status: 'opened', limit: 50 } } }),
        api.client.GET('/api/v1/incidents', { params: { query: { status: 'acknowledged', limit: 50 } } }),
      ]);
      return [...unwrap(opened).data, ...unwrap(acknowledged).data];
    },
  });
  const recent = useQuery({
    queryKey: ['incidents', 'recent'],
    queryFn: async () => unwrap(await api.client.GET('/api/v1/incidents', { params: { query: { limit: 10 } } })).data,
  });
  const counts = Object.fromEntries(ORDER.map((s) => [s, monitors.monitors.filter((m) => m.status === s).length]));
  const attention = monitors.monitors
    .filter((m) => m.status === 'down' || m.status === 'degraded' || m.status === 'pending')
    .slice(0, 20);
  return (
    <>
      <h1>Overview</h1>
      <section aria-labelledby="counts" className="cards">
        <h2 id="counts" className="visually-hidden">
          Monitors by status
        </h2>
        {ORDER.map((s) => (
          <Link key={s} to={`/monitors?status=${s}`} className="card stat">
            <span className="stat-value">{monitors.isPending ? '…' : counts[s]}</span>
            <StatusBadge status={s} />
          </Link>
        ))}
      </section>
      <div className="two-columns">
        <section aria-labelledby="open-incidents">
          <h2 id="open-incidents">Open incidents</h2>
          {open.data?.length === 0 && <p>None. All quiet.</p>}
          <ul className="plain">
            {open.data?.map((i) => (
              <li key={i.id}>
                <StatusBadge status={i.status} />{' '}
                <Link to={`/incidents/${i.id}`}>
                  #{i.number} {i.title}
                </Link>{' '}
                <span className="muted">{relativeTime(i.opened_at)}</span>
              </li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="attention">
          <h2 id="attention">Needs attention</h2>
          {monitors.isSuccess && attention.length === 0 && <p>Every monitor is up or paused.</p>}
          <ul className="plain">
            {attention.map((m) => (
              <li key={m.id}>
                <StatusBadge status={m.status} /> <Link to={`/monitors/${m.id}`}>{m.name}</Link>{' '}
                <span className="muted">since {relativeTime(m.status_changed_at)}</span>
              </li>
            ))}
          </ul>
        </section>
      </div>
      <section aria-labelledby="recent">
        <h2 id="recent">Recent events</h2>
        <ul className="plain">
          {recent.data?.map((i) => (
            <li key={i.id}>
              <StatusBadge status={i.status} />{' '}
              <Link to={`/incidents/${i.id}`}>
                #{i.number} {i.title}
              </Link>{' '}
              <span className="muted">
                opened {relativeTime(i.opened_at)}
                {i.resolved_at ? `, resolved ${relativeTime(i.resolved_at)}` : ''}
              </span>
            </li>
          ))}
        </ul>
        {recent.data?.length === 0 && <p className="muted">Nothing has happened yet.</p>}
      </section>
    </>
  );
}
