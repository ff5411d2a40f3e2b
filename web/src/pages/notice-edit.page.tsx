import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError, unwrap } from '../api/client';
import { useAllMonitors } from '../api/monitors';
import type { components } from '../api/schema';
import { dateTime } from '../lib/format';
import { DeleteButton, EditForm, loadingOrError, SaveBar } from '../ui/edit-form';
import { idempotencyHeader, useEditPage, useExisting, useFormSave, useRemoveAndLeave } from '../ui/edit-form.hooks';
import { Field, FieldIssue, FormError } from '../ui/form';
import { MarkdownPreview, MarkdownText } from '../ui/markdown-preview';
import { MonitorPickList } from '../ui/monitor-pick-list';
import { IMPACT_LABEL, KIND_LABEL, STATUS_LABEL } from './status-page-notices.page';

type Notice = components['schemas']['StatusPageNotice'];
type Kind = Notice['kind'];
type Impact = Notice['impact'];
type Status = NonNullable<Notice['status']>;

const KINDS = Object.keys(KIND_LABEL) as Kind[];
const IMPACTS = Object.keys(IMPACT_LABEL) as Impact[];
const STATUSES = Object.keys(STATUS_LABEL) as Status[];

/** The statuses a kind may take: the incident timeline, or open / resolved. "" stands for null (open). */
function statusChoices(kind: Kind): Array<[string, string]> {
  return kind === 'incident'
    ? STATUSES.map((s) => [s, STATUS_LABEL[s]])
    : [
        ['', 'Open'],
        ['resolved', 'Resolved'],
      ];
}
const statusOf = (value: string): Status | null => (value === '' ? null : (value as Status));

/**
 * A notice of a status page (DECISIONS §18): its fields, its first update with a live preview (new notices),
 * publishing, the update timeline with a form for the next update, and the post-mortem. Every preview renders with
 * the server's own safe Markdown rules.
 */
