import { toIso } from '../../platform/clock.ts';
import { accountingOf, combinedAccounting, uptimePercent, type Span } from './availability.accounting.ts';
import { periodContaining, periodsOverlapping, type Window } from './report.period.ts';
import type { SlaReportTarget } from './report.types.ts';
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
 * with its error budget and burn rate, the earlier periods in the range, and each monitor alone.
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
      met: sofar.monitoredMs === 0 ? null : remainingMs >= 0,
      error_budget_seconds: seconds(budgetMs),
      error_budget_used_seconds: seconds(sofar.downMs),
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
