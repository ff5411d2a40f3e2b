import { toIso, toIsoOrNull } from '../../platform/clock.ts';
import { canSeeEnvironment, type ServiceContext } from '../auth/index.ts';
import {
  INCIDENT_SOURCES,
  outageStart,
  type Incident,
  type IncidentKey,
  type IncidentSource,
} from '../incidents/index.ts';
import type { Plans } from '../orgs/index.ts';
import { MonitorTimelineRepository } from './monitor-timeline.repository.ts';
import { localDays } from './report.period.ts';
import { resolvePeriod, selectMonitors, type ReportInput, type ResolvedPeriod } from './report.request.ts';
import type { IncidentReportRow, IncidentsReport } from './incidents.report.types.ts';
import type { ReportIncidents } from './report.sources.ts';
import { periodView } from './report.view.ts';

/** One keyset page of incidents overlapping a window (IncidentsService.pageOverlapping fits). */
export type ReportIncidentPages = Pick<ReportIncidents, 'pageOverlapping'>;

/** What one incidents report or export covers, once its input is validated. */
export interface IncidentScope {
  period: ResolvedPeriod;
  /** Monitors chosen by monitor_ids/tags; null: every incident the key sees (monitor-less ones included). */
  monitorIds: ReadonlySet<string> | null;
  /** When the report was made: open incidents last until then. */
  now: number;
}

/** Rows read per round trip of the keyset paging. */
export const INCIDENT_PAGE = 2000;
/** A monitor filter up to this size goes into the query; a longer one is applied to the rows read. */
const IN_QUERY_MAX = 500;

const seconds = (ms: number) => Math.round(ms) / 1000;

/** Incidents report and the streamed export (DECISIONS §8, §11): both read the same keyset pages. */
export class IncidentsReports {
  private readonly plans: Plans;
  private readonly incidents: ReportIncidentPages;
  constructor(deps: { plans: Plans; incidents: ReportIncidentPages }) {
    this.plans = deps.plans;
    this.incidents = deps.incidents;
  }

  /** Plan gate, period and monitor filter; throws the 403/422 before anything is read or streamed. */
  async scope(ctx: ServiceContext, input: ReportInput): Promise<IncidentScope> {
    this.plans.requireReports(ctx.actor.plan);
    const now = ctx.clock.now();
    const period = resolvePeriod(input, now);
    const filtered = (input.monitorIds?.length ?? 0) > 0 || (input.tags?.length ?? 0) > 0;
    if (!filtered) return { period, monitorIds: null, now };
    const monitors = await selectMonitors(new MonitorTimelineRepository(ctx.db), ctx.actor, input, period);
    return { period, monitorIds: new Set(monitors.map((m) => m.id)), now };
  }

  /**
   * The incidents of the scope as report rows, page by page in opening order (opened_at, then id): one page of
   * incidents, the environments of their monitors and the first failures of their outages in memory at a time.
   */
  async *pages(ctx: ServiceContext, scope: IncidentScope): AsyncGenerator<IncidentReportRow[]> {
    const ids = scope.monitorIds;
    if (ids !== null && ids.size === 0) return;
    const window = {
      from: scope.period.from,
      to: scope.period.to,
      ...(ids !== null && ids.size <= IN_QUERY_MAX && { monitorIds: [...ids] }),
    };
    const timeline = new MonitorTimelineRepository(ctx.db);
    let after: IncidentKey | undefined;
    for (;;) {
      const page = await this.incidents.pageOverlapping(ctx, window, after, INCIDENT_PAGE);
      let rows = ids === null ? page.data : page.data.filter((i) => i.monitorId !== null && ids.has(i.monitorId));
      rows = await this.visible(ctx, timeline, rows);
      if (rows.length > 0) {
        const since = await timeline.downSince(
          rows
            .filter((i) => i.source === 'monitor' && i.monitorId !== null)
            .map((i) => ({ monitorId: i.monitorId!, at: i.openedAt })),
        );
        yield rows.map((i) => incidentRow(i, since.get(`${i.monitorId}@${i.openedAt}`) ?? i.openedAt, scope.now));
      }
      if (page.last === null) return;
      after = page.last;
    }
  }

  async report(ctx: ServiceContext, input: ReportInput): Promise<IncidentsReport> {
    const scope = await this.scope(ctx, input);
    const rows: IncidentReportRow[] = [];
    for await (const page of this.pages(ctx, scope)) rows.push(...page);
    return incidentsReportOf(scope, rows);
  }

  /**
   * Incidents of monitors outside the key's environments never appear, also when the monitor was deleted since
   * (the incidents module no longer knows its environment; the reports' copy of the monitor does).
   */
  private async visible(
    ctx: ServiceContext,
    timeline: MonitorTimelineRepository,
    rows: Incident[],
  ): Promise<Incident[]> {
    const monitorIds = [...new Set(rows.map((i) => i.monitorId).filter((m): m is string => m !== null))];
    if (monitorIds.length === 0) return rows;
    const known = await timeline.monitorsByIds(ctx.actor.organizationId, monitorIds);
    const hidden = new Set(known.filter((m) => !canSeeEnvironment(ctx.actor, m.environment)).map((m) => m.id));
    return hidden.size === 0 ? rows : rows.filter((i) => i.monitorId === null || !hidden.has(i.monitorId));
  }
}

