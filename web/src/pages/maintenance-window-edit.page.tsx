import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { ApiError, unwrap } from '../api/client';
import { useAllMonitors } from '../api/monitors';
import { dateTime } from '../lib/format';
import { browserTimeZone } from '../lib/time-zones';
import { fromZonedInput, toZonedInput } from '../lib/zoned-time';
import { DeleteButton, EditForm, SaveBar } from '../ui/edit-form';
import { idempotencyHeader, useEditPage, useExisting, useFormSave, useRemoveAndLeave } from '../ui/edit-form.hooks';
import { Field, FieldIssue, FormError } from '../ui/form';
import { MonitorPickList } from '../ui/monitor-pick-list';
import { ZoneSelect } from '../ui/zone-select';

const FIELDS = [
  'name',
  'description',
  'monitor_ids',
  'tags',
  'schedule.type',
  'schedule.starts_at',
  'schedule.ends_at',
  'schedule.rrule',
  'schedule.start_time',
  'schedule.duration_minutes',
  'schedule.start_date',
  'timezone',
  'announce_minutes_before',
];

const tagsOf = (text: string) =>
  text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);

/**
 * Editor of one maintenance window (the API's fields), with a preview of the monitors it covers before saving and,
 * while an occurrence is in progress, a button that ends it now.
 */
