import { toIso, toIsoOrNull } from '../../platform/clock.ts';
import type { ServiceContext } from '../auth/index.ts';
import type { Incident } from '../incidents/index.ts';
import type { Plans } from '../orgs/index.ts';
import { accountingOf, spansOf, uptimePercent, withMaintenance, type Span } from './availability.accounting.ts';
import { MonitorTimelineRepository, type ReportMonitor } from './monitor-timeline.repository.ts';
import { monitorPeriods, type MonitorPeriods, type PeriodMaintenance } from './monitor-periods.ts';
import { localDays, periodContaining, type Window } from './report.period.ts';
import { resolvePeriod, selectMonitors, type ReportInput, type ResolvedPeriod } from './report.request.ts';
import { DAY_QUANTILES, figuresFromRollups, type CheckFigures, type DayFigures } from './report.rollups.ts';
import { evaluateSlaTarget, slaSummary } from './sla.evaluation.ts';
import { readAll, type ReportAnomalies, type ReportIncidents, type ReportRollups } from './report.sources.ts';
import type {
  AvailabilityMonitor,
  AvailabilityReport,
  PerformanceMonitor,
  PerformanceReport,
  ReportPeriod,
  SlaReport,
} from './report.types.ts';
import type { SlaTargetsService } from './sla-target.service.ts';
import { IncidentsReports } from './incidents.report.ts';
import type { IncidentsReport } from './incidents.report.types.ts';
import { incidentsExportStream, type ExportFormat } from './incidents.export.ts';
import { IntelligenceReports } from './intelligence.report.ts';
import type { IntelligenceReport } from './intelligence.report.types.ts';
import { MonitorHealthReports, type ReportMonitorSettings } from './monitor-health.report.ts';
import type { MonitorHealthReport } from './monitor-health.types.ts';
import type { Readable } from 'node:stream';

export interface ReportsServiceDeps {
  plans: Plans;
  rollups: ReportRollups;
  incidents: ReportIncidents;
  /** Intelligence anomalies for the performance report; null when the intelligence module is not wired. */
  anomalies: ReportAnomalies | null;
  slaTargets: SlaTargetsService;
  /** Monitors' intervals and timeouts for the monitor-health report; null: 60 s intervals, timeouts not judged. */
  monitors?: ReportMonitorSettings | null;
  /** Maintenance windows that exclude their time from the SLA; null: none (every report counts all time). */
  maintenance?: ReportMaintenance | null;
}

/**
 * What reports read of maintenance windows (the maintenance module's MaintenanceService fits): per monitor, the time
 * in [from, to) that windows with `exclude_from_sla` covered, as sorted disjoint [start, end) intervals.
 */
export interface ReportMaintenance extends PeriodMaintenance {
  excludedIntervals(
    db: ServiceContext['db'],
    organizationId: string,
    monitors: ReadonlyArray<{ id: string; tags: string[] }>,
    from: number,
    to: number,
  ): Promise<Map<string, Array<[number, number]>>>;
}

export const METHODOLOGY =
  'Availability is time-based. A monitor is down from the first failing check of the run that confirmed the outage ' +
  '(failure_threshold consecutive failures in confirm_regions regions) to the check that ended it; failures that ' +
  'never reached the threshold are not downtime. Paused time, time without a verdict yet (after creation or a ' +
  'resume), time inside maintenance windows that exclude maintenance from the SLA (maintenance_seconds), and time ' +
  'before creation or after deletion are not monitored and count neither as up nor as down. ' +
  'uptime_percent = 100 × up seconds / monitored seconds; degraded time (slower than degraded_latency_ms, or ' +
  'failing in fewer regions than confirm_regions) is up time, shown as degraded_seconds. Percentiles come from merged latency sketches (≤ 1 % ' +
  'relative error). Periods are half-open [from, to); days and calendar periods are those of the report time zone.';

const seconds = (ms: number) => ms / 1000;
/** Percentages keep 5 decimals (99.99997 % needs them); seconds are exact to the millisecond. */
const pct = (v: number | null) => (v === null ? null : Math.round(v * 1e5) / 1e5);
const ms1 = (v: number | null) => (v === null ? null : Math.round(v * 10) / 10);

