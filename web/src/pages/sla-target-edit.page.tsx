import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { ApiError, unwrap } from '../api/client';
import { useAllMonitors } from '../api/monitors';
import type { SlaPeriod } from '../lib/error-budget';
import { DeleteButton, EditForm, SaveBar } from '../ui/edit-form';
import { idempotencyHeader, useEditPage, useExisting, useFormSave, useRemoveAndLeave } from '../ui/edit-form.hooks';
import { Field, FieldIssue, FormError } from '../ui/form';
import { MonitorPickList } from '../ui/monitor-pick-list';
import { PlanGate } from '../ui/report-frame';
import { BudgetPreview } from '../ui/report-sla-targets';

const PERIODS: Record<SlaPeriod, string> = {
  daily: 'Daily',
  weekly: 'Weekly (Monday to Sunday)',
  monthly: 'Monthly',
  quarterly: 'Quarterly (from January, April, July, October)',
};

/** Editor of one SLA target (exactly the API's fields) with a live preview of the error budget it allows. */
export default function SlaTargetEditPage() {
  const { id, api, navigate, queryClient, session, writable, form } = useEditPage();
  const existing = useExisting(
    ['sla-target', id],
    id,
    async (id) => unwrap(await api.client.GET('/api/v1/sla-targets/{id}', { params: { path: { id } } })),
    false,
  );
  const monitors = useAllMonitors({});
  const [name, setName] = useState('');
  const [target, setTarget] = useState('99.9');
  const [period, setPeriod] = useState<SlaPeriod>('monthly');
  const [monitorIds, setMonitorIds] = useState<string[]>([]);
  const [filter, setFilter] = useState('');
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (existing.data) {
      setName(existing.data.name);
      setTarget(String(existing.data.target_percent));
      setPeriod(existing.data.period);
      setMonitorIds(existing.data.monitor_ids);
    }
  }, [existing.data]);
  const { save, error } = useFormSave(form, {
    // The page says "Saved." beside its button itself: no second note.
    meta: { toast: undefined },
    mutationFn: async () => {
      // The number as typed (NaN goes as null): the API says what is wrong with it, next to the field.
      const body = {
        name,
        target_percent: target.trim() === '' ? Number.NaN : Number(target),
        period,
        monitor_ids: monitorIds,
      };
      const header = idempotencyHeader();
      return id
        ? unwrap(await api.client.PATCH('/api/v1/sla-targets/{id}', { params: { path: { id }, header }, body }))
        : unwrap(await api.client.POST('/api/v1/sla-targets', { params: { header }, body }));
    },
    onSuccess: (t) => {
      setSaved(true);
      void queryClient.invalidateQueries({ queryKey: ['sla-targets'] });
      void queryClient.invalidateQueries({ queryKey: ['report', 'sla'] });
      queryClient.setQueryData(['sla-target', t.id], t);
      if (!id) void navigate(`/sla-targets/${t.id}`, { replace: true });
    },
    onMutate: () => setSaved(false),
  });
  const remove = useRemoveAndLeave(
    async () => unwrap(await api.client.DELETE('/api/v1/sla-targets/{id}', { params: { path: { id: id! } } })),
    { queryKey: ['sla-targets'], path: '/sla-targets' },
  );
  const loadError = existing.error instanceof ApiError ? existing.error : null;
  if (!id && !writable) {
    return (
      <>
        <h1>New SLA target</h1>
        <p role="alert">Your role ({session.role}) can look at SLA targets but not create them.</p>
      </>
    );
  }
  if (loadError) {
    return (
      <>
        <h1>SLA target</h1>
        {loadError.code === 'plan_upgrade_required' ? (
          <PlanGate error={loadError} />
        ) : (
          <p role="alert">{loadError.status === 404 ? 'No such SLA target.' : loadError.message}</p>
        )}
      </>
    );
  }
  if (id && !existing.data) return <p role="status">Loading…</p>;
  const chosenMissing = monitorIds.filter((mid) => !monitors.monitors.some((m) => m.id === mid));
  const monitorIssue = error?.issueFor('monitor_ids');
  return (
    <>
      <p className="breadcrumb">
        <Link to="/reports">Reports</Link> / <Link to="/sla-targets">SLA targets</Link> /
      </p>
      <h1>{id ? `SLA target: ${existing.data?.name ?? ''}` : 'New SLA target'}</h1>
      {id && (
        <p>
          <Link to={`/reports/sla?monitor_ids=${encodeURIComponent(monitorIds.join(','))}`}>
            Where it stands (SLA report)
          </Link>
        </p>
      )}
      <div className="two-columns">
        <EditForm form={form} onSubmit={() => save.mutate()} locked={!writable}>
          {!writable && <p className="notice">Your role ({session.role}) can look at this target but not change it.</p>}
          {error?.code === 'plan_upgrade_required' ? (
            <PlanGate error={error} />
          ) : (
            <FormError error={save.error} fields={['name', 'target_percent', 'period', 'monitor_ids']} />
          )}
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
          <Field
            label="Target (%)"
            name="target_percent"
            error={error}
            required
            hint="Above 0 and below 100, at most 3 decimals (99.9, 99.95)."
          >
            {({ control }) => (
              <input
                {...control}
                required
                inputMode="decimal"
                value={target}
                onChange={(e) => setTarget(e.target.value)}
              />
            )}
          </Field>
          <Field
            label="Period"
            name="period"
            error={error}
            required
            hint="Periods are calendar periods in the report's time zone."
          >
            {({ control }) => (
              <select {...control} value={period} onChange={(e) => setPeriod(e.target.value as SlaPeriod)}>
                {(Object.keys(PERIODS) as SlaPeriod[]).map((p) => (
                  <option key={p} value={p}>
                    {PERIODS[p]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <fieldset className={`field${monitorIssue ? ' field-invalid' : ''}`} data-field="monitor_ids">
            <legend>Monitors ({monitorIds.length}, 1 to 100; down when any of them is down)</legend>
            <MonitorPickList
              monitors={monitors.monitors}
              chosen={monitorIds}
              onChange={setMonitorIds}
              filterLabel="Find a monitor"
              filter={filter}
              onFilter={setFilter}
              invalid={Boolean(monitorIssue)}
            />
            {chosenMissing.length > 0 && monitors.complete && (
              <p className="hint">
                Also {chosenMissing.length} deleted monitor(s): their history still counts until their deletion.
              </p>
            )}
            <FieldIssue issue={monitorIssue} />
          </fieldset>
          {writable && (
            <SaveBar pending={save.isPending} label={id ? 'Save' : 'Create SLA target'}>
              {id && (
                <DeleteButton
                  question="Delete this SLA target? Its reports stop showing it."
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
        <BudgetPreview target={target} period={period} />
      </div>
    </>
  );
}
