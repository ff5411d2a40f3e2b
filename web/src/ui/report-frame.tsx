import { keepPreviousData, useQuery, type UseQueryResult } from '@tanstack/react-query';
import { wrapUnits } from './figure-value';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ApiError, unwrap } from '../api/client';
import { useApi } from '../api/context';
import type { paths } from '../api/schema';
import { useSession } from '../api/session';
import { at } from '../lib/report-format';
import { ReportFilters, useReportQuery, type ReportQuery } from './report-filters';
import './report-pages.css';

/** The six reports: their API path, page path and what each tells (the hub and every report page use these). */
export const REPORTS = {
  availability: {
    title: 'Availability',
    api: 'availability',
    blurb: 'Uptime and downtime per monitor and per day, paused and unmonitored time, incidents.',
  },
  performance: {
    title: 'Performance',
    api: 'performance',
    blurb: 'Response times per monitor: p50, p95 and p99 with the change against the period before, anomalies.',
  },
  sla: {
    title: 'SLA',
    api: 'sla',
    blurb: 'Each SLA target: achieved in its current period, error budget, budget left and burn rate, earlier periods.',
  },
  incidents: {
    title: 'Incidents',
    api: 'incidents',
    blurb: 'Incidents in the period by source, time to acknowledge and to resolve (mean and median), per day.',
  },
  intelligence: {
    title: 'Intelligence',
    api: 'intelligence',
    blurb: 'Changes, anomalies and grade drops by category and severity, and monitors that failed together.',
  },
  'monitor-health': {
    title: 'Monitor health',
    api: 'monitor-health',
    blurb: 'Monitors that are noisy, flapping, misconfigured or have never succeeded, with the reason for each.',
  },
} as const;
export type ReportKind = keyof typeof REPORTS;

type ReportPath<K extends ReportKind> = `/api/v1/reports/${(typeof REPORTS)[K]['api']}`;
/** The JSON a report route answers. */
export type ReportOf<K extends ReportKind> = paths[ReportPath<K>]['get'] extends {
  responses: { 200: { content: { 'application/json': infer R } } };
}
  ? R
  : never;

/**
 * One report for the filters in the page's URL. The report shown stays while the next one loads (the frame says
 * "updating…"); a refusal is not retried, as it names what to change.
 */
export function useReport<K extends ReportKind>(
  kind: K,
): { state: ReturnType<typeof useReportQuery>; result: UseQueryResult<ReportOf<K>> } {
  const api = useApi();
  const state = useReportQuery();
  const path: ReportPath<ReportKind> = `/api/v1/reports/${REPORTS[kind].api}`;
  const result = useQuery({
    queryKey: ['report', kind, state.query],
    retry: false,
    placeholderData: keepPreviousData,
    queryFn: async () => unwrap(await api.client.GET(path, { params: { query: state.query } })) as ReportOf<K>,
  });
  return { state, result };
}

/** Where the same report is downloaded: the period shown, fixed as from/to, so the file has the figures on screen. */
export function downloadHref(
  kind: ReportKind,
  format: 'json' | 'csv' | 'pdf',
  query: ReportQuery,
  period: { from: string; to: string },
  /** `/export` for the incidents export. */
  suffix = '',
): string {
  const q = new URLSearchParams({ format, from: period.from, to: period.to, timezone: query.timezone });
  if (query.monitor_ids) q.set('monitor_ids', query.monitor_ids);
  if (query.tags) q.set('tags', query.tags);
  return `/api/v1/reports/${REPORTS[kind].api}${suffix}?${q.toString()}`;
}

/**
 * A plan without reports: what the plan allows and what it takes, in place of the report (not a bare error).
 * The API's message names the plan needed and the current one (the numbers are the operator's to configure).
 */
export function PlanGate({ error }: { error: ApiError }) {
  const { session } = useSession();
  return (
    <section className="notice plan-gate" aria-labelledby="plan-gate" data-code={error.code}>
      <h2 id="plan-gate">Reports are not part of the {session.organization.plan} plan</h2>
      <p>{error.message}</p>
      <p>
        On this plan monitors, incidents, alerts and status pages work as usual and their history is kept, so the
        reports cover it once the plan allows them. A plan with reports adds the six reports with JSON, CSV and PDF
        downloads, SLA targets with their error budgets, custom reports and scheduled delivery.
      </p>
      <p className="muted">
        The plan is shown under <Link to="/settings">Settings</Link>. The operator of this Tocsin changes it with{' '}
        <code>tocsin admin set-plan --org {session.organization.id} --plan &lt;plan&gt;</code> (the plan named above).
      </p>
    </section>
  );
}

/** The page around one report: heading, filters in the URL, period shown, downloads, plan gate and errors. */
export function ReportFrame<
  T extends { period: { from: string; to: string; timezone: string }; generated_at: string },
>({
  kind,
  state,
  result,
  children,
}: {
  kind: ReportKind;
  state: ReturnType<typeof useReportQuery>;
  result: UseQueryResult<T>;
  children: (report: T) => ReactNode;
}) {
  const spec = REPORTS[kind];
  const error = result.error instanceof ApiError ? result.error : null;
  const placed = error?.details.some((d) => /^(from|to|timezone|monitor_ids)/.test(d.field)) ?? false;
  const report = result.data;
  return (
    <>
      <p className="breadcrumb">
        <Link to="/reports">Reports</Link> /
      </p>
      <h1>{spec.title} report</h1>
      <p className="muted">{spec.blurb}</p>
      <ReportFilters {...state} error={error} shown={report?.period} />
      {error?.code === 'plan_upgrade_required' ? (
        <PlanGate error={error} />
      ) : result.isError ? (
        <div className="form-error" role="alert" data-code={error?.code}>
          <p>{placed ? 'The report was not made: see the field marked above.' : result.error.message}</p>
        </div>
      ) : !report ? (
        <p role="status">Loading the report…</p>
      ) : (
        <>
          <section aria-labelledby="report-period" className="report-period">
            <h2 id="report-period" className="visually-hidden">
              Period and downloads
            </h2>
            <p aria-live="polite">
              <span data-testid="report-range">
                {at(report.period.from, report.period.timezone)} – {at(report.period.to, report.period.timezone)}
              </span>{' '}
              ({report.period.timezone}) · made {at(report.generated_at, report.period.timezone)}
              {result.isFetching && <span className="muted"> · updating…</span>}
            </p>
            <p className="downloads">
              Download:{' '}
              <a href={downloadHref(kind, 'json', state.query, report.period)} download={`${kind}-report.json`}>
                JSON
              </a>{' '}
              · <a href={downloadHref(kind, 'csv', state.query, report.period)}>CSV</a> ·{' '}
              <a href={downloadHref(kind, 'pdf', state.query, report.period)}>PDF</a>
            </p>
          </section>
          {children(report)}
        </>
      )}
    </>
  );
}

/** The report's key figures as a row of cards, under a heading only screen readers hear. */
export function SummaryCards({ children }: { children: ReactNode }) {
  return (
    <section aria-labelledby="summary" className="cards">
      <h2 id="summary" className="visually-hidden">
        Summary
      </h2>
      {children}
    </section>
  );
}

/** A figure in a card (the value as the report pages write it). */
export function Figure({ label, value, note, id }: { label: string; value: string; note?: string; id?: string }) {
  return (
    <div className="card stat" data-figure={id}>
      <p className="stat-label">{label}</p>
      <p className="stat-value">{wrapUnits(value)}</p>
      {note && <p className="muted small">{note}</p>}
    </div>
  );
}