export default function MaintenanceWindowEditPage() {
  const { id, api, navigate, queryClient, session, writable, form } = useEditPage();
  const existing = useExisting(
    ['maintenance-window', id],
    id,
    async (id) => unwrap(await api.client.GET('/api/v1/maintenance-windows/{id}', { params: { path: { id } } })),
    false,
  );
  const monitors = useAllMonitors({});
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [kind, setKind] = useState<'once' | 'recurring'>('once');
  const [timezone, setTimezone] = useState(browserTimeZone());
  const [startsAt, setStartsAt] = useState('');
  const [endsAt, setEndsAt] = useState('');
  const [rrule, setRrule] = useState('FREQ=WEEKLY;BYDAY=SU');
  const [startTime, setStartTime] = useState('03:00');
  const [duration, setDuration] = useState('60');
  const [tags, setTags] = useState('');
  const [monitorIds, setMonitorIds] = useState<string[]>([]);
  const [filter, setFilter] = useState('');
  const [suppress, setSuppress] = useState(true);
  const [exclude, setExclude] = useState(true);
  const [announce, setAnnounce] = useState('0');
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    const w = existing.data;
    if (!w) return;
    setName(w.name);
    setDescription(w.description ?? '');
    setTimezone(w.timezone);
    setKind(w.schedule.type);
    if (w.schedule.type === 'once') {
      setStartsAt(toZonedInput(w.schedule.starts_at, w.timezone));
      setEndsAt(toZonedInput(w.schedule.ends_at, w.timezone));
    } else {
      setRrule(w.schedule.rrule);
      setStartTime(w.schedule.start_time);
      setDuration(String(w.schedule.duration_minutes));
    }
    setTags(w.tags.join(', '));
    setMonitorIds(w.monitor_ids);
    setSuppress(w.suppress_alerts);
    setExclude(w.exclude_from_sla);
    setAnnounce(String(w.announce_minutes_before));
  }, [existing.data]);
  const schedule = () =>
    kind === 'once'
      ? {
          type: 'once' as const,
          // An empty or impossible local time goes as typed: the API names the field.
          starts_at: fromZonedInput(startsAt, timezone) ?? startsAt,
          ends_at: fromZonedInput(endsAt, timezone) ?? endsAt,
        }
      : {
          type: 'recurring' as const,
          rrule,
          start_time: startTime,
          duration_minutes: duration.trim() === '' ? Number.NaN : Number(duration),
        };
  const { save, error } = useFormSave(form, {
    // The page says "Saved." beside its button itself: no second note.
    meta: { toast: undefined },
    mutationFn: async () => {
      const body = {
        name,
        description: description.trim() === '' ? null : description,
        monitor_ids: monitorIds,
        tags: tagsOf(tags),
        schedule: schedule(),
        timezone,
        suppress_alerts: suppress,
        exclude_from_sla: exclude,
        announce_minutes_before: announce.trim() === '' ? Number.NaN : Number(announce),
      };
      const header = idempotencyHeader();
      return id
        ? unwrap(await api.client.PATCH('/api/v1/maintenance-windows/{id}', { params: { path: { id }, header }, body }))
        : unwrap(await api.client.POST('/api/v1/maintenance-windows', { params: { header }, body }));
    },
    onSuccess: (w) => {
      setSaved(true);
      void queryClient.invalidateQueries({ queryKey: ['maintenance-windows'] });
      queryClient.setQueryData(['maintenance-window', w.id], w);
      if (!id) void navigate(`/maintenance-windows/${w.id}`, { replace: true });
    },
    onMutate: () => setSaved(false),
  });
  const preview = useMutation({
    mutationFn: async () =>
      unwrap(
        await api.client.POST('/api/v1/maintenance-windows/preview', {
          body: { monitor_ids: monitorIds, tags: tagsOf(tags) },
        }),
      ),
  });
  const end = useMutation({
    mutationFn: async () =>
      unwrap(await api.client.POST('/api/v1/maintenance-windows/{id}/end', { params: { path: { id: id! } } })),
    onSuccess: (w) => {
      queryClient.setQueryData(['maintenance-window', w.id], w);
      void queryClient.invalidateQueries({ queryKey: ['maintenance-windows'] });
    },
  });
  const remove = useRemoveAndLeave(
    async () => unwrap(await api.client.DELETE('/api/v1/maintenance-windows/{id}', { params: { path: { id: id! } } })),
    { queryKey: ['maintenance-windows'], path: '/maintenance-windows' },
  );
  const loadError = existing.error instanceof ApiError ? existing.error : null;
  if (!id && !writable) {
    return (
      <>
        <h1>New maintenance window</h1>
        <p role="alert">Your role ({session.role}) can look at maintenance windows but not create them.</p>
      </>
    );
  }
  if (loadError) {
    return (
      <>
        <h1>Maintenance window</h1>
        <p role="alert">{loadError.status === 404 ? 'No such maintenance window.' : loadError.message}</p>
      </>
    );
  }
  if (id && !existing.data) return <p role="status">Loading…</p>;
  const w = existing.data;
  const monitorIssue = error?.issueFor('monitor_ids');
  return (
    <>
      <p className="breadcrumb">
        <Link to="/maintenance-windows">Maintenance windows</Link> /
      </p>
      <h1>{id ? `Maintenance window: ${w?.name ?? ''}` : 'New maintenance window'}</h1>
      {w && (
        <p className="muted" data-testid="occurrence">
          {w.active ? 'In progress' : 'Next'}:{' '}
          {w.next_start_at && w.next_end_at
            ? `${dateTime(w.next_start_at)} – ${dateTime(w.next_end_at)}`
            : 'none ahead'}
          {w.active && writable && (
            <>
              {' '}
              <button type="button" disabled={end.isPending} onClick={() => end.mutate()}>
                End now
              </button>
            </>
          )}
        </p>
      )}
      {end.error && <p role="alert">{end.error.message}</p>}
      <div className="two-columns">
        <EditForm form={form} onSubmit={() => save.mutate()} locked={!writable}>
          {!writable && <p className="notice">Your role ({session.role}) can look at this window but not change it.</p>}
          <FormError error={save.error} fields={FIELDS} />
          {saved && !save.isPending && (
            <p className="notice" role="status">
              Saved.
            </p>
          )}
          <Field label="Name" name="name" error={error} required>
            {({ control }) => (
              <input {...control} required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
            )}
          </Field>
          <Field label="Description" name="description" error={error} hint="Shown on status pages that announce it.">
            {({ control }) => (
              <textarea
                {...control}
                maxLength={2000}
                value={description}
                onChange={(e) => setDescription(e.target.value)}
              />
            )}
          </Field>
          <Field label="Repeats" name="schedule.type" error={error}>
            {({ control }) => (
              <select {...control} value={kind} onChange={(e) => setKind(e.target.value as 'once' | 'recurring')}>
                <option value="once">Once</option>
                <option value="recurring">On a schedule (RRULE)</option>
              </select>
            )}
          </Field>
          <Field
            label="Time zone"
            name="timezone"
            error={error}
            hint="Local times below are in this zone, right across DST."
          >
            {({ control }) => <ZoneSelect control={control} value={timezone} onChange={setTimezone} />}
          </Field>
          {kind === 'once' ? (
            <>
              <Field label="Starts" name="schedule.starts_at" error={error} required>
                {({ control }) => (
                  <input
                    {...control}
                    type="datetime-local"
                    value={startsAt}
                    onChange={(e) => setStartsAt(e.target.value)}
                  />
                )}
              </Field>
              <Field label="Ends" name="schedule.ends_at" error={error} required>
                {({ control }) => (
                  <input
                    {...control}
                    type="datetime-local"
                    value={endsAt}
                    onChange={(e) => setEndsAt(e.target.value)}
                  />
                )}
              </Field>
            </>
          ) : (
            <>
              <Field
                label="Rule (RRULE)"
                name="schedule.rrule"
                error={error}
                required
                hint="FREQ=DAILY|WEEKLY|MONTHLY with INTERVAL, BYDAY, BYMONTHDAY, COUNT or UNTIL, e.g. FREQ=MONTHLY;BYDAY=-1FR."
              >
                {({ control }) => <input {...control} value={rrule} onChange={(e) => setRrule(e.target.value)} />}
              </Field>
              <Field label="Start time (HH:MM, local)" name="schedule.start_time" error={error} required>
                {({ control }) => (
                  <input {...control} value={startTime} onChange={(e) => setStartTime(e.target.value)} />
                )}
              </Field>
              <Field label="Duration (minutes)" name="schedule.duration_minutes" error={error} required>
                {({ control }) => (
                  <input
                    {...control}
                    inputMode="numeric"
                    value={duration}
                    onChange={(e) => setDuration(e.target.value)}
                  />
                )}
              </Field>
            </>
          )}
          <Field
            label="Tags"
            name="tags"
            error={error}
            hint="Comma-separated: monitors with any of these tags are covered, also ones tagged later."
          >
            {({ control }) => <input {...control} value={tags} onChange={(e) => setTags(e.target.value)} />}
          </Field>
          <fieldset className={`field${monitorIssue ? ' field-invalid' : ''}`} data-field="monitor_ids">
            <legend>Monitors ({monitorIds.length})</legend>
            <MonitorPickList
              monitors={monitors.monitors}
              chosen={monitorIds}
              onChange={setMonitorIds}
              filterLabel="Find a monitor"
              filter={filter}
              onFilter={setFilter}
              invalid={Boolean(monitorIssue)}
            />
            <FieldIssue issue={monitorIssue} />
          </fieldset>
          <label className="check-label">
            <input type="checkbox" checked={suppress} onChange={(e) => setSuppress(e.target.checked)} /> Hold alerts and
            incidents inside the window
          </label>
          <label className="check-label">
            <input type="checkbox" checked={exclude} onChange={(e) => setExclude(e.target.checked)} /> Leave the time
            out of uptime and SLAs
          </label>
          <Field
            label="Announce on status pages (minutes before)"
            name="announce_minutes_before"
            error={error}
            hint="0: only while in progress."
          >
            {({ control }) => (
              <input {...control} inputMode="numeric" value={announce} onChange={(e) => setAnnounce(e.target.value)} />
            )}
          </Field>
          {writable && (
            <SaveBar pending={save.isPending} label={id ? 'Save' : 'Create maintenance window'}>
              {id && (
                <DeleteButton
                  question="Delete this maintenance window? Reports then count its past time as usual."
                  onConfirmed={() => remove.mutate()}
                  disabled={remove.isPending}
                />
              )}
            </SaveBar>
          )}
          {remove.error && (
            <p role="alert" className="form-error">
              {remove.error.message}
            </p>
          )}
        </EditForm>
        <section aria-labelledby="preview-h">
          <h2 id="preview-h">Covered monitors</h2>
          <p className="muted">Which monitors this window covers now, by the monitors and tags chosen.</p>
          <button type="button" onClick={() => preview.mutate()} disabled={preview.isPending}>
            Preview
          </button>
          {preview.error && <p role="alert">{preview.error.message}</p>}
          {preview.data && (
            <ul data-testid="preview">
              {preview.data.monitors.length === 0 && <li>No monitor.</li>}
              {preview.data.monitors.map((m) => (
                <li key={m.id}>
                  <Link to={`/monitors/${m.id}`}>{m.name}</Link>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </>
  );
}
