import { ManagedNotice } from '../ui/managed-notice';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { ApiError, unwrap } from '../api/client';
import { useApi } from '../api/context';
import { uptimeOf, type HistoryBucket } from '../api/monitors';
import { can, useSession } from '../api/session';
import { dateTime, ms, percent, plural, relativeTime } from '../lib/format';
import { bucketWidthMs, lineValues, mergeBuckets } from '../lib/latency-buckets';
import { wrapUnits } from '../ui/figure-value';
import { ChartLegend, MonitorStateStrip, PeriodsTable, stripSummary } from '../ui/monitor-timeline';
import type { ChartBand, LatencySeries } from '../ui/latency-chart';
import { MonitorBadge } from '../ui/monitor-badge';
import { MonitorIntelligence } from '../ui/monitor-intelligence';
import { MuteMonitor } from '../ui/mute-monitor';
import { StatusBadge } from '../ui/status';
import { HeartbeatPanel } from './monitor-detail.heartbeat';
import type { PlotArea } from '../ui/latency-chart';

const LatencyChart = lazy(() => import('../ui/latency-chart').then((m) => ({ default: m.LatencyChart })));

/** The chart's line colours (the legend shows the same). */
const LINE_COLOURS = ['#2563eb', '#d97706', '#059669', '#db2777', '#7c3aed', '#0891b2'];
const STEP_MS = { minute: 60_000, hour: 3_600_000 } as const;

const PERIODS = {
  '1h': { ms: 3_600_000, resolution: 'minute', label: '1 hour' },
  '24h': { ms: 86_400_000, resolution: 'minute', label: '24 hours' },
  '7d': { ms: 7 * 86_400_000, resolution: 'hour', label: '7 days' },
  '30d': { ms: 30 * 86_400_000, resolution: 'hour', label: '30 days' },
  '90d': { ms: 90 * 86_400_000, resolution: 'hour', label: '90 days' },
} as const;
type Period = keyof typeof PERIODS;

/** How often at most the history window moves on when new checks arrive (each move reads the history again). */
const WINDOW_REFRESH_MS = 10_000;

