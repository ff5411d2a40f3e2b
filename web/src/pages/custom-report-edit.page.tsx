import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { unwrap, type ApiError } from '../api/client';
import { useAllMonitors } from '../api/monitors';
import { browserTimeZone } from '../lib/time-zones';
import { EditForm, loadingOrError, SaveBar } from '../ui/edit-form';
import { idempotencyHeader, retryUnlessRefused, useEditPage, useExisting, useFormSave } from '../ui/edit-form.hooks';
import { Field, FieldIssue, FormError } from '../ui/form';
import { ZoneSelect } from '../ui/zone-select';
import { bodyOf, draftOf, newDraft, type WidgetDraft } from './custom-report-edit.drafts';
import { WidgetsEditor } from './custom-report-edit.widgets';
import {
  canEditReport,
  PERIOD_PRESETS,
  useMembers,
  VISIBILITY_LABELS,
  type CustomReport,
  type Visibility,
} from './custom-report.shared';

type Preset = (typeof PERIOD_PRESETS)[number][0];
const FIELDS = ['name', 'period', 'timezone', 'widgets', 'visibility', 'shared_with_user_ids'];

/** The detail fields drawn next to a widget or a member (so the message above the form does not repeat them). */
function placedHere(error: ApiError | null): string[] {
  return (error?.details ?? [])
    .map((d) => d.field)
    .filter(
      (f) => /^widgets\[\d+\]\.(kind|title|monitor_ids|tags|options)/.test(f) || f.startsWith('shared_with_user_ids['),
    );
}