/** Availability, performance and SLA reports (DECISIONS §8, §11). */
export class ReportsService {
  private readonly deps: ReportsServiceDeps;
  private readonly incidentReports: IncidentsReports;
  private readonly intelligenceReports: IntelligenceReports;
  private readonly healthReports: MonitorHealthReports;
  constructor(deps: ReportsServiceDeps) {
    this.deps = deps;
    this.incidentReports = new IncidentsReports({ plans: deps.plans, incidents: deps.incidents });
    this.intelligenceReports = new IntelligenceReports({ plans: deps.plans, intelligence: deps.anomalies });
    this.healthReports = new MonitorHealthReports({
      plans: deps.plans,
      rollups: deps.rollups,
      incidents: deps.incidents,
      monitors: deps.monitors ?? null,
      maintenanceOf: (ctx, monitors, from, to) => this.maintenanceOf(ctx, monitors, from, to),
    });
  }

  /**
   * A monitor's shaded periods (down, degraded, maintenance, paused) and its incidents over [from, to), for charts
   * (monitor-periods.ts). A monitor read, not a report: no plan gate.
   */
  periods(ctx: ServiceContext, monitorId: string, range: { from: number; to: number }): Promise<MonitorPeriods> {
    return monitorPeriods(
      ctx,
      { incidents: this.deps.incidents, maintenance: this.deps.maintenance ?? null },
      monitorId,
      range,
    );
  }

  /** Incidents overlapping the period with MTTA/MTTR (incidents.report.ts). */
  incidents(ctx: ServiceContext, input: ReportInput): Promise<IncidentsReport> {
    return this.incidentReports.report(ctx, input);
  }

  /** Every incident of the period as a stream (CSV or a JSON array); bad input throws before the first byte. */
  async incidentsExport(ctx: ServiceContext, input: ReportInput, format: ExportFormat): Promise<Readable> {
    const scope = await this.incidentReports.scope(ctx, input);
    return incidentsExportStream(this.incidentReports, ctx, scope, format);
  }

  /** Intelligence events, their counts and correlations of the period (intelligence.report.ts). */
  intelligence(ctx: ServiceContext, input: ReportInput): Promise<IntelligenceReport> {
    return this.intelligenceReports.report(ctx, input);
  }

  /** Noisy, flapping, misconfigured and never-succeeded monitors (monitor-health.report.ts). */
  monitorHealth(ctx: ServiceContext, input: ReportInput): Promise<MonitorHealthReport> {
    return this.healthReports.report(ctx, input);
  }

  async availability(ctx: ServiceContext, input: ReportInput): Promise<AvailabilityReport> {
    const { period, monitors, spans } = await this.prepare(ctx, input);
    const [figures, incidents] = await Promise.all([
      figuresFromRollups(
        this.deps.rollups,
        monitors.map((m) => m.id),
        period,
        period.timezone,
        { days: false, now: ctx.clock.now() }, // the days' uptime comes from the timeline
      ),
      this.incidentsOf(ctx, monitors, period),
    ]);
    const days = localDays(period, period.timezone);
    let up = 0;
    let monitored = 0;
    let down = 0;
    let degraded = 0;
    let incidentTotal = 0;
    const rows: AvailabilityMonitor[] = await mapYielding(monitors, (m) => {
      const s = spans.get(m.id)!;
      const a = accountingOf(s, period.from, period.to);
      const f = figures.get(m.id)?.total;
      const own = (incidents.get(m.id) ?? []).map((i) => incidentView(i, s, ctx.clock.now()));
      up += a.upMs;
      down += a.downMs;
      degraded += a.degradedMs;
      monitored += a.upMs + a.downMs;
      incidentTotal += own.length;
      return {
        monitor_id: m.id,
        name: m.name,
        target: m.target,
        uptime_percent: pct(uptimePercent(a.upMs, a.upMs + a.downMs)),
        downtime_seconds: seconds(a.downMs),
        degraded_seconds: seconds(a.degradedMs),
        paused_seconds: seconds(a.pausedMs),
        no_data_seconds: seconds(a.noDataMs),
        maintenance_seconds: seconds(a.maintenanceMs),
        unmonitored_seconds: seconds(a.absentMs),
        monitored_seconds: seconds(a.upMs + a.downMs),
        coverage_percent: pct((100 * (a.upMs + a.downMs)) / a.windowMs),
        checks: f?.checks ?? 0,
        failed_checks: f?.failures ?? 0,
        incident_count: own.length,
        longest_incident_seconds: own.reduce((max, i) => Math.max(max, i.duration_seconds), 0),
        incidents: own,
        daily: days.map((d) => {
          const da = accountingOf(s, d.from, d.to);
          return {
            date: d.date,
            uptime_percent: pct(uptimePercent(da.upMs, da.upMs + da.downMs)),
            downtime_seconds: seconds(da.downMs),
            degraded_seconds: seconds(da.degradedMs),
          };
        }),
      };
    });
    return {
      report: 'availability',
      period: periodView(period),
      generated_at: toIso(ctx.clock.now()),
      methodology: METHODOLOGY,
      summary: {
        monitors: rows.length,
        uptime_percent: pct(uptimePercent(up, monitored)),
        downtime_seconds: seconds(down),
        degraded_seconds: seconds(degraded),
        monitored_seconds: seconds(monitored),
        incidents: incidentTotal,
      },
      monitors: rows,
    };
  }

