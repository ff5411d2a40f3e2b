import { DestinationType } from '../ui/destination-type';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { unwrap } from '../api/client';
import { relativeTime } from '../lib/format';
import { nextRunAt } from '../lib/schedule.next-run';
import { browserTimeZone, inZone } from '../lib/time-zones';
import { EditForm, loadingOrError, SaveBar } from '../ui/edit-form';
import { idempotencyHeader, retryUnlessRefused, useEditPage, useExisting, useFormSave } from '../ui/edit-form.hooks';
import { Field, FieldIssue, FormError } from '../ui/form';
import { ZoneSelect } from '../ui/zone-select';
import { ScheduleOperations } from './scheduled-report.operations';
import {
  FREQUENCIES,
  REFUSED_TYPES,
  REPORT_TYPES,
  WEEKDAYS,
  type Frequency,
  type ReportType,
} from './scheduled-report.shared';

const FIELDS = [
  'report_type',
  'custom_report_id',
  'frequency',
  'day_of_week',
  'day_of_month',
  'time_of_day',
  'timezone',
  'destination_ids',
  'enabled',
];

/**
 * A schedule's form with exactly the API's fields (docs/reports.md) and the next run in the chosen zone as it is
 * edited (computed as the server does); a saved one is shown inside ScheduleOperations (Run now, Pause / Resume,
 * Delete, the latest runs with each delivery's outcome).
 */
