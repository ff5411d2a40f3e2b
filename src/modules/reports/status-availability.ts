import type { Database } from '../../platform/db/index.ts';
import { accountingOf, spansOf, uptimePercent, withMaintenance, type Span } from './availability.accounting.ts';
import { MonitorTimelineRepository } from './monitor-timeline.repository.ts';
import { localDays, periodContaining, type SlaPeriod } from './report.period.ts';
import { evaluateSlaTarget } from './sla.evaluation.ts';
import { SlaTargetsRepository, type SlaTarget } from './sla-targets.repository.ts';
import type { ReportMaintenance } from './reports.service.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Public pages count their days and SLA periods in UTC: a page has no time zone of its own. */
const TIMEZONE = 'UTC';
/** Read at most this many targets of an organization for a page (a page shows few; this bounds a public request). */
const TARGETS_MAX = 1000;

/** The trailing windows a public page shows (the presets last_24_hours … last_90_days: N × 24 h before now). */
export const STATUS_WINDOWS = [
  { key: 'last_24_hours', ms: DAY_MS },
  { key: 'last_7_days', ms: 7 * DAY_MS },
  { key: 'last_30_days', ms: 30 * DAY_MS },
  { key: 'last_90_days', ms: 90 * DAY_MS },
] as const;
export type StatusWindow = (typeof STATUS_WINDOWS)[number]['key'];

/** One UTC day of a monitor, accounted as the availability report accounts it (time-based, paused excluded). */
export interface StatusDay {
  /** YYYY-MM-DD (UTC). */
  date: string;
  /** null: nothing monitored that day (before the monitor existed, paused, or no verdict yet). */
  uptimePercent: number | null;
  downtimeSeconds: number;
  monitoredSeconds: number;
  pausedSeconds: number;
  /** Time inside maintenance windows that exclude their time from the SLA: neither up nor down (DECISIONS §16). */
  maintenanceSeconds: number;
}

export interface StatusMonitorAvailability {
  days: StatusDay[];
  /** Uptime per trailing window; null when nothing was monitored in it. */
  windows: Record<StatusWindow, number | null>;
}

/** An SLA target's current calendar period (UTC), as the SLA report's `current` computes it. */
export interface StatusSlaAchievement {
  id: string;
  name: string;
  targetPercent: number;
  period: SlaPeriod;
  monitorIds: string[];
  from: number;
  to: number;
  achievedPercent: number | null;
  /** Always null: the current period is not over, so it is neither met nor missed (kept for the JSON's `met`). */
  met: null;
  status: 'in_progress' | 'no_data';
  errorBudgetRemainingPercent: number | null;
  /** 100 × downtime so far / the period's budget (over 100 when overspent); null without a budget. */
  errorBudgetUsedPercent: number | null;
  /** The whole budget is spent: the period can no longer meet its target; null with nothing monitored. */
  errorBudgetExhausted: boolean | null;
}

const pct = (v: number | null) => (v === null ? null : Math.round(v * 1e5) / 1e5);

function uptimeOf(spans: readonly Span[], from: number, to: number): number | null {
  const a = accountingOf(spans, from, to);
  return pct(uptimePercent(a.upMs, a.upMs + a.downMs));
}

/**
 * Availability for public status pages, from the same monitor timelines and the same accounting as the
 * availability and SLA reports (availability.accounting.ts): no second formula. It reads state transitions only
 * (a few rows per monitor and outage), never executions. No plan gate: status pages exist on every plan.
 */
export class StatusAvailability {
  private readonly database: Database;
  private readonly maintenance: ReportMaintenance | null;
  /**
   * `maintenance`: the windows that exclude their time from the SLA, as the availability report reads them (the
   * maintenance module's MaintenanceService); null: none, every moment counts.
   */
  constructor(deps: { database: Database; maintenance?: ReportMaintenance | null }) {
    this.database = deps.database;
    this.maintenance = deps.maintenance ?? null;
  }

  /** Uptime of one monitor in [from, to) with the same accounting (monitor badges, DECISIONS §18); null: none. */
  async uptimeOver(monitorId: string, from: number, to: number): Promise<number | null> {
    const timelines = await new MonitorTimelineRepository(this.database).timelines([monitorId], from, to);
    return uptimeOf(spansOf(timelines.get(monitorId) ?? [], to), from, to);
  }