  async performance(ctx: ServiceContext, input: ReportInput): Promise<PerformanceReport> {
    this.deps.plans.requireReports(ctx.actor.plan);
    const period = resolvePeriod(input, ctx.clock.now());
    const monitors = await selectMonitors(new MonitorTimelineRepository(ctx.db), ctx.actor, input, period);
    const ids = monitors.map((m) => m.id);
    const previousWindow = { from: period.from - (period.to - period.from), to: period.from };
    const days = localDays(period, period.timezone);
    const [current, previous, anomalies] = await Promise.all([
      figuresFromRollups(this.deps.rollups, ids, period, period.timezone, {
        days: true,
        localDays: days,
        now: ctx.clock.now(),
      }),
      // The previous window gives totals only (its days are never shown): whole UTC days from the daily rollups.
      figuresFromRollups(this.deps.rollups, ids, previousWindow, period.timezone, {
        days: false,
        now: ctx.clock.now(),
      }),
      this.anomaliesOf(ctx, ids, period),
    ]);
    const rows: PerformanceMonitor[] = await mapYielding(monitors, (m) => {
      const f = current.get(m.id)!;
      const p = previous.get(m.id)!.total;
      const now = percentiles(f.total);
      const before = percentiles(p);
      return {
        monitor_id: m.id,
        name: m.name,
        target: m.target,
        checks: f.total.checks,
        // Every successful check's latency is in the sketch, except at an edge older than the executions' retention,
        // whose hour's latencies are counted whole (report.rollups.ts, edgeCorrections): the counts are the exact ones.
        successful_checks: f.total.checks - f.total.failures,
        mean_ms: ms1(f.total.sketch.mean()),
        min_ms: ms1(f.total.sketch.quantile(0)),
        max_ms: ms1(f.total.sketch.quantile(1)),
        ...now,
        previous: before,
        trend_percent:
          now.p95_ms === null || before.p95_ms === null || before.p95_ms === 0
            ? null
            : pct((100 * (now.p95_ms - before.p95_ms)) / before.p95_ms),
        anomalies: anomalies.get(m.id) ?? [],
        daily: days.map((d) => ({ date: d.date, ...percentilesOf(f.days.get(d.date)?.quantiles) })),
      };
    });
    return {
      report: 'performance',
      period: periodView(period),
      generated_at: toIso(ctx.clock.now()),
      methodology: METHODOLOGY,
      summary: { monitors: rows.length, checks: rows.reduce((n, r) => n + r.checks, 0) },
      monitors: rows,
    };
  }