export default function ScheduledReportEditPage() {
  const { id, api, navigate, queryClient, writable, form } = useEditPage();
  const existing = useExisting(
    ['scheduled-report', id],
    id,
    async (id) => unwrap(await api.client.GET('/api/v1/scheduled-reports/{id}', { params: { path: { id } } })),
    retryUnlessRefused,
  );
  const destinations = useQuery({
    queryKey: ['destinations'],
    queryFn: async () =>
      unwrap(await api.client.GET('/api/v1/auth/organization/webhooks', { params: { query: { limit: 200 } } })),
  });
  const customs = useQuery({
    queryKey: ['custom-reports'],
    queryFn: async () => unwrap(await api.client.GET('/api/v1/custom-reports', { params: { query: { limit: 200 } } })),
  });

  const [reportType, setReportType] = useState<ReportType>('availability');
  const [customReportId, setCustomReportId] = useState('');
  const [frequency, setFrequency] = useState<Frequency>('weekly');
  const [dayOfWeek, setDayOfWeek] = useState(1);
  const [dayOfMonth, setDayOfMonth] = useState('1');
  const [timeOfDay, setTimeOfDay] = useState('08:00');
  const [timezone, setTimezone] = useState(browserTimeZone);
  const [destinationIds, setDestinationIds] = useState<string[]>([]);
  const [enabled, setEnabled] = useState(true);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    const s = existing.data;
    if (!s) return;
    setReportType(s.report_type);
    setCustomReportId(s.custom_report_id ?? '');
    setFrequency(s.frequency);
    setDayOfWeek(s.day_of_week ?? 1);
    setDayOfMonth(String(s.day_of_month ?? 1));
    setTimeOfDay(s.time_of_day);
    setTimezone(s.timezone);
    setDestinationIds(s.destination_ids);
    setEnabled(s.enabled);
  }, [existing.data]);

  const weekly = frequency === 'weekly';
  const monthly = frequency === 'monthly' || frequency === 'quarterly';
  const dom = /^\d+$/.test(dayOfMonth) ? Number(dayOfMonth) : null;
  // Recomputed on every change, from now, as the server will when the schedule is saved.
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  const preview = useMemo(
    () =>
      nextRunAt(
        {
          frequency,
          day_of_week: weekly ? dayOfWeek : null,
          day_of_month: monthly ? dom : null,
          time_of_day: timeOfDay,
          timezone,
        },
        now,
      ),
    [frequency, weekly, monthly, dayOfWeek, dom, timeOfDay, timezone, now],
  );

  const { save, error } = useFormSave(form, {
    // The page says "Saved." beside its button itself: no second note.
    meta: { toast: undefined },
    mutationFn: async () => {
      const header = idempotencyHeader();
      const common = {
        report_type: reportType,
        frequency,
        time_of_day: timeOfDay,
        timezone,
        destination_ids: destinationIds,
        enabled,
      };
      // An empty or broken day goes as 0, for the API to refuse next to the field (1 to 28).
      const dayOfMonthValue = dom ?? 0;
      if (id) {
        const body = {
          ...common,
          custom_report_id: reportType === 'custom' ? customReportId : null,
          day_of_week: weekly ? dayOfWeek : null,
          day_of_month: monthly ? dayOfMonthValue : null,
        };
        return unwrap(
          await api.client.PATCH('/api/v1/scheduled-reports/{id}', { params: { path: { id }, header }, body }),
        );
      }
      const body = {
        ...common,
        ...(reportType === 'custom' && { custom_report_id: customReportId }),
        ...(weekly && { day_of_week: dayOfWeek }),
        ...(monthly && { day_of_month: dayOfMonthValue }),
      };
      return unwrap(await api.client.POST('/api/v1/scheduled-reports', { params: { header }, body }));
    },
    onSuccess: (s) => {
      void queryClient.invalidateQueries({ queryKey: ['scheduled-reports'] });
      queryClient.setQueryData(['scheduled-report', s.id], s);
      setSaved(Boolean(id));
      if (!id) void navigate(`/scheduled-reports/${s.id}`, { replace: true });
    },
  });

  const notReady = loadingOrError(id, existing);
  if (notReady) return notReady;
  const s = existing.data;
  const destinationsIssue = error?.issueFor('destination_ids');
  const addresses = new Map(
    (destinations.data?.data ?? []).flatMap((d) =>
      typeof d.config.address === 'string' ? [[d.id, d.config.address] as const] : [],
    ),
  );
  const formElement = (
    <EditForm form={form} onSubmit={() => save.mutate()} locked={!writable} noValidate>
      {!writable && <p className="notice">Viewers can read schedules but not change them.</p>}
      <FormError
        error={save.error}
        fields={[
          ...FIELDS,
          ...(error?.details ?? []).map((d) => d.field).filter((f) => f.startsWith('destination_ids[')),
        ]}
      />
      <div className="row">
        <Field label="Report" name="report_type" error={error} required>
          {({ control }) => (
            <select {...control} value={reportType} onChange={(e) => setReportType(e.target.value as ReportType)}>
              {REPORT_TYPES.map(([t, label]) => (
                <option key={t} value={t}>
                  {label}
                </option>
              ))}
            </select>
          )}
        </Field>
        {reportType === 'custom' && (
          <Field label="Custom report" name="custom_report_id" error={error} required hint="Over its own period.">
            {({ control }) => (
              <select
                {...control}
                // Drawn again once the reports arrive: a select keeps no value its options did not have yet.
                key={customs.data ? 'loaded' : 'loading'}
                value={customReportId}
                onChange={(e) => setCustomReportId(e.target.value)}
              >
                <option value="">Choose…</option>
                {(customs.data?.data ?? []).map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
        )}
      </div>
      <div className="row">
        <Field label="Frequency" name="frequency" error={error} required>
          {({ control }) => (
            <select {...control} value={frequency} onChange={(e) => setFrequency(e.target.value as Frequency)}>
              {FREQUENCIES.map(([f, label]) => (
                <option key={f} value={f}>
                  {label}
                </option>
              ))}
            </select>
          )}
        </Field>
        {weekly && (
          <Field label="Day of the week" name="day_of_week" error={error} required>
            {({ control }) => (
              <select {...control} value={dayOfWeek} onChange={(e) => setDayOfWeek(Number(e.target.value))}>
                {WEEKDAYS.map((d, n) => (
                  <option key={d} value={n}>
                    {d}
                  </option>
                ))}
              </select>
            )}
          </Field>
        )}
        {monthly && (
          <Field label="Day of the month" name="day_of_month" error={error} required hint="1 to 28.">
            {({ control }) => (
              <input
                {...control}
                type="number"
                min={1}
                max={28}
                value={dayOfMonth}
                onChange={(e) => setDayOfMonth(e.target.value)}
              />
            )}
          </Field>
        )}
        <Field label="Time of day" name="time_of_day" error={error} required hint="Local to the time zone.">
          {({ control }) => (
            <input {...control} type="time" value={timeOfDay} onChange={(e) => setTimeOfDay(e.target.value)} />
          )}
        </Field>
        <Field label="Time zone" name="timezone" error={error} required>
          {({ control }) => <ZoneSelect control={control} value={timezone} onChange={setTimezone} />}
        </Field>
      </div>
      <p className="next-run" role="status" aria-live="polite">
        <strong>Next run: </strong>
        <span data-testid="next-run-preview">
          {preview === null
            ? 'choose a day and a time'
            : `${inZone(preview, timezone)} (${timezone}), ${relativeTime(new Date(preview).toISOString(), now)}`}
        </span>
        {s && !enabled && <span className="muted"> — while paused, nothing runs</span>}
      </p>
      <fieldset className={`field${destinationsIssue ? ' field-invalid' : ''}`} data-field="destination_ids">
        <legend>
          Destinations ({destinationIds.length})
          <span className="required" aria-hidden="true">
            {' '}
            *
          </span>
        </legend>
        {destinations.isError && <p role="alert">{destinations.error.message}</p>}
        {destinations.data?.data.length === 0 && (
          <p className="muted">
            No destinations yet: <Link to="/destinations/new">add one</Link>.
          </p>
        )}
        <div className="pick-list">
          {(destinations.data?.data ?? []).map((d) => {
            const refused = REFUSED_TYPES.has(d.type);
            const address = typeof d.config.address === 'string' ? d.config.address : null;
            return (
              <label key={d.id} className="check-label">
                <input
                  type="checkbox"
                  disabled={refused && !destinationIds.includes(d.id)}
                  checked={destinationIds.includes(d.id)}
                  aria-invalid={Boolean(destinationsIssue)}
                  onChange={(e) =>
                    setDestinationIds(
                      e.target.checked ? [...destinationIds, d.id] : destinationIds.filter((x) => x !== d.id),
                    )
                  }
                />{' '}
                {d.name}{' '}
                <span className="muted small">
                  <DestinationType type={d.type} />
                  {address && ` · ${address}`}
                  {refused && ' · not for reports (pagers and incident tools get alerts only)'}
                </span>
              </label>
            );
          })}
        </div>
        <FieldIssue issue={destinationsIssue} />
      </fieldset>
      <label className="check-label">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Enabled (clear to
        pause without deleting)
      </label>
      {writable && (
        <SaveBar pending={save.isPending} label={id ? 'Save' : 'Create schedule'}>
          {saved && save.isSuccess && <span role="status">Saved.</span>}
        </SaveBar>
      )}
    </EditForm>
  );
  if (!s)
    return (
      <>
        <h1>New scheduled report</h1>
        {formElement}
      </>
    );
  return (
    <ScheduleOperations schedule={s} writable={writable} addresses={addresses} onEnabled={setEnabled}>
      {formElement}
    </ScheduleOperations>
  );
}
