import { csvDocument, type CsvCell } from '../../platform/csv.format.ts';
import type { AvailabilityReport, PerformanceReport, SlaReport } from './report.types.ts';

export type Cell = CsvCell;

export const AVAILABILITY_CSV_COLUMNS = [
  'monitor_id',
  'name',
  'target',
  'uptime_percent',
  'downtime_seconds',
  'degraded_seconds',
  'paused_seconds',
  'no_data_seconds',
  'maintenance_seconds',
  'unmonitored_seconds',
  'monitored_seconds',
  'coverage_percent',
  'checks',
  'failed_checks',
  'incident_count',
  'longest_incident_seconds',
  'period_from',
  'period_to',
  'timezone',
] as const;

/** One row per monitor; the same figures as the JSON. */
export function availabilityCsv(r: AvailabilityReport): string {
  return csvDocument(AVAILABILITY_CSV_COLUMNS, availabilityRows(r));
}

export function availabilityRows(r: AvailabilityReport): Cell[][] {
  return r.monitors.map((m) => [
    m.monitor_id,
    m.name,
    m.target,
    m.uptime_percent,
    m.downtime_seconds,
    m.degraded_seconds,
    m.paused_seconds,
    m.no_data_seconds,
    m.maintenance_seconds,
    m.unmonitored_seconds,
    m.monitored_seconds,
    m.coverage_percent,
    m.checks,
    m.failed_checks,
    m.incident_count,
    m.longest_incident_seconds,
    r.period.from,
    r.period.to,
    r.period.timezone,
  ]);
}

export const PERFORMANCE_CSV_COLUMNS = [
  'monitor_id',
  'name',
  'target',
  'checks',
  'successful_checks',
  'mean_ms',
  'min_ms',
  'max_ms',
  'p50_ms',
  'p95_ms',
  'p99_ms',
  'previous_p50_ms',
  'previous_p95_ms',
  'previous_p99_ms',
  'trend_percent',
  'anomalies',
  'period_from',
  'period_to',
  'timezone',
] as const;

export function performanceCsv(r: PerformanceReport): string {
  return csvDocument(PERFORMANCE_CSV_COLUMNS, performanceRows(r));
}

export function performanceRows(r: PerformanceReport): Cell[][] {
  return r.monitors.map((m) => [
    m.monitor_id,
    m.name,
    m.target,
    m.checks,
    m.successful_checks,
    m.mean_ms,
    m.min_ms,
    m.max_ms,
    m.p50_ms,
    m.p95_ms,
    m.p99_ms,
    m.previous.p50_ms,
    m.previous.p95_ms,
    m.previous.p99_ms,
    m.trend_percent,
    m.anomalies.length,
    r.period.from,
    r.period.to,
    r.period.timezone,
  ]);
}

export const SLA_CSV_COLUMNS = [
  'sla_target_id',
  'name',
  'target_percent',
  'period',
  'combine',
  'current',
  'from',
  'to',
  'monitored_seconds',
  'downtime_seconds',
  'achieved_percent',
  'met',
  'status',
  'error_budget_seconds',
  'error_budget_used_percent',
  'error_budget_exhausted',
  'error_budget_remaining_seconds',
  'error_budget_remaining_percent',
  'burn_rate',
  'timezone',
] as const;

/**
 * One row per target period: the earlier periods (met or missed), then the current one (`current` true, with its
 * budget; in progress, so `met` empty).
 */
export function slaCsv(r: SlaReport): string {
  return csvDocument(SLA_CSV_COLUMNS, slaRows(r));
}

export function slaRows(r: SlaReport): Cell[][] {
  const rows: Cell[][] = [];
  for (const t of r.targets) {
    const head = [t.sla_target_id, t.name, t.target_percent, t.period, t.combine];
    for (const p of t.periods) {
      rows.push([
        ...head,
        false,
        p.from,
        p.to,
        p.monitored_seconds,
        p.downtime_seconds,
        p.achieved_percent,
        p.met,
        p.status,
        null,
        null,
        null,
        null,
        null,
        null,
        r.period.timezone,
      ]);
    }
    const c = t.current;
    rows.push([
      ...head,
      true,
      c.from,
      c.to,
      c.monitored_seconds,
      c.downtime_seconds,
      c.achieved_percent,
      c.met,
      c.status,
      c.error_budget_seconds,
      c.error_budget_used_percent,
      c.error_budget_exhausted,
      c.error_budget_remaining_seconds,
      c.error_budget_remaining_percent,
      c.burn_rate,
      r.period.timezone,
    ]);
  }
  return rows;
}
