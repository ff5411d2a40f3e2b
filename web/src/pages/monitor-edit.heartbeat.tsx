import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ApiError, unwrap } from '../api/client';
import { useApi } from '../api/context';
import { dateTime } from '../lib/format';
import { scheduleInWords } from '../lib/heartbeat-schedule';
import { inZone } from '../lib/time-zones';
import { Field } from '../ui/form';
import { ZoneSelect } from '../ui/zone-select';
import type { ConfigDraft } from './monitor-edit.config';
import {
  configOfScheduleForm,
  durationInWords,
  SCHEDULE_UNITS,
  type ScheduleForm,
} from '../lib/heartbeat-schedule-form';
import { heartbeatFormOf } from './monitor-edit.prefill';
import './monitor-edit.heartbeat.css';

/** The value after `ms` of quiet: the preview asks the server once the user pauses typing. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

function UnitSelect(props: { label: string; value: number; onChange: (unit: number) => void }) {
  return (
    <select aria-label={props.label} value={props.value} onChange={(e) => props.onChange(Number(e.target.value))}>
      {SCHEDULE_UNITS.map(([s, name]) => (
        <option key={s} value={s}>
          {name}
        </option>
      ))}
    </select>
  );
}

/**
 * When pings are due without a schedule: every stored `interval_seconds` (a monitor made before schedules), or for a
 * new one the plan's shortest interval (what the API then gives it).
 */
function noScheduleEvery(intervalSeconds: number): string {
  return intervalSeconds > 0
    ? `every ${durationInWords(intervalSeconds)} (the monitor's interval, as before schedules)`
    : "at your plan's shortest interval";
}

/**
 * A heartbeat monitor's schedule as a form ("every N minutes" or a cron expression in a zone) and its grace, with
 * the schedule in words and the next expected pings as the server computes them (the browser has no cron code: the
 * preview is judged by the save's own rules, so an issue shows under its field before saving).
 */
