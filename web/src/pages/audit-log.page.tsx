import { useInfiniteQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { unwrap } from '../api/client';
import { useApi } from '../api/context';
import { can, useSession } from '../api/session';
import { asText, dateTime, plural } from '../lib/format';

interface Filters {
  action: string;
  actor_id: string;
  from: string;
  to: string;
}

const EMPTY: Filters = { action: '', actor_id: '', from: '', to: '' };

/** The query string of the filters that are set (dates from the inputs' local midnight, `to` inclusive). */
function queryOf(f: Filters): Record<string, string> {
  const q: Record<string, string> = {};
  if (f.action.trim()) q.action = f.action.trim();
  if (f.actor_id.trim()) q.actor_id = f.actor_id.trim();
  if (f.from) q.from = new Date(`${f.from}T00:00:00`).toISOString();
  if (f.to) q.to = new Date(new Date(`${f.to}T00:00:00`).getTime() + 86_400_000).toISOString();
  return q;
}

function Changes({ changes }: { changes: Record<string, unknown[]> }) {
  const fields = Object.entries(changes);
  if (fields.length === 0) return <span className="muted">—</span>;
  return (
    <details>
      <summary>{plural(fields.length, 'field')}</summary>
      <table className="changes">
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Before</th>
            <th scope="col">After</th>
          </tr>
        </thead>
        <tbody>
          {fields.map(([field, [before, after]]) => (
            <tr key={field}>
              <td>
                <code>{field}</code>
              </td>
              <td className="small">{before === null ? '—' : asText(before)}</td>
              <td className="small">{after === null ? '—' : asText(after)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

export default function AuditLogPage() {
  const api = useApi();
  const { session } = useSession();
  const admin = can(session.role).admin;
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const query = queryOf(filters);
  const entries = useInfiniteQuery({
    queryKey: ['audit-log', query],
    enabled: admin,
    initialPageParam: undefined as string | undefined,
    queryFn: async ({ pageParam }) =>
      unwrap(
        await api.client.GET('/api/v1/audit-log', {
          params: { query: { ...query, limit: 100, ...(pageParam ? { cursor: pageParam } : {}) } },
        }),
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  if (!admin) {
    return (
      <>
        <h1>Audit log</h1>
        <p role="alert">The audit log is for the organization’s owners and admins.</p>
      </>
    );
  }
  const csv = `/api/v1/audit-log/export?${new URLSearchParams(query).toString()}`;
  const rows = entries.data?.pages.flatMap((p) => p.data) ?? [];
  const apply = (e: FormEvent) => {
    e.preventDefault();
    setFilters(draft);
  };
  const input = (key: keyof Filters, label: string, type = 'text') => (
    <label>
      {label} <input type={type} value={draft[key]} onChange={(e) => setDraft({ ...draft, [key]: e.target.value })} />
    </label>
  );
  return (
    <>
      <p className="small">
        <Link to="/settings">Settings</Link> › Audit log
      </p>
      <h1>Audit log</h1>
      <p className="muted">
        Every change made through the API, this app, the CLI or configuration, with sign-ins and key events. Secret
        values are never shown.
      </p>
      <form className="filters" onSubmit={apply} aria-label="Filter the audit log">
        {input('action', 'Action')}
        {input('actor_id', 'Actor id')}
        {input('from', 'From', 'date')}
        {input('to', 'To', 'date')}
        <button type="submit">Filter</button>
        <button
          type="button"
          className="ghost"
          onClick={() => {
            setDraft(EMPTY);
            setFilters(EMPTY);
          }}
        >
          Clear
        </button>
        <a href={csv} download="audit-log.csv">
          Download CSV
        </a>
      </form>
      {entries.isError && <p role="alert">{entries.error.message}</p>}
      {entries.data && rows.length === 0 && <p>No entries match.</p>}
      {rows.length > 0 && (
        <div className="table-wrap">
          <table aria-label="Audit log entries">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Actor</th>
                <th scope="col">Action</th>
                <th scope="col">Target</th>
                <th scope="col">Changes</th>
                <th scope="col">Address</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((e) => (
                <tr key={e.id}>
                  <td className="small">{dateTime(e.at)}</td>
                  <td>
                    <button
                      type="button"
                      className="ghost"
                      title={`Only ${e.actor.name}'s entries`}
                      onClick={() => {
                        const next = { ...filters, actor_id: e.actor.id ?? '' };
                        setDraft(next);
                        setFilters(next);
                      }}
                    >
                      {e.actor.name}
                    </button>{' '}
                    <span className="muted small">({e.actor.type})</span>
                  </td>
                  <td>
                    <code>{e.action}</code>
                  </td>
                  <td className="small">
                    {e.target.type} {e.target.id && <code>{e.target.id}</code>}
                  </td>
                  <td>
                    <Changes changes={e.changes} />
                  </td>
                  <td className="small">{e.ip ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {entries.hasNextPage && (
        <button type="button" onClick={() => void entries.fetchNextPage()} disabled={entries.isFetchingNextPage}>
          Load more
        </button>
      )}
    </>
  );
}