  async sla(ctx: ServiceContext, input: ReportInput): Promise<SlaReport> {
    this.deps.plans.requireReports(ctx.actor.plan);
    const now = ctx.clock.now();
    const period = resolvePeriod(input, now);
    if (input.monitorIds !== undefined && input.monitorIds.length > 0) {
      await selectMonitors(new MonitorTimelineRepository(ctx.db), ctx.actor, input, period); // 422 on foreign ids
    }
    let targets = await this.deps.slaTargets.all(ctx);
    if (input.monitorIds !== undefined && input.monitorIds.length > 0) {
      const wanted = new Set(input.monitorIds);
      targets = targets.filter((t) => t.monitorIds.some((id) => wanted.has(id)));
    }
    const repo = new MonitorTimelineRepository(ctx.db);
    if (input.tags !== undefined && input.tags.length > 0) {
      const tagged = new Set(
        (
          await repo.monitorsByIds(
            ctx.actor.organizationId,
            targets.flatMap((t) => t.monitorIds),
          )
        )
          .filter((m) => m.tags.some((tag) => input.tags!.includes(tag)))
          .map((m) => m.id),
      );
      targets = targets.filter((t) => t.monitorIds.some((id) => tagged.has(id)));
    }
    const allIds = [...new Set(targets.flatMap((t) => t.monitorIds))];
    const monitorById = new Map((await repo.monitorsByIds(ctx.actor.organizationId, allIds)).map((m) => [m.id, m]));
    // Whole periods: the earliest starts at or before the range (or now, when the range lies ahead).
    const earliest = Math.min(
      now,
      ...targets.map((t) => periodContaining(t.period, Math.min(period.from, now), period.timezone).from),
    );
    const timelines = await repo.timelines(allIds, earliest, now);
    const excluded = await this.maintenanceOf(ctx, [...monitorById.values()], earliest, now);
    const spans = new Map(
      allIds.map((id) => [id, withMaintenance(spansOf(timelines.get(id) ?? [], now), excluded.get(id) ?? [])]),
    );
    const out = targets.map((t) =>
      evaluateSlaTarget(t, {
        spansOf: (id) => spans.get(id) ?? [],
        nameOf: (id) => monitorById.get(id)?.name ?? id,
        exists: t.monitorIds.some((id) => monitorById.get(id)?.deletedAt === null),
        now,
        range: period,
        timezone: period.timezone,
      }),
    );
    return {
      report: 'sla',
      period: periodView(period),
      generated_at: toIso(now),
      methodology: METHODOLOGY,
      summary: slaSummary(out),
      targets: out,
    };
  }

  /** Plan gate, window, monitors and their spans up to the window's end (or now, if earlier). */
  private async prepare(
    ctx: ServiceContext,
    input: ReportInput,
  ): Promise<{ period: ResolvedPeriod; monitors: ReportMonitor[]; spans: Map<string, Span[]> }> {
    this.deps.plans.requireReports(ctx.actor.plan);
    const now = ctx.clock.now();
    const period = resolvePeriod(input, now);
    const repo = new MonitorTimelineRepository(ctx.db);
    const monitors = await selectMonitors(repo, ctx.actor, input, period);
    // The future is not known: time after now counts as not monitored.
    const until = Math.min(period.to, now);
    const timelines = await repo.timelines(
      monitors.map((m) => m.id),
      period.from,
      until,
    );
    const excluded = await this.maintenanceOf(ctx, monitors, period.from, until);
    const spans = new Map(
      monitors.map((m) => [m.id, withMaintenance(spansOf(timelines.get(m.id) ?? [], until), excluded.get(m.id) ?? [])]),
    );
    return { period, monitors, spans };
  }

  /** Per monitor, its time in [from, to) inside windows that exclude maintenance from the SLA. */
  private async maintenanceOf(
    ctx: ServiceContext,
    monitors: ReadonlyArray<{ id: string; tags: string[] }>,
    from: number,
    to: number,
  ): Promise<Map<string, Array<[number, number]>>> {
    if (!this.deps.maintenance || monitors.length === 0 || to <= from) return new Map();
    return this.deps.maintenance.excludedIntervals(ctx.db, ctx.actor.organizationId, monitors, from, to);
  }