export function HeartbeatScheduleFields(props: {
  draft: ConfigDraft;
  onChange: (draft: ConfigDraft) => void;
  error: ApiError | null;
  intervalSeconds: number;
}) {
  const api = useApi();
  const [form, setForm] = useState(() => heartbeatFormOf(props.draft));
  const update = (patch: Partial<ScheduleForm>) => {
    const next = { ...form, ...patch };
    setForm(next);
    const { schedule, grace } = configOfScheduleForm(next);
    props.onChange({
      ...props.draft,
      schedule: schedule === null ? null : JSON.stringify(schedule),
      grace_seconds: grace === null ? null : String(grace),
    });
  };
  const { schedule, grace } = configOfScheduleForm(form);
  const typed = JSON.stringify({ schedule, ...(grace !== null && { grace_seconds: grace }) });
  const body = useSettled(typed, 300);
  const preview = useQuery({
    queryKey: ['heartbeat-schedule-preview', body],
    enabled: schedule !== null,
    retry: false,
    queryFn: async () =>
      unwrap(
        await api.client.POST('/api/v1/monitors/heartbeat-schedule-preview', {
          // The body is the form's, possibly ill-typed (a count that is not a number): the server names the field.
          // eslint-disable-next-line @typescript-eslint/no-explicit-any -- checked by the server's schema
          body: JSON.parse(body) as any,
        }),
      ),
  });
  const previewError = schedule !== null && preview.error instanceof ApiError ? preview.error : null;
  // The preview of what is typed now judges the schedule by the save's own rules, so once it has answered its word
  // replaces a save's earlier one (fixed since); before that, the save's issue stays under its field.
  const answered = schedule !== null && body === typed && !preview.isFetching;
  const errorFor = (field: string) => (answered || !props.error?.issueFor(field) ? previewError : props.error);
  const current = preview.data && !previewError && schedule !== null;
  const zone = form.mode === 'cron' ? form.timezone : undefined;
  return (
    <fieldset className="field heartbeat-schedule" data-field="config.schedule">
      <legend>Schedule</legend>
      <div className="heartbeat-modes" role="radiogroup" aria-label="Kind of schedule">
        <label className="check-label">
          <input
            type="radio"
            name="schedule-mode"
            checked={form.mode === 'every'}
            onChange={() => update({ mode: 'every' })}
          />{' '}
          Every N seconds, minutes, hours or days
        </label>
        <label className="check-label">
          <input
            type="radio"
            name="schedule-mode"
            checked={form.mode === 'cron'}
            onChange={() => update({ mode: 'cron' })}
          />{' '}
          On a cron schedule, in a time zone
        </label>
      </div>
      {form.mode === 'every' ? (
        <Field
          label="A ping is due every"
          name="config.schedule.every_seconds"
          error={errorFor('config.schedule.every_seconds') ?? errorFor('config.schedule')}
          hint={`Empty: ${noScheduleEvery(props.intervalSeconds)}.`}
        >
          {({ control }) => (
            <div className="heartbeat-amount">
              <input
                {...control}
                inputMode="numeric"
                placeholder="e.g. 90"
                value={form.n}
                onChange={(e) => update({ n: e.target.value })}
              />
              <UnitSelect label="Unit of the period" value={form.unit} onChange={(unit) => update({ unit })} />
            </div>
          )}
        </Field>
      ) : (
        <>
          <Field
            label="Cron expression"
            name="config.schedule.cron"
            error={errorFor('config.schedule.cron') ?? errorFor('config.schedule')}
            hint="Five fields (minute hour day month weekday), e.g. 30 2 * * 1-5, or @hourly, @daily, @weekly, @monthly, @yearly."
          >
            {({ control }) => (
              <input
                {...control}
                className="heartbeat-cron"
                spellCheck={false}
                autoCapitalize="off"
                placeholder="30 2 * * *"
                value={form.cron}
                onChange={(e) => update({ cron: e.target.value })}
              />
            )}
          </Field>
          <Field label="Time zone" name="config.schedule.timezone" error={errorFor('config.schedule.timezone')}>
            {({ control }) => (
              <ZoneSelect control={control} value={form.timezone} onChange={(timezone) => update({ timezone })} />
            )}
          </Field>
        </>
      )}
      <Field
        label="Grace period"
        name="config.grace_seconds"
        error={errorFor('config.grace_seconds')}
        hint="How late a ping may be before the monitor is down. Empty: 1 minute."
      >
        {({ control }) => (
          <div className="heartbeat-amount">
            <input
              {...control}
              inputMode="numeric"
              placeholder="1"
              value={form.graceN}
              onChange={(e) => update({ graceN: e.target.value })}
            />
            <UnitSelect
              label="Unit of the grace"
              value={form.graceUnit}
              onChange={(graceUnit) => update({ graceUnit })}
            />
          </div>
        )}
      </Field>
      <div className="heartbeat-preview" aria-live="polite" data-testid="schedule-preview">
        {schedule === null ? (
          <p className="muted">No schedule: a ping is due {noScheduleEvery(props.intervalSeconds)}.</p>
        ) : current ? (
          <>
            <p>
              Expected <strong data-testid="schedule-words">{scheduleInWords(schedule, props.intervalSeconds)}</strong>,
              late after {durationInWords(preview.data.grace_seconds)} of grace.
            </p>
            <p className="muted">Next expected pings{zone ? ` (${zone}, and your time)` : ''}:</p>
            <ol data-testid="schedule-next">
              {preview.data.next.map((at) => (
                <li key={at}>
                  {zone ? `${inZone(Date.parse(at), zone)} · ` : ''}
                  {dateTime(at)}
                </li>
              ))}
            </ol>
            {preview.data.next.length === 0 && <p>This schedule never fires.</p>}
          </>
        ) : previewError ? (
          <p className="muted">Fix the schedule to see its next pings.</p>
        ) : (
          <p className="muted">Working out the next pings…</p>
        )}
      </div>
    </fieldset>
  );
}
