import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { ApiError, unwrap } from '../api/client';
import { useApi } from '../api/context';
import { monitorLabels } from '../lib/monitor-label';
import type { components } from '../api/schema';
import { can, useSession } from '../api/session';
import { dateTime } from '../lib/format';
import { Field, FieldIssue, FormError } from '../ui/form';

type Silence = components['schemas']['Silence'];

const EVENTS = ['down', 'recovered', 'still_down', 'incident_opened', 'incident_acknowledged', 'incident_resolved'];

/** A local date-time input's value (YYYY-MM-DDTHH:MM) for an instant. */
function localInput(ms: number): string {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
}

/** Silences (DECISIONS §16): what they hold back, until when; create, end early, delete. */
export default function SilencesPage() {
  const api = useApi();
  const queryClient = useQueryClient();
  const { session } = useSession();
  const allowed = can(session.role);
  const [showEnded, setShowEnded] = useState(false);
  const silences = useQuery({
    queryKey: ['silences', showEnded],
    queryFn: async () =>
      unwrap(await api.client.GET('/api/v1/silences', { params: { query: { limit: 200, include_ended: showEnded } } })),
  });
  const monitors = useQuery({
    queryKey: ['monitors', 'names'],
    queryFn: async () => unwrap(await api.client.GET('/api/v1/monitors', { params: { query: { limit: 200 } } })),
  });
  const names = new Map((monitors.data?.data ?? []).map((m) => [m.id, m.name]));
  const change = useMutation({
    mutationFn: async ({ id, action }: { id: string; action: 'end' | 'delete' }) => {
      const params = { params: { path: { id }, header: { 'Idempotency-Key': crypto.randomUUID() } } };
      if (action === 'end') unwrap(await api.client.POST('/api/v1/silences/{id}/end', params));
      else unwrap(await api.client.DELETE('/api/v1/silences/{id}', params));
    },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['silences'] }),
  });

  const describe = (s: Silence) =>
    [
      s.matchers.monitor_ids.length > 0 &&
        `monitors: ${s.matchers.monitor_ids.map((id) => names.get(id) ?? id).join(', ')}`,
      s.matchers.tags.length > 0 && `tags: ${s.matchers.tags.join(', ')}`,
      s.matchers.events.length > 0 && `events: ${s.matchers.events.join(', ')}`,
      s.matchers.destination_ids.length > 0 && `destinations: ${s.matchers.destination_ids.length}`,
    ]
      .filter(Boolean)
      .join(' · ');

  return (
    <>
      <div className="page-head">
        <h1>Silences</h1>
      </div>
      <p className="muted">
        A silence holds back the notifications it matches until it ends. Checks go on, incidents open and count in
        reports as usual; each held notification is listed on its incident as <em>silenced</em>. To quiet one monitor
        quickly, use <strong>Mute</strong> on its page.
      </p>
      {allowed.write && <NewSilence monitors={monitors.data?.data ?? []} />}
      <h2>{showEnded ? 'All silences' : 'Active and upcoming'}</h2>
      <label className="check-label">
        <input type="checkbox" checked={showEnded} onChange={(e) => setShowEnded(e.target.checked)} /> Show ended
      </label>
      {silences.isError && <p role="alert">{silences.error.message}</p>}
      {silences.isPending && <p role="status">Loading…</p>}
      {silences.data?.data.length === 0 && <p>No silences.</p>}
      {silences.data && silences.data.data.length > 0 && (
        <div className="table-wrap">
          <table className="stack-narrow">
            <thead>
              <tr>
                <th scope="col">Matches</th>
                <th scope="col">State</th>
                <th scope="col">From</th>
                <th scope="col">Until</th>
                <th scope="col">Comment</th>
                {allowed.write && <th scope="col">Actions</th>}
              </tr>
            </thead>
            <tbody>
              {silences.data.data.map((s) => (
                <tr key={s.id}>
                  <th scope="row">
                    {s.matchers.monitor_ids.length === 1 ? (
                      <Link to={`/monitors/${s.matchers.monitor_ids[0]}`}>{describe(s)}</Link>
                    ) : (
                      describe(s)
                    )}
                  </th>
                  <td data-label="State">{s.state}</td>
                  <td data-label="From">{dateTime(s.starts_at)}</td>
                  <td data-label="Until">{dateTime(s.ends_at)}</td>
                  <td data-label="Comment">{s.comment}</td>
                  {allowed.write && (
                    <td className="actions-cell">
                      {s.state !== 'ended' && (
                        <button
                          type="button"
                          disabled={change.isPending}
                          onClick={() => change.mutate({ id: s.id, action: 'end' })}
                        >
                          End now
                        </button>
                      )}{' '}
                      <button
                        type="button"
                        disabled={change.isPending}
                        onClick={() => change.mutate({ id: s.id, action: 'delete' })}
                      >
                        Delete
                      </button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {change.error && (
        <p role="alert" className="form-error">
          {change.error.message}
        </p>
      )}
    </>
  );
}

function NewSilence({ monitors }: { monitors: Array<{ id: string; name: string; target: string }> }) {
  const labels = monitorLabels(monitors);
  const api = useApi();
  const queryClient = useQueryClient();
  const [monitorIds, setMonitorIds] = useState<string[]>([]);
  const [tags, setTags] = useState('');
  const [events, setEvents] = useState<string[]>([]);
  const [endsAt, setEndsAt] = useState(() => localInput(Date.now() + 3_600_000));
  const [comment, setComment] = useState('');
  const save = useMutation({
    mutationFn: async () => {
      const tagList = tags
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean);
      const ends = new Date(endsAt);
      return unwrap(
        await api.client.POST('/api/v1/silences', {
          params: { header: { 'Idempotency-Key': crypto.randomUUID() } },
          body: {
            matchers: {
              ...(monitorIds.length > 0 && { monitor_ids: monitorIds }),
              ...(tagList.length > 0 && { tags: tagList }),
              ...(events.length > 0 && { events }),
            },
            // An unparseable date is sent as typed: the server names the field.
            ends_at: Number.isNaN(ends.getTime()) ? endsAt : ends.toISOString(),
            comment,
          },
        }),
      );
    },
    onSuccess: () => {
      setMonitorIds([]);
      setTags('');
      setEvents([]);
      setComment('');
      void queryClient.invalidateQueries({ queryKey: ['silences'] });
    },
  });
  const error = save.error instanceof ApiError ? save.error : null;
  return (
    <form
      className="card"
      aria-label="New silence"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <h2>New silence</h2>
      <FormError error={save.error} fields={['matchers', 'ends_at', 'comment']} />
      <Field label="Monitors" name="matchers.monitor_ids" error={error} hint="Hold Ctrl/⌘ to choose several.">
        {({ control }) => (
          <select
            {...control}
            multiple
            size={Math.min(8, Math.max(3, monitors.length))}
            value={monitorIds}
            onChange={(e) => setMonitorIds([...e.target.selectedOptions].map((o) => o.value))}
          >
            {monitors.map((m) => (
              <option key={m.id} value={m.id}>
                {labels.get(m.id) ?? m.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Tags" name="matchers.tags" error={error} hint="Comma-separated; monitors with any of them.">
        {({ control }) => <input {...control} value={tags} onChange={(e) => setTags(e.target.value)} />}
      </Field>
      <fieldset className="field" data-field="matchers.events">
        <legend>Events (none = all)</legend>
        <div className="check-grid">
          {EVENTS.map((ev) => (
            <label key={ev} className="check-label">
              <input
                type="checkbox"
                checked={events.includes(ev)}
                onChange={(e) => setEvents(e.target.checked ? [...events, ev] : events.filter((x) => x !== ev))}
              />{' '}
              {ev.replace(/_/g, ' ')}
            </label>
          ))}
        </div>
        <FieldIssue issue={error?.issueFor('matchers.events')} />
      </fieldset>
      <FieldIssue issue={error?.issueFor('matchers')} />
      <Field label="Until" name="ends_at" error={error} required>
        {({ control }) => (
          <input {...control} type="datetime-local" value={endsAt} onChange={(e) => setEndsAt(e.target.value)} />
        )}
      </Field>
      <Field label="Comment" name="comment" error={error} required>
        {({ control }) => <input {...control} value={comment} onChange={(e) => setComment(e.target.value)} />}
      </Field>
      <button type="submit" className="primary" disabled={save.isPending}>
        Create silence
      </button>
    </form>
  );
}