  private async incidentsOf(
    ctx: ServiceContext,
    monitors: readonly ReportMonitor[],
    window: Window,
  ): Promise<Map<string, Incident[]>> {
    const wanted = new Set(monitors.map((m) => m.id));
    const all = await readAll((cursor) =>
      this.deps.incidents.list(
        ctx,
        { source: 'monitor', from: window.from, to: window.to },
        { limit: 200, ...(cursor !== undefined && { cursor }) },
      ),
    );
    const out = new Map<string, Incident[]>();
    for (const i of all.sort((a, b) => a.openedAt - b.openedAt)) {
      if (i.monitorId === null || !wanted.has(i.monitorId)) continue;
      const list = out.get(i.monitorId) ?? [];
      list.push(i);
      out.set(i.monitorId, list);
    }
    return out;
  }

  private async anomaliesOf(
    ctx: ServiceContext,
    monitorIds: readonly string[],
    window: Window,
  ): Promise<Map<string, PerformanceMonitor['anomalies']>> {
    const out = new Map<string, PerformanceMonitor['anomalies']>();
    const source = this.deps.anomalies;
    if (!source || monitorIds.length === 0) return out;
    const wanted = new Set(monitorIds);
    const events = await readAll((cursor) =>
      source.list(
        ctx,
        { kind: 'anomaly_alert', from: window.from, to: window.to },
        { limit: 200, ...(cursor !== undefined && { cursor }) },
      ),
    );
    for (const e of events.sort((a, b) => a.startedAt - b.startedAt)) {
      if (!wanted.has(e.monitorId)) continue;
      const list = out.get(e.monitorId) ?? [];
      list.push({
        id: e.id,
        category: e.category,
        kind: e.kind,
        severity: e.severity,
        summary: e.summary,
        region_code: e.regionCode,
        started_at: toIso(e.startedAt),
        ended_at: toIsoOrNull(e.endedAt),
      });
      out.set(e.monitorId, list);
    }
    return out;
  }
}

/** `items.map(fn)`, letting the event loop run every 50 items: a report over 1,000 monitors must not hold checks up. */
async function mapYielding<T, U>(items: readonly T[], fn: (item: T) => U): Promise<U[]> {
  const out: U[] = [];
  for (let i = 0; i < items.length; i++) {
    if (i > 0 && i % 50 === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    out.push(fn(items[i]!));
  }
  return out;
}

function periodView(p: ResolvedPeriod): ReportPeriod {
  return { from: toIso(p.from), to: toIso(p.to), timezone: p.timezone, preset: p.preset };
}

function percentiles(f: CheckFigures | undefined): {
  p50_ms: number | null;
  p95_ms: number | null;
  p99_ms: number | null;
} {
  return percentilesOf(f?.sketch.quantiles(DAY_QUANTILES));
}

/** p50, p95 and p99 (DAY_QUANTILES, in that order) as the report shows them; all null without figures. */
function percentilesOf(quantiles: DayFigures['quantiles'] | undefined): {
  p50_ms: number | null;
  p95_ms: number | null;
  p99_ms: number | null;
} {
  if (!quantiles) return { p50_ms: null, p95_ms: null, p99_ms: null };
  const [p50, p95, p99] = quantiles;
  return { p50_ms: ms1(p50 ?? null), p95_ms: ms1(p95 ?? null), p99_ms: ms1(p99 ?? null) };
}

/**
 * An incident as the availability report lists it: its duration runs from the first failing check (the `since`
 * of the down verdict that opened it) to its resolution (or now while open).
 */
function incidentView(i: Incident, spans: readonly Span[], now: number): AvailabilityMonitor['incidents'][number] {
  const downSpan = spans.find((s) => s.state === 'down' && s.start <= i.openedAt && s.end >= i.openedAt);
  const start = downSpan ? Math.min(downSpan.start, i.openedAt) : i.openedAt;
  const end = i.resolvedAt ?? now;
  return {
    id: i.id,
    number: i.number,
    opened_at: toIso(i.openedAt),
    down_since: toIso(start),
    resolved_at: toIsoOrNull(i.resolvedAt),
    duration_seconds: seconds(Math.max(0, end - start)),
    cause: i.cause,
  };
}
