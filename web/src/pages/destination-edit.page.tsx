import { isManaged, ManagedNotice } from '../ui/managed-notice';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { unwrap } from '../api/client';
import FIELDS from '../api/destination-config.fields.json';
import type { components } from '../api/schema';
import { can } from '../api/session';
import { asText, dateTime, plural } from '../lib/format';
import { DeleteButton, EditForm, SaveBar } from '../ui/edit-form';
import { idempotencyHeader, useEditPage, useExisting, useFormSave, useRemoveAndLeave } from '../ui/edit-form.hooks';
import { Field, FieldIssue, FormError } from '../ui/form';
import { StatusBadge } from '../ui/status';
import { destinationFieldLabel, destinationTypeName, destinationTypeSummary, words } from '../lib/destination-types';
import { DestinationType as TypeName } from '../ui/destination-type';

type Destination = components['schemas']['Destination'];
type DestinationType = Destination['type'];
type TestResult = components['schemas']['DestinationTestResult'];
interface ConfigKey {
  key: string;
  required: boolean;
  secret: boolean;
  description: string | null;
}
const TYPES = Object.keys(FIELDS) as DestinationType[];
/** These keep one alert per monitor (their own dedup keys): the server refuses a grouping window on them. */
const UNGROUPED: readonly string[] = ['oncall_pager1', 'oncall_pager2', 'incident_tool1', 'incident_tool2'];
const EVENTS = [
  'down',
  'recovered',
  'still_down',
  'incident_opened',
  'incident_acknowledged',
  'incident_resolved',
  'cert_expiring',
  'security_grade_downgraded',
  'security_grade_recovered',
  'significant_change',
  'performance_anomaly',
  'performance_recovered',
  'anomaly_alert',
  'anomaly_recovered',
  'anomaly_flapping',
  'scheduled_report',
  'degraded',
  'degraded_recovered',
];

