import { toIso, toIsoOrNull } from '../../platform/clock.ts';
import { canSeeEnvironment, type ServiceContext } from '../auth/index.ts';
import { INTELLIGENCE_CATEGORIES, INTELLIGENCE_SEVERITIES, type IntelligenceEvent } from '../intelligence/index.ts';
import type { Plans } from '../orgs/index.ts';
import { MonitorTimelineRepository } from './monitor-timeline.repository.ts';
import { resolvePeriod, selectMonitors, type ReportInput } from './report.request.ts';
import type { ReportAnomalies } from './report.sources.ts';
import type { IntelligenceReport, IntelligenceReportEvent } from './intelligence.report.types.ts';
import { periodView } from './report.view.ts';
import type { Window } from './report.period.ts';

/**
 * Whether an event belongs to [from, to): it started inside, or it started before and lasted into it (an anomaly
 * or grade drop still open, or one that ended at or after `from`). A change is a point in time: only inside.
 */
export function eventInWindow(e: Pick<IntelligenceEvent, 'kind' | 'startedAt' | 'endedAt'>, w: Window): boolean {
  if (e.startedAt >= w.to) return false;
  if (e.startedAt >= w.from) return true;
  if (e.endedAt !== null) return e.endedAt >= w.from;
  return e.kind !== 'significant_change';
}

/** The intelligence report (DECISIONS §11): events of the period, counted by category and monitor, correlations. */
export class IntelligenceReports {
  private readonly plans: Plans;
  private readonly intelligence: ReportAnomalies | null;
  constructor(deps: { plans: Plans; intelligence: ReportAnomalies | null }) {
    this.plans = deps.plans;
    this.intelligence = deps.intelligence;
  }

  async report(ctx: ServiceContext, input: ReportInput): Promise<IntelligenceReport> {
    this.plans.requireReports(ctx.actor.plan);
    const now = ctx.clock.now();
    const period = resolvePeriod(input, now);
    const repo = new MonitorTimelineRepository(ctx.db);
    const filtered = (input.monitorIds?.length ?? 0) > 0 || (input.tags?.length ?? 0) > 0;
    const chosen = filtered ? new Set((await selectMonitors(repo, ctx.actor, input, period)).map((m) => m.id)) : null;
    const source = this.intelligence;
    const [rawEvents, rawCorrelations] = source
      ? await Promise.all([
          source.listDuring(ctx, { from: period.from, to: period.to }),
          source.correlations(ctx, period.from, period.to),
        ])
      : [[], []];
    // The reports' copy of each monitor knows the environment of deleted monitors too (the intelligence module's
    // scoping cannot see those): events of monitors outside the key's environments never appear.
    const monitorIds = [
      ...new Set([...rawEvents.map((e) => e.monitorId), ...rawCorrelations.flatMap((c) => c.monitorIds)]),
    ];
    const known = new Map((await repo.monitorsByIds(ctx.actor.organizationId, monitorIds)).map((m) => [m.id, m]));
    const visible = (id: string) => {
      const m = known.get(id);
      return m === undefined || canSeeEnvironment(ctx.actor, m.environment);
    };
    const wanted = (id: string) => visible(id) && (chosen === null || chosen.has(id));
    const events = rawEvents
      .filter((e) => wanted(e.monitorId) && eventInWindow(e, period))
      .sort((a, b) => a.startedAt - b.startedAt || a.id.localeCompare(b.id))
      .map((e) => eventView(e, known.get(e.monitorId)?.name ?? null));
    const byCategory = Object.fromEntries(INTELLIGENCE_CATEGORIES.map((c) => [c, 0])) as Record<string, number>;
    const bySeverity = Object.fromEntries(INTELLIGENCE_SEVERITIES.map((c) => [c, 0])) as Record<string, number>;
    const byMonitor: Record<string, number> = {};
    for (const e of events) {
      byCategory[e.category] = (byCategory[e.category] ?? 0) + 1;
      bySeverity[e.severity] = (bySeverity[e.severity] ?? 0) + 1;
      byMonitor[e.monitor_id] = (byMonitor[e.monitor_id] ?? 0) + 1;
    }
    const correlations = rawCorrelations
      .map((c) => ({ ...c, monitorIds: c.monitorIds.filter(visible) }))
      .filter((c) => c.monitorIds.length > 0 && (chosen === null || c.monitorIds.some((id) => chosen.has(id))))
      .sort((a, b) => a.startedAt - b.startedAt || a.id.localeCompare(b.id))
      .map((c) => {
        const members = new Set(c.monitorIds);
        const w = { from: c.startedAt, to: c.lastSeenAt + 1 };
        return {
          id: c.id,
          monitor_ids: c.monitorIds,
          shared: { attribute: c.attribute, value: c.value },
          window: { from: toIso(c.startedAt), to: toIso(c.lastSeenAt) },
          events: events.filter((e) => members.has(e.monitor_id) && eventInWindow(eventTimes(e), w)).map((e) => e.id),
          coverage: c.coverage,
          summary: c.summary,
        };
      });
    return {
      report: 'intelligence',
      period: periodView(period),
      generated_at: toIso(now),
      methodology: INTELLIGENCE_METHODOLOGY,
      summary: { events: events.length, by_category: byCategory, by_severity: bySeverity, by_monitor: byMonitor },
      events,
      correlations,
    };
  }
}

function eventTimes(e: IntelligenceReportEvent): Pick<IntelligenceEvent, 'kind' | 'startedAt' | 'endedAt'> {
  return {
    kind: e.kind,
    startedAt: Date.parse(e.started_at),
    endedAt: e.ended_at === null ? null : Date.parse(e.ended_at),
  };
}

/** The event as GET /intelligence/events presents it, plus the monitor's name. */
function eventView(e: IntelligenceEvent, monitorName: string | null): IntelligenceReportEvent {
  return {
    id: e.id,
    monitor_id: e.monitorId,
    monitor_name: monitorName,
    region_code: e.regionCode,
    category: e.category,
    kind: e.kind,
    severity: e.severity,
    summary: e.summary,
    before: e.before,
    after: e.after,
    started_at: toIso(e.startedAt),
    ended_at: toIsoOrNull(e.endedAt),
    incident_id: e.incidentId,
    created_at: toIso(e.createdAt),
  };
}

export const INTELLIGENCE_METHODOLOGY =
  'Intelligence events of the period [from, to): those that started in it, and anomalies, flapping, slow periods ' +
  'and grade drops that started before and were still open at its start; a change is a point in time. Counted by ' +
  'category, severity and monitor. Correlations are those seen in the period (monitors failing or turning ' +
  'anomalous together that share an attribute); their events are the listed events of their monitors inside the ' +
  "correlation's window.";
