import { toIso } from '../../platform/clock.ts';
import { accountingOf, combinedAccounting, uptimePercent, type Span } from './availability.accounting.ts';
import { periodContaining, periodsOverlapping, type Window } from './report.period.ts';
import type { SlaReport, SlaReportTarget } from './report.types.ts';
import type { SlaTarget } from './sla-targets.repository.ts';

export interface SlaEvaluationInput {
  spansOf(monitorId: string): readonly Span[];
  nameOf(monitorId: string): string;
  /** Whether a monitor of the target still exists (the rest of the current period then counts in its budget). */
  exists: boolean;
  now: number;
  /** The report's window: earlier periods that overlap it are listed. */
  range: Window;
  timezone: string;
}

const seconds = (ms: number) => ms / 1000;
const pct = (v: number | null) => (v === null ? null : Math.round(v * 1e5) / 1e5);

/**
 * One target (DECISIONS §8, §11): its monitors judged together (down when one is down), the current calendar period
 * with its error budget and burn rate (in progress: neither met nor missed), the earlier periods in the range (met or
 * missed), and each monitor alone.
 */
export function evaluateSlaTarget(t: SlaTarget, input: SlaEvaluationInput): SlaReportTarget {
  const { now, timezone } = input;
  const members = t.monitorIds.map((id) => input.spansOf(id));
  const current = periodContaining(t.period, now, timezone);
  const budgetFraction = 1 - t.targetPercent / 100;
  const sofar = combinedAccounting(members, current.from, now);
  // The whole period's monitored time: what was monitored so far plus the rest of the period while a monitor of the
  // target exists (not only the elapsed part, so the budget does not grow day by day).
  const wholeMs = sofar.monitoredMs + (input.exists ? current.to - now : 0);
  const budgetMs = budgetFraction * wholeMs;
  const remainingMs = budgetMs - sofar.downMs;
  const monitored = sofar.monitoredMs > 0;
  return {
    sla_target_id: t.id,
    name: t.name,
    target_percent: t.targetPercent,
    period: t.period,
    combine: 'any_down',
    current: {
      from: toIso(current.from),
      to: toIso(current.to),
      elapsed_seconds: seconds(now - current.from),
      monitored_seconds: seconds(sofar.monitoredMs),
      downtime_seconds: seconds(sofar.downMs),
      achieved_percent: pct(uptimePercent(sofar.monitoredMs - sofar.downMs, sofar.monitoredMs)),
      // The period is not over: whether it is met is not known yet (downtime may still come), so it claims neither;
      // what is known is how much of its budget is spent, and whether all of it already is.
      met: null,
      status: monitored ? 'in_progress' : 'no_data',
      error_budget_seconds: seconds(budgetMs),
      error_budget_used_seconds: seconds(sofar.downMs),
      error_budget_used_percent: budgetMs > 0 ? pct((100 * sofar.downMs) / budgetMs) : null,
      error_budget_exhausted: monitored ? remainingMs <= 0 : null,
      error_budget_remaining_seconds: seconds(remainingMs),
      error_budget_remaining_percent: budgetMs > 0 ? pct((100 * remainingMs) / budgetMs) : null,
      burn_rate: sofar.monitoredMs === 0 ? null : pct(sofar.downMs / sofar.monitoredMs / budgetFraction),
    },
    periods: periodsOverlapping(t.period, input.range, timezone)
      .filter((p) => p.to <= current.from)
      .map((p) => {
        const c = combinedAccounting(members, p.from, p.to);
        const achieved = uptimePercent(c.monitoredMs - c.downMs, c.monitoredMs);
        return {
          from: toIso(p.from),
          to: toIso(p.to),
          monitored_seconds: seconds(c.monitoredMs),
          downtime_seconds: seconds(c.downMs),
          achieved_percent: pct(achieved),
          met: achieved === null ? null : achieved >= t.targetPercent,
          status: achieved === null ? 'no_data' : achieved >= t.targetPercent ? 'met' : 'missed',
        };
      }),
    monitors: t.monitorIds.map((id) => {
      const a = accountingOf(input.spansOf(id), current.from, now);
      return {
        monitor_id: id,
        name: input.nameOf(id),
        achieved_percent: pct(uptimePercent(a.upMs, a.upMs + a.downMs)),
        downtime_seconds: seconds(a.downMs),
      };
    }),
  };
}

/**
 * The SLA report's summary: current periods in progress (of them with the budget exhausted) or without data, and the
 * earlier, finished periods listed that were met or missed (a period still running is neither).
 */
export function slaSummary(targets: readonly SlaReportTarget[]): SlaReport['summary'] {
  const periods = targets.flatMap((t) => t.periods);
  return {
    targets: targets.length,
    in_progress: targets.filter((t) => t.current.status === 'in_progress').length,
    budget_exhausted: targets.filter((t) => t.current.error_budget_exhausted === true).length,
    no_data: targets.filter((t) => t.current.status === 'no_data').length,
    met: periods.filter((p) => p.status === 'met').length,
    missed: periods.filter((p) => p.status === 'missed').length,
  };
}