/** One form per type (from the API's document); secrets are write-only: never shown, replaced when typed. */
export default function DestinationEditPage() {
  const { id, api, navigate, queryClient, session, form } = useEditPage();
  const existing = useExisting(['destination', id], id, async (id) =>
    unwrap(await api.client.GET('/api/v1/auth/organization/webhooks/{id}', { params: { path: { id } } })),
  );
  const [type, setType] = useState<DestinationType>('generic_webhook');
  const [name, setName] = useState('');
  const [config, setConfig] = useState<Record<string, string>>({});
  const [events, setEvents] = useState<string[]>(['down', 'recovered']);
  const [groupWindow, setGroupWindow] = useState('0');
  const [test, setTest] = useState<TestResult | null>(null);
  useEffect(() => {
    if (existing.data) {
      setType(existing.data.type);
      setName(existing.data.name);
      setEvents(existing.data.events);
      setGroupWindow(String(existing.data.group_window_seconds));
      const fields = (FIELDS as Record<string, ConfigKey[]>)[existing.data.type] ?? [];
      setConfig(
        Object.fromEntries(fields.filter((f) => !f.secret).map((f) => [f.key, asText(existing.data.config[f.key])])),
      );
    }
  }, [existing.data]);
  const fields = (FIELDS as Record<string, ConfigKey[]>)[type] ?? [];
  const { save, error } = useFormSave(form, {
    mutationFn: async () => {
      const cfg = Object.fromEntries(Object.entries(config).filter(([, v]) => v !== ''));
      const header = idempotencyHeader();
      // The body follows the chosen type's schema; the server validates it and names what is wrong.
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- union body checked by the server's schema
      const body: any = {
        name: name || (id ? undefined : destinationTypeName(type)),
        events,
        config: cfg,
        ...(id ? {} : { type }),
      };
      if (!UNGROUPED.includes(type)) body.group_window_seconds = Number(groupWindow);
      return id
        ? unwrap(
            await api.client.PATCH('/api/v1/auth/organization/webhooks/{id}', {
              params: { path: { id }, header },
              body,
            }),
          )
        : unwrap(await api.client.POST('/api/v1/auth/organization/webhooks', { params: { header }, body }));
    },
    onSuccess: (d) => {
      void queryClient.invalidateQueries({ queryKey: ['destinations'] });
      queryClient.setQueryData(['destination', d.id], d);
      if (!id) void navigate(`/destinations/${d.id}`, { replace: true });
    },
  });
  const runTest = useMutation({
    mutationFn: async () =>
      unwrap(
        await api.client.POST('/api/v1/auth/organization/webhooks/{id}/test', {
          params: { path: { id: id! }, header: idempotencyHeader() },
        }),
      ),
    onSuccess: (result) => {
      setTest(result);
      queryClient.setQueryData(['destination', id], result.destination);
    },
  });
  const remove = useRemoveAndLeave(
    async () =>
      unwrap(await api.client.DELETE('/api/v1/auth/organization/webhooks/{id}', { params: { path: { id: id! } } })),
    { queryKey: ['destinations'], path: '/destinations' },
  );
  const install = useMutation({
    mutationFn: async () =>
      unwrap(
        await api.client.GET('/api/v1/auth/organization/webhooks/slack/install', {
          params: { query: { ...(name ? { name } : {}), ...(id ? { destination_id: id } : {}) } },
        }),
      ),
    onSuccess: (answer) => {
      window.location.assign(answer.install_url);
    },
  });
  if (!can(session.role).admin) {
    return (
      <>
        <h1>Destination</h1>
        <p role="alert">Only owners and admins manage destinations.</p>
      </>
    );
  }
  const d = existing.data;
  return (
    <>
      <h1>{id ? `Destination: ${d?.name ?? ''}` : 'New destination'}</h1>
      <ManagedNotice record={d} what="destination" />
      {d && (
        <dl className="facts">
          <div>
            <dt>Last success</dt>
            <dd>{dateTime(d.last_success_at)}</dd>
          </div>
          <div>
            <dt>Last failure</dt>
            <dd>{d.last_failure_at ? `${dateTime(d.last_failure_at)}: ${d.last_failure_reason ?? ''}` : 'never'}</dd>
          </div>
        </dl>
      )}
      <EditForm form={form} onSubmit={() => save.mutate()} locked={isManaged(d)}>
        <FormError error={save.error} fields={['type', 'name', 'config', 'events', 'group_window_seconds']} />
        <Field label="Type" name="type" error={error} required>
          {({ id: i, describedBy }) => (
            <select
              id={i}
              value={type}
              disabled={id !== undefined}
              aria-describedby={describedBy}
              onChange={(e) => {
                setType(e.target.value as DestinationType);
                setConfig({});
              }}
            >
              {TYPES.map((t) => (
                <option key={t} value={t}>
                  {destinationTypeName(t)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <p className="muted small type-summary">
          <TypeName type={type} />: {destinationTypeSummary(type)}
        </p>
        <Field label="Name" name="name" error={error} hint={`Default: ${destinationTypeName(type)}.`}>
          {({ control }) => <input {...control} value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
        {type === 'chatapp1_channel' && (
          <p>
            <button type="button" onClick={() => install.mutate()} disabled={install.isPending}>
              Install the chat app in your workspace
            </button>{' '}
            <span className="muted">Fills the installation and token; then choose the channel.</span>
            {install.error && <span role="alert"> {install.error.message}</span>}
          </p>
        )}
        {fields.map((f) => (
          <Field
            key={f.key}
            label={destinationFieldLabel(type, f.key)}
            name={`config.${f.key}`}
            error={error}
            required={f.required && !(f.secret && id)}
            hint={[f.description, f.secret ? 'Write-only: stored, never shown again.' : null].filter(Boolean).join(' ')}
          >
            {({ control }) => (
              <input
                {...control}
                type={f.secret ? 'password' : 'text'}
                autoComplete="off"
                placeholder={f.secret && id ? 'stored — type to replace' : ''}
                value={config[f.key] ?? ''}
                onChange={(e) => setConfig({ ...config, [f.key]: e.target.value })}
              />
            )}
          </Field>
        ))}
        <fieldset className="field" data-field="events">
          <legend>Events</legend>
          <div className="check-grid">
            {EVENTS.map((ev) => (
              <label key={ev} className="check-label">
                <input
                  type="checkbox"
                  checked={events.includes(ev)}
                  onChange={(e) => setEvents(e.target.checked ? [...events, ev] : events.filter((x) => x !== ev))}
                />{' '}
                {words(ev)}
              </label>
            ))}
          </div>
          <FieldIssue issue={error?.issueFor('events')} />
        </fieldset>
        {!UNGROUPED.includes(type) && (
          <Field
            label="Grouping window (seconds)"
            name="group_window_seconds"
            error={error}
            hint="0 = off. Downs, recoveries and reminders arriving within this many seconds of the first go as one message (at most 900)."
          >
            {({ control }) => (
              <input
                {...control}
                type="number"
                min={0}
                max={900}
                step={1}
                value={groupWindow}
                onChange={(e) => setGroupWindow(e.target.value)}
              />
            )}
          </Field>
        )}
        <SaveBar pending={save.isPending} label={id ? 'Save' : 'Create'}>
          {id && (
            <>
              <button type="button" disabled={runTest.isPending} onClick={() => runTest.mutate()}>
                {runTest.isPending ? 'Sending test…' : 'Test'}
              </button>
              <DeleteButton question="Delete this destination?" onConfirmed={() => remove.mutate()} />
            </>
          )}
        </SaveBar>
      </EditForm>
      <div role="status" aria-live="polite" className="test-result">
        {test && (
          <p>
            Test: <StatusBadge status={test.outcome} /> after {plural(test.attempts, 'attempt')}
            {test.error ? ` — ${test.error}` : ''}
            {test.note ? ` — ${test.note}` : ''}
          </p>
        )}
        {runTest.error && <p className="form-error">{runTest.error.message}</p>}
      </div>
    </>
  );
}