  /**
   * Per monitor: the last `days` UTC days (oldest first, today up to now) and the trailing windows, plus the
   * current period of each SLA target of `organizationId` whose monitors are all among `monitorIds` when
   * `withSlaTargets` (a target that also covers monitors not on the page would reveal them, so it is left out).
   */
  async of(input: {
    organizationId: string;
    monitorIds: readonly string[];
    now: number;
    days: number;
    withSlaTargets: boolean;
  }): Promise<{
    monitors: Map<string, StatusMonitorAvailability>;
    slaTargets: StatusSlaAchievement[];
    /**
     * When the outage of an incident opened at `openedAt` began: the start of the down span it opened in, as the
     * availability report dates incidents (the first failing check); null when the timeline shows none there.
     */
    outageStart: (monitorId: string, openedAt: number) => number | null;
  }> {
    const { now, monitorIds } = input;
    const barFrom = Math.floor(now / DAY_MS) * DAY_MS - (input.days - 1) * DAY_MS;
    const windowFrom = now - Math.max(...STATUS_WINDOWS.map((w) => w.ms));
    const onPage = new Set(monitorIds);
    // Every SLA period (at most a quarter) starts at or after the current quarter's start: the timelines are read
    // from there, together with the targets, instead of after them.
    const from = Math.min(barFrom, windowFrom, periodContaining('quarterly', now, TIMEZONE).from);
    const [targets, timelines, excluded] = await Promise.all([
      input.withSlaTargets && monitorIds.length > 0 ? this.targetsWithin(input.organizationId, onPage) : [],
      new MonitorTimelineRepository(this.database).timelines(monitorIds, from, now),
      this.excludedIntervals(input.organizationId, monitorIds, from, now),
    ]);
    const raw = new Map(monitorIds.map((id) => [id, spansOf(timelines.get(id) ?? [], now)]));
    // The same spans as the availability and SLA reports: maintenance excluded from the SLA is neither up nor down.
    const spans = new Map(monitorIds.map((id) => [id, withMaintenance(raw.get(id)!, excluded.get(id) ?? [])]));
    const days = localDays({ from: barFrom, to: now }, TIMEZONE);
    const monitors = new Map<string, StatusMonitorAvailability>();
    for (const id of monitorIds) {
      const s = spans.get(id)!;
      monitors.set(id, {
        days: days.map((d) => {
          const a = accountingOf(s, d.from, d.to);
          return {
            date: d.date,
            uptimePercent: pct(uptimePercent(a.upMs, a.upMs + a.downMs)),
            downtimeSeconds: a.downMs / 1000,
            monitoredSeconds: (a.upMs + a.downMs) / 1000,
            pausedSeconds: a.pausedMs / 1000,
            maintenanceSeconds: a.maintenanceMs / 1000,
          };
        }),
        windows: Object.fromEntries(STATUS_WINDOWS.map((w) => [w.key, uptimeOf(s, now - w.ms, now)])) as Record<
          StatusWindow,
          number | null
        >,
      });
    }
    const slaTargets = targets.map((t) => {
      const r = evaluateSlaTarget(t, {
        spansOf: (id) => spans.get(id) ?? [],
        nameOf: (id) => id,
        exists: true, // every monitor of the target is on the page, and the page lists existing monitors only
        now,
        range: { from: now, to: now },
        timezone: TIMEZONE,
      });
      const period = periodContaining(t.period, now, TIMEZONE);
      return {
        id: t.id,
        name: t.name,
        targetPercent: t.targetPercent,
        period: t.period,
        monitorIds: t.monitorIds,
        from: period.from,
        to: period.to,
        achievedPercent: r.current.achieved_percent,
        met: null,
        status: r.current.status,
        errorBudgetRemainingPercent: r.current.error_budget_remaining_percent,
        errorBudgetUsedPercent: r.current.error_budget_used_percent,
        errorBudgetExhausted: r.current.error_budget_exhausted,
      };
    });
    const outageStart = (monitorId: string, openedAt: number): number | null => {
      // The failure's start as the timeline recorded it (a window may hide part of the outage in `spans`).
      const down = (raw.get(monitorId) ?? []).find(
        (x) => x.state === 'down' && x.start <= openedAt && x.end >= openedAt,
      );
      return down ? down.start : null;
    };
    return { monitors, slaTargets, outageStart };
  }

  /** Per monitor, the time in [from, to) of windows with `exclude_from_sla` (monitors' tags read for tag windows). */
  private async excludedIntervals(
    organizationId: string,
    monitorIds: readonly string[],
    from: number,
    to: number,
  ): Promise<Map<string, Array<[number, number]>>> {
    if (!this.maintenance || monitorIds.length === 0 || to <= from) return new Map();
    const monitors = await new MonitorTimelineRepository(this.database).monitorsByIds(organizationId, monitorIds);
    return this.maintenance.excludedIntervals(this.database, organizationId, monitors, from, to);
  }

  private async targetsWithin(organizationId: string, onPage: ReadonlySet<string>): Promise<SlaTarget[]> {
    const repository = new SlaTargetsRepository(this.database);
    const out: SlaTarget[] = [];
    let after: string | undefined;
    for (let read = 0; read < TARGETS_MAX;) {
      const batch = await repository.list(organizationId, after, 200);
      read += batch.length;
      out.push(...batch.filter((t) => t.monitorIds.length > 0 && t.monitorIds.every((id) => onPage.has(id))));
      if (batch.length < 200) break;
      after = batch[batch.length - 1]!.id;
    }
    return out;
  }
}
