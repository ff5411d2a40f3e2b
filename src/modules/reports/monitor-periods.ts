import { notFound, validationFailed } from '../../platform/errors.ts';
import { canSeeEnvironment, type ServiceContext } from '../auth/index.ts';
import type { Incident } from '../incidents/index.ts';
import { spansOf, withMaintenance, type Span } from './availability.accounting.ts';
import { MonitorTimelineRepository } from './monitor-timeline.repository.ts';
import type { ReportIncidents } from './report.sources.ts';

/** The states a chart shades; up and no-data time are left out (the line itself shows them). */
export type PeriodState = 'down' | 'degraded' | 'maintenance' | 'paused';

export interface MonitorStatePeriod {
  state: PeriodState;
  /** Clipped to the range asked for. */
  start: number;
  end: number;
}

export interface MonitorPeriods {
  from: number;
  to: number;
  periods: MonitorStatePeriod[];
  /** Incidents of the monitor overlapping [from, to), in opening order (not clipped). */
  incidents: Incident[];
}

/** The same bound as a report's period: one call never reads more than 400 days of timeline. */
const MAX_RANGE_MS = 400 * 86_400_000;

/** What the periods read besides the timeline: every maintenance window covering the monitor (MaintenanceService fits). */
export interface PeriodMaintenance {
  coveredIntervals(
    db: ServiceContext['db'],
    organizationId: string,
    monitors: ReadonlyArray<{ id: string; tags: string[] }>,
    from: number,
    to: number,
  ): Promise<Map<string, Array<[number, number]>>>;
}

/**
 * A monitor's down, degraded, maintenance and paused periods over [from, to) and the incidents overlapping it: what
 * a latency chart shades. The spans come from the availability accounting (the same timeline reports count), with
 * the time of every maintenance window covering the monitor laid over them (not only windows excluded from the SLA:
 * the chart shows when the monitor was in maintenance, whatever the SLA counts).
 */
export async function monitorPeriods(
  ctx: ServiceContext,
  deps: { incidents: ReportIncidents; maintenance: PeriodMaintenance | null },
  monitorId: string,
  range: { from: number; to: number },
): Promise<MonitorPeriods> {
  const { from, to } = range;
  if (!(from < to)) throw validationFailed([{ field: 'from', issue: 'must be before to' }]);
  if (to - from > MAX_RANGE_MS) throw validationFailed([{ field: 'to', issue: 'the range covers at most 400 days' }]);
  const repo = new MonitorTimelineRepository(ctx.db);
  const [monitor] = await repo.monitorsByIds(ctx.actor.organizationId, [monitorId]);
  if (!monitor || monitor.deletedAt !== null || !canSeeEnvironment(ctx.actor, monitor.environment)) {
    throw notFound('Monitor');
  }
  // The future is not known: the spans end now (a range reaching past it shades nothing there).
  const until = Math.min(to, ctx.clock.now());
  const periods: MonitorStatePeriod[] = [];
  if (until > from) {
    const timeline = (await repo.timelines([monitor.id], from, until)).get(monitor.id) ?? [];
    const covered = deps.maintenance
      ? ((await deps.maintenance.coveredIntervals(ctx.db, ctx.actor.organizationId, [monitor], from, until)).get(
          monitor.id,
        ) ?? [])
      : [];
    for (const s of withMaintenance(spansOf(timeline, until), covered)) {
      const state = shadedState(s);
      if (state === null || s.end <= from) continue;
      const start = Math.max(s.start, from);
      const last = periods[periods.length - 1];
      if (last && last.state === state && last.end === start) last.end = s.end;
      else periods.push({ state, start, end: s.end });
    }
  }
  const incidents: Incident[] = [];
  let after: Parameters<ReportIncidents['pageOverlapping']>[2];
  for (;;) {
    const page = await deps.incidents.pageOverlapping(ctx, { from, to, monitorIds: [monitor.id] }, after, 200);
    incidents.push(...page.data.filter((i) => i.monitorId === monitor.id));
    if (!page.last) break;
    after = page.last;
  }
  return { from, to, periods, incidents };
}

function shadedState(s: Span): PeriodState | null {
  if (s.state === 'up') return s.degraded ? 'degraded' : null;
  if (s.state === 'down' || s.state === 'maintenance' || s.state === 'paused') return s.state;
  return null;
}
