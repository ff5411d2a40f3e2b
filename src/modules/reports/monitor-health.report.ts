import { toIso } from '../../platform/clock.ts';
import type { ServiceContext } from '../auth/index.ts';
import type { Incident, IncidentKey } from '../incidents/index.ts';
import type { Monitor } from '../monitors/index.ts';
import type { Plans } from '../orgs/index.ts';
import { spansOf, withMaintenance } from './availability.accounting.ts';
import type { ReportIncidentPages } from './incidents.report.ts';
import { MonitorTimelineRepository } from './monitor-timeline.repository.ts';
import { findingsOf, flappingOf, HEALTH_RULES } from './monitor-health.rules.ts';
import { HEALTH_FINDING_KINDS, type HealthFindingKind, type MonitorHealthReport } from './monitor-health.types.ts';
import { resolvePeriod, selectMonitors, type ReportInput } from './report.request.ts';
import { figuresFromRollups } from './report.rollups.ts';
import type { ReportRollups } from './report.sources.ts';
import { periodView } from './report.view.ts';

/** The monitors' settings (interval, timeout) as the monitors module keeps them (MonitorsService fits). */
export interface ReportMonitorSettings {
  findManyAnywhere(ids: readonly string[]): Promise<Monitor[]>;
  /** Destination ids per monitor; monitors without any are absent. */
  alertDestinationIdsOf(organizationId: string, monitorIds: readonly string[]): Promise<Map<string, string[]>>;
}

export interface MonitorHealthDeps {
  plans: Plans;
  rollups: ReportRollups;
  incidents: ReportIncidentPages;
  /** Null: intervals default to 60 s; timeouts and alert destinations are not judged. */
  monitors: ReportMonitorSettings | null;
  /**
   * Per monitor, its time in [from, to) inside windows that exclude maintenance from the SLA (the availability
   * report's reading): flapping is judged on the same spans as uptime, maintenance neither up nor down.
   */
  maintenanceOf?: (
    ctx: ServiceContext,
    monitors: ReadonlyArray<{ id: string; tags: string[] }>,
    from: number,
    to: number,
  ) => Promise<Map<string, Array<[number, number]>>>;
}

const CHUNK = 500;
const DEFAULT_INTERVAL_S = 60;
/** The flapping history looks back at most this far before the window (21 states of the monitor's interval). */
const MAX_LOOKBACK_MS = 86_400_000;

/** The monitor-health report: reference/intelligence.md §7 applied to each monitor over the report's window. */
export class MonitorHealthReports {
  private readonly deps: MonitorHealthDeps;
  constructor(deps: MonitorHealthDeps) {
    this.deps = deps;
  }