export default function NoticeEditPage() {
  const { nid } = useParams();
  const { id: pageId, api, navigate, queryClient, writable, form } = useEditPage();
  const existing = useExisting(['status-page-notice', nid], nid, async (nid) =>
    unwrap(
      await api.client.GET('/api/v1/status-pages/{id}/notices/{nid}', {
        params: { path: { id: pageId!, nid } },
      }),
    ),
  );
  const monitors = useAllMonitors({});
  const [kind, setKind] = useState<Kind>('incident');
  const [title, setTitle] = useState('');
  const [impact, setImpact] = useState<Impact>('minor');
  const [status, setStatus] = useState('investigating');
  const [affected, setAffected] = useState<string[]>([]);
  const [filter, setFilter] = useState('');
  const [firstBody, setFirstBody] = useState('');
  useEffect(() => {
    if (existing.data) {
      setKind(existing.data.kind);
      setTitle(existing.data.title);
      setImpact(existing.data.impact);
      setStatus(existing.data.status ?? '');
      setAffected(existing.data.affected_monitor_ids);
    }
  }, [existing.data]);
  const saved = (notice: Notice) => {
    queryClient.setQueryData(['status-page-notice', notice.id], notice);
    void queryClient.invalidateQueries({ queryKey: ['status-page-notices', pageId] });
  };
  const { save, error } = useFormSave(form, {
    mutationFn: async () => {
      const fields = { kind, title, impact, status: statusOf(status), affected_monitor_ids: affected };
      const header = idempotencyHeader();
      return nid
        ? unwrap(
            await api.client.PATCH('/api/v1/status-pages/{id}/notices/{nid}', {
              params: { path: { id: pageId!, nid }, header },
              body: fields,
            }),
          )
        : unwrap(
            await api.client.POST('/api/v1/status-pages/{id}/notices', {
              params: { path: { id: pageId! }, header },
              body: { ...fields, ...(firstBody.trim() && { body: firstBody }) },
            }),
          );
    },
    onSuccess: (notice) => {
      saved(notice);
      if (!nid) void navigate(`/status-pages/${pageId}/notices/${notice.id}`, { replace: true });
    },
  });
  const publish = useMutation({
    mutationFn: async (published: boolean) =>
      unwrap(
        await api.client.PATCH('/api/v1/status-pages/{id}/notices/{nid}', {
          params: { path: { id: pageId!, nid: nid! }, header: idempotencyHeader() },
          body: { published },
        }),
      ),
    onSuccess: saved,
  });
  const remove = useRemoveAndLeave(
    async () =>
      unwrap(
        await api.client.DELETE('/api/v1/status-pages/{id}/notices/{nid}', {
          params: { path: { id: pageId!, nid: nid! } },
        }),
      ),
    { queryKey: ['status-page-notices', pageId], path: `/status-pages/${pageId}/notices` },
  );
  const waiting = loadingOrError(nid, existing);
  if (waiting) return waiting;
  const notice = existing.data;
  return (
    <>
      <p>
        <Link to={`/status-pages/${pageId}/notices`}>← Notices</Link>
      </p>
      <h1>{notice ? `Notice: ${notice.title}` : 'New notice'}</h1>
      {notice && (
        <div className="notice-state" role="status">
          <span className={`badge ${notice.published ? 'badge-up' : 'badge-paused'}`}>
            {notice.published ? 'Published' : 'Draft'}
          </span>{' '}
          {notice.published
            ? `Public since ${dateTime(notice.published_at)}.`
            : 'Shown to nobody outside the organization until published.'}
          {notice.automatic && ' Drafted by Tocsin from a monitor incident.'}
          {writable && (
            <button
              type="button"
              className={notice.published ? undefined : 'primary'}
              disabled={publish.isPending}
              onClick={() => publish.mutate(!notice.published)}
            >
              {notice.published ? 'Unpublish' : 'Publish'}
            </button>
          )}
          <FormError error={publish.error} />
        </div>
      )}
      <EditForm form={form} onSubmit={() => save.mutate()} locked={!writable}>
        <FormError
          error={save.error}
          fields={['kind', 'title', 'impact', 'status', 'affected_monitor_ids', 'body', 'incident_id']}
        />
        <Field label="Title" name="title" error={error} required>
          {({ control }) => <input {...control} required value={title} onChange={(e) => setTitle(e.target.value)} />}
        </Field>
        <div className="field-row">
          <Field label="Kind" name="kind" error={error}>
            {({ control }) => (
              <select
                {...control}
                value={kind}
                onChange={(e) => {
                  const next = e.target.value as Kind;
                  setKind(next);
                  // Keep the status one the new kind may have.
                  if (!statusChoices(next).some(([v]) => v === status))
                    setStatus(next === 'incident' ? 'investigating' : '');
                }}
              >
                {KINDS.map((k) => (
                  <option key={k} value={k}>
                    {KIND_LABEL[k]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Impact" name="impact" error={error}>
            {({ control }) => (
              <select {...control} value={impact} onChange={(e) => setImpact(e.target.value as Impact)}>
                {IMPACTS.map((i) => (
                  <option key={i} value={i}>
                    {IMPACT_LABEL[i]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Status" name="status" error={error}>
            {({ control }) => (
              <select {...control} value={status} onChange={(e) => setStatus(e.target.value)}>
                {statusChoices(kind).map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <fieldset className="field" data-field="affected_monitor_ids">
          <legend>Affected monitors ({affected.length})</legend>
          <MonitorPickList
            monitors={monitors.monitors}
            chosen={affected}
            onChange={setAffected}
            filterLabel="Filter monitors"
            filter={filter}
            onFilter={setFilter}
            invalid={Boolean(error?.issueFor('affected_monitor_ids'))}
          />
          <FieldIssue issue={error?.issueFor('affected_monitor_ids')} />
        </fieldset>
        {!nid && (
          <MarkdownField
            label="First update (Markdown)"
            name="body"
            value={firstBody}
            onChange={setFirstBody}
            error={error}
          />
        )}
        {writable && (
          <SaveBar pending={save.isPending} label={nid ? 'Save' : 'Create draft'}>
            {nid && <DeleteButton question="Delete this notice and its updates?" onConfirmed={() => remove.mutate()} />}
          </SaveBar>
        )}
      </EditForm>
      {notice && <Timeline notice={notice} pageId={pageId!} writable={writable} onSaved={saved} />}
      {notice && <Postmortem notice={notice} pageId={pageId!} writable={writable} onSaved={saved} />}
    </>
  );
}

/** A Markdown textarea beside its live preview. */
function MarkdownField(props: {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  error: ApiError | null;
  required?: boolean;
}) {
  return (
    <div className="markdown-field">
      <Field
        label={props.label}
        name={props.name}
        error={props.error}
        required={props.required}
        hint="Markdown: **bold**, *italic*, lists, links (http, https, mailto). HTML is shown as text."
      >
        {({ control }) => (
          <textarea {...control} rows={6} value={props.value} onChange={(e) => props.onChange(e.target.value)} />
        )}
      </Field>
      <MarkdownPreview source={props.value} label={`Preview of ${props.label.toLowerCase()}`} />
    </div>
  );
}

/** The updates, newest first, and the form for the next one (its status becomes the notice's). */
function Timeline({
  notice,
  pageId,
  writable,
  onSaved,
}: {
  notice: Notice;
  pageId: string;
  writable: boolean;
  onSaved: (n: Notice) => void;
}) {
  const { api } = useEditPage();
  const form = useRef<HTMLFormElement>(null);
  const [body, setBody] = useState('');
  const [status, setStatus] = useState(notice.status ?? '');
  useEffect(() => setStatus(notice.status ?? ''), [notice.status]);
  const { save, error } = useFormSave(form, {
    mutationFn: async () =>
      unwrap(
        await api.client.POST('/api/v1/status-pages/{id}/notices/{nid}/updates', {
          params: { path: { id: pageId, nid: notice.id }, header: idempotencyHeader() },
          body: { body, status: statusOf(status) },
        }),
      ),
    onSuccess: (n) => {
      setBody('');
      onSaved(n);
    },
  });
  const updates = [...notice.updates].reverse();
  return (
    <section aria-labelledby="timeline-h">
      <h2 id="timeline-h">Updates</h2>
      {updates.length === 0 ? (
        <p>No updates yet.</p>
      ) : (
        <ol className="timeline notice-updates" aria-label="Updates, newest first">
          {updates.map((u) => (
            <li key={u.id}>
              <p>
                {u.status && <strong>{STATUS_LABEL[u.status]}</strong>}{' '}
                <time dateTime={u.created_at}>{dateTime(u.created_at)}</time>
              </p>
              <MarkdownText source={u.body} />
            </li>
          ))}
        </ol>
      )}
      {writable && (
        <EditForm form={form} onSubmit={() => save.mutate()} className="add-update">
          <h3>Add an update</h3>
          <FormError error={save.error} fields={['body', 'status']} />
          <Field label="Status" name="status" error={error}>
            {({ control }) => (
              <select {...control} value={status} onChange={(e) => setStatus(e.target.value)}>
                {statusChoices(notice.kind).map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <MarkdownField label="Update (Markdown)" name="body" value={body} onChange={setBody} error={error} required />
          <p className="hint">
            {notice.published
              ? 'The page is published: the update is shown at once and sent to subscribers.'
              : 'The notice is a draft: the update is shown once the notice is published.'}
          </p>
          <SaveBar pending={save.isPending} label="Post update" />
        </EditForm>
      )}
    </section>
  );
}

/** The post-mortem: Markdown with a live preview, shown on the public page once published. */
function Postmortem({
  notice,
  pageId,
  writable,
  onSaved,
}: {
  notice: Notice;
  pageId: string;
  writable: boolean;
  onSaved: (n: Notice) => void;
}) {
  const { api } = useEditPage();
  const form = useRef<HTMLFormElement>(null);
  const [text, setText] = useState(notice.postmortem ?? '');
  const [shown, setShown] = useState(notice.postmortem_published_at !== null);
  useEffect(() => {
    setText(notice.postmortem ?? '');
    setShown(notice.postmortem_published_at !== null);
  }, [notice.postmortem, notice.postmortem_published_at]);
  const { save, error } = useFormSave(form, {
    mutationFn: async () =>
      unwrap(
        await api.client.PATCH('/api/v1/status-pages/{id}/notices/{nid}', {
          params: { path: { id: pageId, nid: notice.id }, header: idempotencyHeader() },
          body: { postmortem: text.trim() ? text : null, postmortem_published: shown },
        }),
      ),
    onSuccess: onSaved,
  });
  return (
    <section aria-labelledby="postmortem-h">
      <h2 id="postmortem-h">Postmortem</h2>
      <EditForm form={form} onSubmit={() => save.mutate()} locked={!writable}>
        <FormError error={save.error} fields={['postmortem', 'postmortem_published']} />
        <MarkdownField label="Postmortem (Markdown)" name="postmortem" value={text} onChange={setText} error={error} />
        <div className="field" data-field="postmortem_published">
          <label className="check-label">
            <input
              type="checkbox"
              name="postmortem_published"
              checked={shown}
              onChange={(e) => setShown(e.target.checked)}
            />{' '}
            Show the postmortem on the public page
          </label>
          {notice.postmortem_published_at && (
            <p className="hint">Published {dateTime(notice.postmortem_published_at)}.</p>
          )}
          <FieldIssue issue={error?.issueFor('postmortem_published')} />
        </div>
        {writable && <SaveBar pending={save.isPending} label="Save postmortem" />}
      </EditForm>
    </section>
  );
}