/** An incident as the incidents report and the export show it. */
export function incidentRow(i: Incident, downSince: number, now: number): IncidentReportRow {
  // Incidents record their outage's start since 202611281500; older ones take it from the monitor's timeline.
  const start = i.downSince !== null ? outageStart(i) : Math.min(downSince, i.openedAt);
  return {
    id: i.id,
    number: i.number,
    title: i.title,
    source: i.source,
    monitor_id: i.monitorId,
    cause: i.cause,
    status: i.status,
    opened_at: toIso(i.openedAt),
    down_since: toIso(start),
    acknowledged_at: toIsoOrNull(i.acknowledgedAt),
    resolved_at: toIsoOrNull(i.resolvedAt),
    duration_seconds: seconds(Math.max(0, (i.resolvedAt ?? now) - start)),
    time_to_acknowledge_seconds: i.acknowledgedAt === null ? null : seconds(i.acknowledgedAt - i.openedAt),
    time_to_resolve_seconds: i.resolvedAt === null ? null : seconds(i.resolvedAt - i.openedAt),
  };
}

function mean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  return Math.round((values.reduce((s, v) => s + v, 0) / values.length) * 1000) / 1000;
}

/** The middle value; with an even count, the mean of the two middle ones. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  const m = s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
  return Math.round(m * 1000) / 1000;
}

/**
 * The summary and days of incident rows added one at a time: the report adds them all, the streamed export page by
 * page as it writes them (keeping only the times to acknowledge and resolve, for the medians).
 */
export class IncidentsTally {
  private readonly scope: IncidentScope;
  private readonly bySource = Object.fromEntries(INCIDENT_SOURCES.map((s) => [s, 0])) as Record<IncidentSource, number>;
  private readonly tta: number[] = [];
  private readonly ttr: number[] = [];
  private readonly days: ReturnType<typeof localDays>;
  private readonly opened: number[];
  private readonly end: number;
  private count = 0;
  private openNow = 0;
  private openAtEnd = 0;

  constructor(scope: IncidentScope) {
    this.scope = scope;
    this.days = localDays(scope.period, scope.period.timezone);
    this.opened = this.days.map(() => 0);
    this.end = Math.min(scope.period.to, scope.now);
  }

  add(r: IncidentReportRow): void {
    this.count += 1;
    this.bySource[r.source] += 1;
    if (r.time_to_acknowledge_seconds !== null) this.tta.push(r.time_to_acknowledge_seconds);
    if (r.time_to_resolve_seconds !== null) this.ttr.push(r.time_to_resolve_seconds);
    const openedAt = Date.parse(r.opened_at);
    const resolvedAt = r.resolved_at === null ? null : Date.parse(r.resolved_at);
    if (resolvedAt === null) this.openNow += 1;
    if (openedAt < this.end && (resolvedAt === null || resolvedAt > this.end)) this.openAtEnd += 1;
    const day = dayIndex(this.days, openedAt);
    if (day !== -1) this.opened[day]! += 1;
  }

  /** The report's fields before its incidents (the export writes them first). */
  head(): Pick<IncidentsReport, 'report' | 'period' | 'generated_at' | 'methodology'> {
    return {
      report: 'incidents',
      period: periodView(this.scope.period),
      generated_at: toIso(this.scope.now),
      methodology: INCIDENTS_METHODOLOGY,
    };
  }

  summary(): IncidentsReport['summary'] {
    return {
      count: this.count,
      by_source: { ...this.bySource },
      mtta_seconds: mean(this.tta),
      mttr_seconds: mean(this.ttr),
      median_tta_seconds: median(this.tta),
      median_ttr_seconds: median(this.ttr),
      opened: this.opened.reduce((s, n) => s + n, 0),
      acknowledged: this.tta.length,
      resolved: this.ttr.length,
      open: this.openNow,
      open_at_period_end: this.openAtEnd,
    };
  }

  daily(): IncidentsReport['daily'] {
    return this.days.map((d, i) => ({ date: d.date, opened: this.opened[i]! }));
  }
}

/** Summary and days of a list of incident rows (pure: the scenario tests work its figures out by hand). */
export function incidentsReportOf(scope: IncidentScope, rows: readonly IncidentReportRow[]): IncidentsReport {
  const tally = new IncidentsTally(scope);
  for (const r of rows) tally.add(r);
  return { ...tally.head(), summary: tally.summary(), incidents: [...rows], daily: tally.daily() };
}

function dayIndex(days: ReadonlyArray<{ from: number; to: number }>, at: number): number {
  let lo = 0;
  let hi = days.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const d = days[mid]!;
    if (at < d.from) hi = mid - 1;
    else if (at >= d.to) lo = mid + 1;
    else return mid;
  }
  return -1;
}

export const INCIDENTS_METHODOLOGY =
  'Incidents whose time overlaps the period [from, to): opened before its end and not resolved at or before its ' +
  'start, of every source, as they stand when the report is made. time_to_acknowledge = acknowledged_at − opened_at, ' +
  'time_to_resolve = resolved_at − opened_at; MTTA and MTTR are their means over the incidents that have them ' +
  '(an incident still open has no time to resolve and is counted in open). duration runs from the first failing ' +
  'check of the outage (down_since) to the resolution, or to now while open.';