  async report(ctx: ServiceContext, input: ReportInput): Promise<MonitorHealthReport> {
    this.deps.plans.requireReports(ctx.actor.plan);
    const now = ctx.clock.now();
    const period = resolvePeriod(input, now);
    const end = Math.min(period.to, now);
    const repo = new MonitorTimelineRepository(ctx.db);
    // Deleted monitors need no advice: only those that exist are judged.
    const monitors = (await selectMonitors(repo, ctx.actor, input, period)).filter((m) => m.deletedAt === null);
    const ids = monitors.map((m) => m.id);
    const settings = new Map(
      (this.deps.monitors ? await this.deps.monitors.findManyAnywhere(ids) : []).map((m) => [m.id, m]),
    );
    const links = this.deps.monitors
      ? await this.deps.monitors.alertDestinationIdsOf(ctx.actor.organizationId, ids)
      : null;
    const intervalMs = (id: string) => (settings.get(id)?.intervalSeconds ?? DEFAULT_INTERVAL_S) * 1000;
    const lookback = Math.min(MAX_LOOKBACK_MS, 21 * Math.max(0, ...ids.map(intervalMs)));
    const judged = period.from < end;
    const [timelines, incidents, window, everUp, excluded] = await Promise.all([
      repo.timelines(ids, period.from - lookback, end),
      judged ? this.incidentsOf(ctx, ids, period.from, end) : new Map<string, Incident[]>(),
      judged
        ? figuresFromRollups(this.deps.rollups, ids, { from: period.from, to: end }, 'UTC', { days: false, now })
        : null,
      repo.everUp(ids, end),
      this.deps.maintenanceOf
        ? this.deps.maintenanceOf(ctx, monitors, period.from - lookback, end)
        : new Map<string, Array<[number, number]>>(),
    ]);
    // Never succeeded needs the checks since creation, read (daily rollups) only for monitors without an up verdict.
    const candidates = monitors.filter((m) => !everUp.has(m.id) && m.createdAt < end);
    const sinceCreation =
      candidates.length === 0
        ? new Map()
        : await figuresFromRollups(
            this.deps.rollups,
            candidates.map((m) => m.id),
            { from: Math.min(...candidates.map((m) => m.createdAt)), to: end },
            'UTC',
            { days: false, now },
          );
    const rows = monitors.map((m) => {
      // Maintenance excluded from the SLA is neither up nor down here either: a monitor that flapped inside a
      // window (alerts held, the time not counted) is not called flapping for it.
      const spans = withMaintenance(spansOf(timelines.get(m.id) ?? [], end), excluded.get(m.id) ?? []);
      const last = spans[spans.length - 1];
      const monitor = settings.get(m.id);
      const config = monitor?.config as
        { timeout_ms?: unknown; confirm_regions?: unknown; failure_threshold?: unknown } | undefined;
      const regions = monitor ? monitor.regionCodes.length : null;
      const sketch = window?.get(m.id)?.total.sketch;
      const created = sinceCreation.get(m.id)?.total;
      const checks: number = created?.checks ?? 0;
      const failures: number = created?.failures ?? 0;
      const findings = judged
        ? findingsOf({
            from: period.from,
            end,
            incidents: (incidents.get(m.id) ?? []).map((i) => ({
              openedAt: i.openedAt,
              resolvedAt: i.resolvedAt,
              resolvedBy: i.resolvedBy,
              cause: i.cause,
            })),
            flapping: flappingOf(spans, intervalMs(m.id), period.from, end),
            intervalSeconds: intervalMs(m.id) / 1000,
            pausedSince: last !== undefined && last.state === 'paused' && last.end >= end ? last.start : null,
            timeoutMs: typeof config?.timeout_ms === 'number' ? config.timeout_ms : null,
            p95Ms: sketch && sketch.count > 0 ? sketch.quantile(0.95) : null,
            createdAt: m.createdAt,
            everSucceeded: everUp.has(m.id) || checks - failures > 0,
            checksSinceCreation: checks,
            destinations: links === null ? null : (links.get(m.id)?.length ?? 0),
            regions,
            // Unset: one region decides alone, several by majority (docs/monitors.md).
            confirmRegions:
              regions === null
                ? null
                : typeof config?.confirm_regions === 'number'
                  ? config.confirm_regions
                  : regions === 1
                    ? 1
                    : Math.floor(regions / 2) + 1,
            failureThreshold: typeof config?.failure_threshold === 'number' ? config.failure_threshold : null,
          })
        : [];
      return { monitor_id: m.id, name: m.name, findings };
    });
    rows.sort((a, b) => b.findings.length - a.findings.length || a.name.localeCompare(b.name));
    const counts = Object.fromEntries(HEALTH_FINDING_KINDS.map((k) => [k, 0])) as Record<HealthFindingKind, number>;
    for (const r of rows) for (const f of r.findings) counts[f.kind] += 1;
    return {
      report: 'monitor_health',
      period: periodView(period),
      generated_at: toIso(now),
      methodology: HEALTH_METHODOLOGY,
      summary: { monitors: rows.length, flagged: rows.filter((r) => r.findings.length > 0).length, findings: counts },
      monitors: rows,
    };
  }

  /** The incidents the system opened for these monitors inside [from, end) (sources monitor and intelligence). */
  private async incidentsOf(
    ctx: ServiceContext,
    ids: readonly string[],
    from: number,
    end: number,
  ): Promise<Map<string, Incident[]>> {
    const out = new Map<string, Incident[]>();
    for (let i = 0; i < ids.length; i += CHUNK) {
      const window = { from, to: end, monitorIds: ids.slice(i, i + CHUNK) };
      let after: IncidentKey | undefined;
      for (;;) {
        const page = await this.deps.incidents.pageOverlapping(ctx, window, after, CHUNK);
        for (const inc of page.data) {
          if (inc.monitorId === null || inc.openedAt < from) continue;
          if (inc.source !== 'monitor' && inc.source !== 'intelligence') continue;
          const list = out.get(inc.monitorId) ?? [];
          list.push(inc);
          out.set(inc.monitorId, list);
        }
        if (page.last === null) break;
        after = page.last;
      }
    }
    return out;
  }
}

export const HEALTH_METHODOLOGY =
  'Each existing monitor is judged over [from, min(to, now)) with the rules of reference/intelligence.md §7; ' +
  `limits stated per week are scaled to the window (× days / 7). Noisy: more than ${HEALTH_RULES.incidentsPerWeek} ` +
  'incidents a week opened by the system, or more than half of them resolved automatically within 5 minutes. ' +
  'Flapping: the Nagios percent state change of the confirmed up/down state (one state per check interval, ' +
  'last 21 states) reaches 30 % at some check, or flapping (30 % on, 25 % off) started at least 3 times a week. ' +
  'Misconfigured: paused for more than 60 days, no alert destination, a timeout below 1.5 × the p95 latency, or ' +
  'every incident caused ' +
  'by a redirect, 401/403, 404, a certificate for another host name or a failing content assertion. Never ' +
  'succeeded: no successful check since creation, after 24 hours or 20 checks. Time inside maintenance windows ' +
  'that exclude maintenance from the SLA is neither up nor down (as in the availability report): it breaks the ' +
  'flapping history like a pause, and incidents are not opened inside them. Figures come from the timeline, ' +
  'the incidents and the rollups, never from raw executions.';
