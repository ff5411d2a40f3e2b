import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { unwrap } from '../api/client';
import { useApi } from '../api/context';
import { dateTime, relativeTime } from '../lib/format';
import { inZone } from '../lib/time-zones';
import { RunsTable } from './scheduled-report.runs';
import { DeliveryBadge, type ScheduledReport } from './scheduled-report.shared';

/**
 * A saved schedule around its form: Run now, Pause / Resume and Delete, its state, next and last run, and below the
 * form the latest runs with each delivery's outcome (polled while a run is being made or delivered).
 */
export function ScheduleOperations(props: {
  schedule: ScheduledReport;
  writable: boolean;
  /** Destination id → email address, to name where a mail went. */
  addresses: Map<string, string>;
  /** The form's Enabled box follows Pause and Resume. */
  onEnabled: (enabled: boolean) => void;
  children: ReactNode;
}) {
  const { schedule: s, writable, onEnabled } = props;
  const id = s.id;
  const api = useApi();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // After Run now, the runs are polled until the new run has ended its deliveries.
  const [awaitingRun, setAwaitingRun] = useState<number | null>(null);
  const runs = useQuery({
    queryKey: ['scheduled-report', id, 'runs'],
    queryFn: async () =>
      unwrap(
        await api.client.GET('/api/v1/scheduled-reports/{id}/runs', {
          params: { path: { id }, query: { limit: 10 } },
        }),
      ),
    refetchInterval: (q) =>
      awaitingRun !== null || q.state.data?.data.some((r) => r.status === 'delivering') ? 1500 : false,
  });
  useEffect(() => {
    if (awaitingRun === null || !runs.data) return;
    const data = runs.data.data;
    if (data.length > awaitingRun && data.every((r) => r.status !== 'delivering')) {
      setAwaitingRun(null);
      void queryClient.invalidateQueries({ queryKey: ['scheduled-report', id], exact: true });
      void queryClient.invalidateQueries({ queryKey: ['scheduled-reports'] });
    }
  }, [awaitingRun, runs.data, queryClient, id]);
  const setPaused = useMutation({
    mutationFn: async (paused: boolean) =>
      unwrap(
        await api.client.PATCH('/api/v1/scheduled-reports/{id}', {
          params: { path: { id }, header: { 'Idempotency-Key': crypto.randomUUID() } },
          body: { enabled: !paused },
        }),
      ),
    onSuccess: (saved) => {
      queryClient.setQueryData(['scheduled-report', saved.id], saved);
      onEnabled(saved.enabled);
      void queryClient.invalidateQueries({ queryKey: ['scheduled-reports'] });
    },
  });
  const runNow = useMutation({
    mutationFn: async () =>
      unwrap(
        await api.client.POST('/api/v1/scheduled-reports/{id}/run', {
          params: { path: { id }, header: { 'Idempotency-Key': crypto.randomUUID() } },
        }),
      ),
    onSuccess: () => setAwaitingRun(runs.data?.data.length ?? 0),
  });
  const remove = useMutation({
    mutationFn: async () =>
      unwrap(await api.client.DELETE('/api/v1/scheduled-reports/{id}', { params: { path: { id } } })),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['scheduled-reports'] });
      void navigate('/scheduled-reports');
    },
  });
  return (
    <>
      <div className="page-head">
        <h1>Scheduled report</h1>
        {writable && (
          <div className="actions">
            <button type="button" onClick={() => runNow.mutate()} disabled={runNow.isPending || awaitingRun !== null}>
              Run now
            </button>
            <button type="button" onClick={() => setPaused.mutate(s.enabled)} disabled={setPaused.isPending}>
              {s.enabled ? 'Pause' : 'Resume'}
            </button>
            <button
              type="button"
              className="danger"
              onClick={() => {
                if (window.confirm('Delete this scheduled report?')) remove.mutate();
              }}
            >
              Delete
            </button>
          </div>
        )}
      </div>
      {[runNow.error, setPaused.error, remove.error].map(
        (e, i) =>
          e && (
            <p key={i} role="alert" className="form-error">
              {e.message}
            </p>
          ),
      )}
      <dl className="facts schedule-facts">
        <div>
          <dt>State</dt>
          <dd>
            <DeliveryBadge status={s.enabled ? 'active' : 'paused'} />
          </dd>
        </div>
        <div>
          <dt>Next run</dt>
          <dd data-next-run={s.next_run_at}>
            {s.enabled ? `${inZone(Date.parse(s.next_run_at), s.timezone)} (${s.timezone})` : 'Paused: none'}
          </dd>
        </div>
        <div>
          <dt>Last run</dt>
          <dd>
            {s.last_run_at ? `${dateTime(s.last_run_at)} (${relativeTime(s.last_run_at)})` : 'Never'}{' '}
            <DeliveryBadge status={s.last_status} />
          </dd>
        </div>
      </dl>
      {awaitingRun !== null && (
        <p role="status" className="notice">
          Running now: the report is rendered and handed to the destinations…
        </p>
      )}
      {props.children}
      <section aria-labelledby="runs-heading">
        <h2 id="runs-heading">Latest runs</h2>
        {runs.isError && <p role="alert">{runs.error.message}</p>}
        {runs.data && <RunsTable runs={runs.data.data} timezone={s.timezone} addresses={props.addresses} />}
      </section>
    </>
  );
}