/** An instant as the value of a datetime-local input, in the browser's zone. */
function localInput(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
const instant = (local: string) => (local ? new Date(local).toISOString() : '');

/** The builder of a custom report: name, period and zone, widgets in order, who sees it. */
export default function CustomReportEditPage() {
  const { id, api, navigate, queryClient, session, writable, form } = useEditPage();
  const existing = useExisting(
    ['custom-report', id],
    id,
    async (id) => unwrap(await api.client.GET('/api/v1/custom-reports/{id}', { params: { path: { id } } })),
    retryUnlessRefused,
  );
  const monitors = useAllMonitors({});
  const members = useMembers();
  const slaTargets = useQuery({
    queryKey: ['sla-targets'],
    queryFn: async () => unwrap(await api.client.GET('/api/v1/sla-targets', { params: { query: { limit: 200 } } })),
  });
  const [name, setName] = useState('');
  const [periodKind, setPeriodKind] = useState<Preset | 'range'>('last_7_days');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [timezone, setTimezone] = useState(browserTimeZone);
  const [widgets, setWidgets] = useState<WidgetDraft[]>(() => [newDraft('availability', [])]);
  const [visibility, setVisibility] = useState<Visibility>('private');
  const [sharedWith, setSharedWith] = useState<string[]>([]);
  useEffect(() => {
    const r = existing.data;
    if (!r) return;
    setName(r.name);
    if (typeof r.period === 'string') setPeriodKind(r.period as Preset);
    else {
      setPeriodKind('range');
      setFrom(localInput(r.period.from));
      setTo(localInput(r.period.to));
    }
    setTimezone(r.timezone);
    setWidgets(r.widgets.map(draftOf));
    setVisibility(r.visibility);
    setSharedWith(r.shared_with_user_ids);
  }, [existing.data]);
  const { save, error } = useFormSave(form, {
    mutationFn: async () => {
      const body = {
        name,
        period: periodKind === 'range' ? { from: instant(from), to: instant(to) } : periodKind,
        timezone,
        widgets: widgets.map(bodyOf),
        visibility,
        ...(visibility === 'shared' && { shared_with_user_ids: sharedWith }),
      } satisfies Partial<CustomReport>;
      const header = idempotencyHeader();
      return id
        ? unwrap(await api.client.PATCH('/api/v1/custom-reports/{id}', { params: { path: { id }, header }, body }))
        : unwrap(await api.client.POST('/api/v1/custom-reports', { params: { header }, body }));
    },
    onSuccess: (report) => {
      void queryClient.invalidateQueries({ queryKey: ['custom-reports'] });
      queryClient.setQueryData(['custom-report', report.id], report);
      void queryClient.invalidateQueries({ queryKey: ['custom-report', report.id, 'render'] });
      void navigate(`/custom-reports/${report.id}`);
    },
  });
  const notReady = loadingOrError(id, existing);
  if (notReady) return notReady;
  const editable = existing.data ? canEditReport(existing.data, session) : writable;
  const others = (members.data ?? []).filter((m) => m.user_id !== (existing.data?.owner_id ?? session.user.id));
  const periodIssue = error?.details.find((d) => d.field === 'period')?.issue;
  return (
    <>
      <h1>{id ? `Edit: ${existing.data?.name ?? ''}` : 'New custom report'}</h1>
      {!editable && (
        <p className="notice">
          {writable
            ? 'Only the report’s owner, or an owner or admin of the organization, can change it.'
            : 'Viewers can read reports but not change them.'}
        </p>
      )}
      <EditForm form={form} onSubmit={() => save.mutate()} locked={!editable} className="custom-report-form" noValidate>
        <FormError error={save.error} fields={[...FIELDS, ...placedHere(error)]} />
        <Field label="Name" name="name" error={error} required>
          {({ control }) => (
            <input {...control} required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
          )}
        </Field>
        <div className="row">
          <Field label="Period" name="period" error={periodIssue ? error : null}>
            {({ control }) => (
              <select
                {...control}
                value={periodKind}
                onChange={(e) => setPeriodKind(e.target.value as Preset | 'range')}
              >
                {PERIOD_PRESETS.map(([p, label]) => (
                  <option key={p} value={p}>
                    {label}
                  </option>
                ))}
                <option value="range">Fixed range…</option>
              </select>
            )}
          </Field>
          <Field label="Time zone" name="timezone" error={error} hint="Days and calendar periods are counted in it.">
            {({ control }) => <ZoneSelect control={control} value={timezone} onChange={setTimezone} />}
          </Field>
        </div>
        {periodKind === 'range' && (
          <div className="row">
            <Field label="From (your local time)" name="period.from" error={error} required>
              {({ control }) => (
                <input {...control} type="datetime-local" value={from} onChange={(e) => setFrom(e.target.value)} />
              )}
            </Field>
            <Field label="To (your local time)" name="period.to" error={error} required hint="At most 400 days.">
              {({ control }) => (
                <input {...control} type="datetime-local" value={to} onChange={(e) => setTo(e.target.value)} />
              )}
            </Field>
          </div>
        )}
        <WidgetsEditor
          widgets={widgets}
          onChange={setWidgets}
          monitors={monitors.monitors}
          slaTargets={slaTargets.data?.data ?? []}
          error={error}
        />
        <fieldset className="field" data-field="visibility">
          <legend>Who sees it</legend>
          {(['private', 'organization', 'shared'] as const).map((v) => (
            <label key={v} className="check-label">
              <input
                type="radio"
                name="visibility"
                value={v}
                checked={visibility === v}
                onChange={() => setVisibility(v)}
              />{' '}
              {VISIBILITY_LABELS[v]}
              <span className="muted small">
                {' '}
                —{' '}
                {v === 'private'
                  ? 'the owner only (not admins either), and so are its scheduled reports'
                  : v === 'organization'
                    ? 'every member of the organization'
                    : 'the owner and the members chosen below'}
              </span>
            </label>
          ))}
          <FieldIssue issue={error?.issueFor('visibility')} />
        </fieldset>
        {visibility === 'shared' && (
          <fieldset
            className={`field${error?.issueFor('shared_with_user_ids') ? ' field-invalid' : ''}`}
            data-field="shared_with_user_ids"
          >
            <legend>Shared with ({sharedWith.length})</legend>
            {members.isError && <p role="alert">{members.error.message}</p>}
            {others.length === 0 && members.isSuccess && (
              <p className="muted">
                No other members yet: <Link to="/members">invite someone</Link>.
              </p>
            )}
            <div className="pick-list">
              {others.map((m) => (
                <label key={m.user_id} className="check-label">
                  <input
                    type="checkbox"
                    checked={sharedWith.includes(m.user_id)}
                    onChange={(e) =>
                      setSharedWith(
                        e.target.checked ? [...sharedWith, m.user_id] : sharedWith.filter((u) => u !== m.user_id),
                      )
                    }
                  />{' '}
                  {m.name ?? m.email} <span className="muted small">{m.email}</span>
                </label>
              ))}
            </div>
            <FieldIssue issue={error?.issueFor('shared_with_user_ids')} />
          </fieldset>
        )}
        {editable && (
          <SaveBar pending={save.isPending} label={id ? 'Save' : 'Create report'}>
            <Link className="button" to={id ? `/custom-reports/${id}` : '/custom-reports'}>
              Cancel
            </Link>
          </SaveBar>
        )}
      </EditForm>
    </>
  );
}