export default function MonitorDetailPage() {
  const { id } = useParams() as { id: string };
  const api = useApi();
  const { session } = useSession();
  const allowed = can(session.role);
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const period: Period = (params.get('period') as Period) in PERIODS ? (params.get('period') as Period) : '24h';
  const spec = PERIODS[period];

  const monitor = useQuery({
    queryKey: ['monitor', id, 'detail'],
    queryFn: async () => unwrap(await api.client.GET('/api/v1/monitors/{id}', { params: { path: { id } } })),
  });
  // The maintenance window in progress, else the next one covering this monitor (DECISIONS §16).
  const maintenance = useQuery({
    queryKey: ['monitor', id, 'maintenance'],
    queryFn: async () =>
      unwrap(await api.client.GET('/api/v1/monitors/{id}/maintenance', { params: { path: { id } } })),
  });
  // The window is fixed per fetch (not per render) so the query key stays stable.
  const [now, setNow] = useState(() => Date.now());
  // Where the latency chart plots time, for the state strip beneath it (measured by the chart at every size).
  const [plotArea, setPlotArea] = useState<PlotArea | null>(null);
  const from = new Date(now - spec.ms).toISOString();
  const to = new Date(now).toISOString();
  const regions = monitor.data?.region_codes ?? [];
  const history = useQuery({
    queryKey: ['monitor', id, 'history', period, now, regions.join(',')],
    enabled: monitor.isSuccess,
    queryFn: async () => {
      const all = unwrap(
        await api.client.GET('/api/v1/monitors/{id}/history', {
          params: { path: { id }, query: { from, to, resolution: spec.resolution } },
        }),
      ).data;
      const perRegion =
        regions.length > 1
          ? await Promise.all(
              regions.map(async (region_code) => ({
                region: region_code,
                data: unwrap(
                  await api.client.GET('/api/v1/monitors/{id}/history', {
                    params: { path: { id }, query: { from, to, resolution: spec.resolution, region_code } },
                  }),
                ).data,
              })),
            )
          : [{ region: regions[0] ?? 'all regions', data: all }];
      return { all, perRegion };
    },
  });
  const performance = useQuery({
    queryKey: ['monitor', id, 'performance', period, now],
    retry: false,
    queryFn: async () => {
      const report = unwrap(
        await api.client.GET('/api/v1/reports/performance', { params: { query: { monitor_ids: id, from, to } } }),
      );
      return report.monitors[0] ?? null;
    },
  });
  // What the chart shades: down, degraded, maintenance and paused periods and the incidents of the window.
  const periods = useQuery({
    queryKey: ['monitor', id, 'periods', period, now],
    queryFn: async () =>
      unwrap(await api.client.GET('/api/v1/monitors/{id}/periods', { params: { path: { id }, query: { from, to } } })),
  });
  const executions = useQuery({
    queryKey: ['monitor', id, 'executions'],
    queryFn: async () =>
      unwrap(
        await api.client.GET('/api/v1/monitors/{id}/executions', { params: { path: { id }, query: { limit: 25 } } }),
      ),
  });
  // A check newer than the window's end moves the window on (at most every WINDOW_REFRESH_MS), so the newest,
  // partial bucket is drawn as checks arrive (the live feed refreshes the executions), not only after a reload.
  const newest = executions.data?.data[0]?.started_at;
  useEffect(() => {
    if (!newest || Date.parse(newest) <= now) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.max(0, now + WINDOW_REFRESH_MS - Date.now()));
    return () => clearTimeout(timer);
  }, [newest, now]);
  const incidents = useQuery({
    queryKey: ['incidents', 'monitor', id],
    queryFn: async () =>
      unwrap(await api.client.GET('/api/v1/incidents', { params: { query: { monitor_id: id, limit: 20 } } })),
  });
  const toggle = useMutation({
    mutationFn: async (paused: boolean) => {
      const options = { params: { path: { id }, header: { 'Idempotency-Key': crypto.randomUUID() } } };
      return unwrap(
        paused
          ? await api.client.POST('/api/v1/monitors/{id}/resume', options)
          : await api.client.POST('/api/v1/monitors/{id}/pause', options),
      );
    },
    meta: { toast: (m) => ((m as { paused: boolean }).paused ? 'Monitor paused.' : 'Monitor resumed.') },
    onSuccess: (m) => {
      queryClient.setQueryData(['monitor', id, 'detail'], m);
      void queryClient.invalidateQueries({ queryKey: ['monitors'] });
    },
  });

  const interval = monitor.data?.interval_seconds ?? 60;
  const widthMs = bucketWidthMs(spec.ms, interval, STEP_MS[spec.resolution]);
  const chart = useMemo(() => {
    const merged = mergeBuckets(history.data?.all ?? [], widthMs);
    // A gap only where no check ran for two intervals (or two buckets): a late check is not missing data.
    const quiet = 2 * Math.max(widthMs, interval * 1000);
    const times = merged.map((b) => b.start / 1000);
    const regions = history.data?.perRegion ?? [];
    const series: LatencySeries[] =
      regions.length > 1
        ? regions.map((r, i) => ({
            label: `p95 ${r.region}`,
            times,
            values: lineValues(mergeBuckets(r.data, widthMs), (b) => b.p95, widthMs, quiet),
            colour: LINE_COLOURS[i % LINE_COLOURS.length]!,
            dash: i === 0 ? [] : [6, 3],
          }))
        : [
            {
              label: 'p95',
              times,
              values: lineValues(merged, (b) => b.p95, widthMs, quiet),
              colour: LINE_COLOURS[0]!,
              dash: [],
            },
            {
              label: 'p50',
              times,
              values: lineValues(merged, (b) => b.p50, widthMs, quiet),
              colour: LINE_COLOURS[1]!,
              dash: [6, 3],
            },
          ];
    return { merged, series };
  }, [history.data, widthMs, interval]);
  const series = chart.series;
  const bands = useMemo<ChartBand[]>(() => {
    const p = periods.data;
    if (!p) return [];
    return [
      ...p.periods.map((x) => ({ kind: x.state, start: Date.parse(x.start) / 1000, end: Date.parse(x.end) / 1000 })),
      ...p.incidents.map((i) => ({
        kind: 'incident' as const,
        start: Date.parse(i.down_since) / 1000,
        end: (i.resolved_at ? Date.parse(i.resolved_at) : Date.parse(p.to)) / 1000,
      })),
    ];
  }, [periods.data]);
  const range = useMemo<[number, number]>(() => [(now - spec.ms) / 1000, now / 1000], [now, spec.ms]);
  const timings = useMemo(() => averageTimings(executions.data?.data ?? []), [executions.data]);

  if (monitor.isError) {
    return (
      <>
        <h1>Monitor</h1>
        <p role="alert">
          {monitor.error instanceof ApiError && monitor.error.status === 404
            ? 'No such monitor.'
            : monitor.error.message}
        </p>
      </>
    );
  }
  if (!monitor.data) return <p role="status">Loading…</p>;
  const m = monitor.data;
  const buckets: HistoryBucket[] = history.data?.all ?? [];
  const uptime = uptimeOf(buckets);
  const checks = buckets.reduce((n, b) => n + b.checks, 0);
  // The history is read from minute rollups, which lag the checks by up to a minute: a new monitor has checks
  // (its latest executions) before it has buckets. Until then the figures come from those executions.
  const recent = (executions.data?.data ?? []).filter((e) => Date.parse(e.started_at) >= now - spec.ms);
  const collecting = history.isSuccess && checks === 0 && recent.length > 0;
  const recentUp = recent.filter((e) => e.status === 'up').length;
  const uptimeValue = collecting ? percent((recentUp / recent.length) * 100, 3) : percent(uptime, 3);
  const uptimeNote = history.isPending
    ? 'Loading…'
    : collecting
      ? `latest ${plural(recent.length, 'check')}, collecting first figures`
      : checks === 0 && executions.isSuccess && recent.length === 0
        ? 'no checks yet'
        : plural(checks, 'check');
  const perf = performance.data;
  const perfNote = (current: number | null | undefined, previous: number | null | undefined) =>
    performance.isPending ? 'Loading…' : performance.isError ? 'not available' : trend(current, previous);
  const chartEmpty = series.every((s) => s.values.every((v) => v === null || v === undefined)) && bands.length === 0;
  const periodList = periods.data?.periods ?? [];
  const incidentList = periods.data?.incidents ?? [];
  return (
    <>
      <div className="page-head">
        <h1>{m.name}</h1>
        <ManagedNotice record={m} what="monitor" />
        <StatusBadge status={m.status} />
        {allowed.write && (
          <div className="actions">
            <button type="button" disabled={toggle.isPending} onClick={() => toggle.mutate(m.paused)}>
              {m.paused ? 'Resume' : 'Pause'}
            </button>
            <Link className="button" to={`/monitors/${m.id}/edit`}>
              Edit
            </Link>
            <Link className="button" to={`/monitors/new?duplicate=${m.id}`}>
              Duplicate
            </Link>
          </div>
        )}
      </div>
      {allowed.write && <MuteMonitor monitorId={m.id} />}
      <p className="muted">
        {m.type} · <span className="target">{m.target}</span> · every {plural(m.interval_seconds, 'second')} ·{' '}
        {m.environment} · regions {m.region_codes.join(', ')} · last check {relativeTime(m.last_checked_at)}
      </p>
      {m.heartbeat_url && (
        <HeartbeatPanel
          monitorId={m.id}
          url={m.heartbeat_url}
          intervalSeconds={m.interval_seconds}
          config={m.config as Record<string, unknown>}
        />
      )}
      {toggle.error && (
        <p role="alert" className="form-error">
          {toggle.error.message}
        </p>
      )}
      {maintenance.data?.next && (
        <p data-testid="next-maintenance">
          {maintenance.data.next.active ? 'In maintenance' : 'Next maintenance'}:{' '}
          <Link to={`/maintenance-windows/${maintenance.data.next.maintenance_window_id}`}>
            {maintenance.data.next.name}
          </Link>
          , {dateTime(maintenance.data.next.starts_at)} – {dateTime(maintenance.data.next.ends_at)}
        </p>
      )}
      <nav aria-label="Period" className="segmented">
        {(Object.keys(PERIODS) as Period[]).map((p) => (
          <button
            key={p}
            type="button"
            aria-pressed={p === period}
            onClick={() => {
              setNow(Date.now());
              const next = new URLSearchParams(params);
              next.set('period', p);
              setParams(next, { replace: true });
            }}
          >
            {p}
          </button>
        ))}
      </nav>
      <section aria-labelledby="figures" className="cards figures">
        <h2 id="figures" className="visually-hidden">
          Figures for the last {spec.label}
        </h2>
        <Card label="Uptime" value={history.isPending ? '…' : uptimeValue} note={uptimeNote} />
        <Card
          label="p50"
          value={performance.isPending ? '…' : ms(perf?.p50_ms)}
          note={perfNote(perf?.p50_ms, perf?.previous.p50_ms)}
        />
        <Card
          label="p95"
          value={performance.isPending ? '…' : ms(perf?.p95_ms)}
          note={perfNote(perf?.p95_ms, perf?.previous.p95_ms)}
        />
        <Card
          label="p99"
          value={performance.isPending ? '…' : ms(perf?.p99_ms)}
          note={perfNote(perf?.p99_ms, perf?.previous.p99_ms)}
        />
      </section>
      {performance.isError && (
        <p className="muted">
          Percentiles: {performance.error instanceof ApiError ? performance.error.message : 'not available'}
        </p>
      )}
      <section aria-labelledby="latency" className="monitor-chart">
        <h2 id="latency">{series.length > 2 ? 'Latency (p95) per region' : 'Latency (p50, p95)'} and availability</h2>
        {history.isPending ? (
          <p role="status">Loading history…</p>
        ) : history.isError ? (
          <p role="alert">The history could not be read: {history.error.message}</p>
        ) : chartEmpty ? (
          <p className="muted chart-empty" data-testid="chart-empty">
            {recent.length > 0
              ? `Collecting first checks: the chart fills in as each minute completes (latest check ${relativeTime(recent[0]!.started_at)}).`
              : m.paused
                ? `No checks in the last ${spec.label}: the monitor is paused.`
                : `No checks in the last ${spec.label} yet.`}
          </p>
        ) : (
          <>
            <p className="visually-hidden">
              {`Latency over the last ${spec.label} in buckets of ${plural(widthMs / 60_000, 'minute')}: p50 ${ms(perf?.p50_ms)}, p95 ${ms(perf?.p95_ms)}. ${stripSummary(periodList, incidentList)}. The periods are listed in the table below the chart.`}
            </p>
            <Suspense fallback={<p role="status">Loading chart…</p>}>
              <LatencyChart
                onPlotArea={setPlotArea}
                series={series}
                bands={bands}
                range={range}
                label={`Latency (${series.map((s) => s.label).join(', ')}) over the last ${spec.label}, shaded where the monitor was down, degraded, in maintenance or paused; ${stripSummary(periodList, incidentList)}`}
              />
            </Suspense>
          </>
        )}
        {!history.isPending && !history.isError && (
          <>
            <MonitorStateStrip
              plotArea={chartEmpty ? null : plotArea}
              from={now - spec.ms}
              to={now}
              widthMs={widthMs}
              buckets={chart.merged}
              periods={periodList}
              incidents={incidentList}
            />
            <ChartLegend
              lines={series.map((s) => ({ label: s.label, colour: s.colour!, dashed: (s.dash ?? []).length > 0 }))}
            />
            {periods.isError && <p role="alert">The periods could not be read: {periods.error.message}</p>}
            <PeriodsTable periods={periodList} incidents={incidentList} />
          </>
        )}
      </section>
      <section aria-labelledby="phases">
        <h2 id="phases">
          {executions.data?.data.length
            ? `Phase timings (average of the last ${plural(executions.data.data.length, 'check')})`
            : 'Phase timings'}
        </h2>
        {timings ? (
          <dl className="phases">
            {Object.entries(timings).map(([phase, value]) => (
              <div key={phase}>
                <dt>{PHASE_LABELS[m.type]?.[phase] ?? phase}</dt>
                <dd>{ms(value)}</dd>
              </div>
            ))}
          </dl>
        ) : executions.isPending ? (
          <p role="status">Loading…</p>
        ) : (
          <p className="muted">No checks yet.</p>
        )}
      </section>
      <section aria-labelledby="executions">
        <h2 id="executions">Recent checks</h2>
        {/* Focusable: at 360 px the table scrolls sideways, and a keyboard must be able to scroll it (it has no link). */}
        <div className="table-wrap" tabIndex={0} role="region" aria-label="Recent checks, scrollable">
          <table>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Result</th>
                <th scope="col">Region</th>
                <th scope="col">Duration</th>
                <th scope="col">HTTP</th>
                <th scope="col">Assertions / error</th>
              </tr>
            </thead>
            <tbody>
              {executions.isPending && (
                <tr>
                  <td colSpan={6} role="status">
                    Loading…
                  </td>
                </tr>
              )}
              {executions.isError && (
                <tr>
                  <td colSpan={6} role="alert">
                    {executions.error.message}
                  </td>
                </tr>
              )}
              {executions.data?.data.length === 0 && (
                <tr>
                  <td colSpan={6} className="muted">
                    {m.paused ? 'No checks: the monitor is paused.' : 'No checks yet: the first one runs shortly.'}
                  </td>
                </tr>
              )}
              {executions.data?.data.map((e) => (
                <tr key={e.id}>
                  <td>
                    <time dateTime={e.started_at}>{dateTime(e.started_at)}</time>
                  </td>
                  <td>
                    <StatusBadge status={e.status} />
                  </td>
                  <td>{e.region_code}</td>
                  <td>{ms(e.duration_ms)}</td>
                  <td>{e.http_status ?? '—'}</td>
                  <td>
                    {e.error && <span>{e.error.message}</span>}
                    {e.assertions.length > 0 && (
                      <ul className="assertion-results">
                        {e.assertions.map((a, i) => (
                          <li key={i}>
                            {a.passed ? '✔ passed' : '✖ failed'}: {a.type}{' '}
                            <span className="muted">(got {JSON.stringify(a.actual)})</span>
                          </li>
                        ))}
                      </ul>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <MonitorIntelligence monitorId={m.id} />
      <section aria-labelledby="incidents">
        <h2 id="incidents">Incidents</h2>
        {incidents.isPending && <p role="status">Loading…</p>}
        {incidents.isError && <p role="alert">{incidents.error.message}</p>}
        {incidents.data?.data.length === 0 && <p className="muted">No incidents.</p>}
        <ul className="plain">
          {incidents.data?.data.map((i) => (
            <li key={i.id}>
              <StatusBadge status={i.status} />{' '}
              <Link to={`/incidents/${i.id}`}>
                #{i.number} {i.title}
              </Link>{' '}
              <span className="muted">opened {relativeTime(i.opened_at)}</span>
            </li>
          ))}
        </ul>
      </section>
      <MonitorBadge monitorId={m.id} monitorName={m.name} writable={allowed.write} />
    </>
  );
}

function Card({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <div className="card stat">
      <p className="stat-label">{label}</p>
      <p className="stat-value">{wrapUnits(value)}</p>
      {note && <p className="muted small">{note}</p>}
    </div>
  );
}

function trend(current: number | null | undefined, previous: number | null | undefined): string {
  if (current === null || current === undefined || !previous) return 'no previous period';
  const change = ((current - previous) / previous) * 100;
  const arrow = change > 0 ? '▲' : change < 0 ? '▼' : '=';
  return `${arrow} ${Math.abs(change).toFixed(1)} % vs previous period`;
}

/** What the time-to-first-byte and download phases measure for the types that are not HTTP requests (docs/monitors.md). */
const PHASE_LABELS: Partial<Record<string, Record<string, string>>> = {
  smtp: { ttfb: 'banner', download: 'ehlo' },
  websocket: { ttfb: 'upgrade', download: 'first message' },
};

type Timings = { timings: Record<string, number | null> };

function averageTimings(list: Timings[]): Record<string, number | null> | null {
  if (list.length === 0) return null;
  const phases = ['dns_ms', 'connect_ms', 'tls_ms', 'ttfb_ms', 'download_ms', 'total_ms'];
  return Object.fromEntries(
    phases.map((p) => {
      const values = list.map((e) => e.timings[p]).filter((v): v is number => typeof v === 'number');
      return [p.replace('_ms', ''), values.length ? values.reduce((a, b) => a + b, 0) / values.length : null];
    }),
  );
}
