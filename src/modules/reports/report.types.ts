/** The report documents as the API sends them (DECISIONS §8, §11: field names are binding). */

export interface ReportPeriod {
  from: string;
  to: string;
  timezone: string;
  /** The preset the period came from; null when from/to were given. */
  preset: string | null;
}

interface ReportHead<T extends string> {
  report: T;
  period: ReportPeriod;
  generated_at: string;
  methodology: string;
}

export interface AvailabilityIncident {
  id: string;
  number: number;
  opened_at: string;
  down_since: string;
  resolved_at: string | null;
  duration_seconds: number;
  cause: string | null;
}

export interface AvailabilityMonitor {
  monitor_id: string;
  name: string;
  target: string;
  uptime_percent: number | null;
  downtime_seconds: number;
  /** Up time while the monitor was degraded (DECISIONS §20): counted as up in uptime_percent. */
  degraded_seconds: number;
  paused_seconds: number;
  no_data_seconds: number;
  /** Inside maintenance windows that exclude maintenance from the SLA (DECISIONS §16): neither up nor down. */
  maintenance_seconds: number;
  unmonitored_seconds: number;
  monitored_seconds: number;
  coverage_percent: number | null;
  checks: number;
  failed_checks: number;
  incident_count: number;
  longest_incident_seconds: number;
  incidents: AvailabilityIncident[];
  daily: Array<{ date: string; uptime_percent: number | null; downtime_seconds: number; degraded_seconds: number }>;
}

export interface AvailabilityReport extends ReportHead<'availability'> {
  summary: {
    monitors: number;
    uptime_percent: number | null;
    downtime_seconds: number;
    degraded_seconds: number;
    monitored_seconds: number;
    incidents: number;
  };
  monitors: AvailabilityMonitor[];
}

export interface Percentiles {
  p50_ms: number | null;
  p95_ms: number | null;
  p99_ms: number | null;
}

export interface ReportAnomaly {
  id: string;
  category: string;
  kind: string;
  severity: string;
  summary: string;
  region_code: string | null;
  started_at: string;
  ended_at: string | null;
}

export interface PerformanceMonitor extends Percentiles {
  monitor_id: string;
  name: string;
  target: string;
  checks: number;
  successful_checks: number;
  mean_ms: number | null;
  min_ms: number | null;
  max_ms: number | null;
  previous: Percentiles;
  trend_percent: number | null;
  anomalies: ReportAnomaly[];
  daily: Array<{ date: string } & Percentiles>;
}

export interface PerformanceReport extends ReportHead<'performance'> {
  summary: { monitors: number; checks: number };
  monitors: PerformanceMonitor[];
}

export interface SlaPeriodResult {
  from: string;
  to: string;
  monitored_seconds: number;
  downtime_seconds: number;
  achieved_percent: number | null;
  /** Finished periods: achieved ≥ target (null: nothing monitored). The current period: always null. */
  met: boolean | null;
}

export interface SlaEarlierPeriod extends SlaPeriodResult {
  status: 'met' | 'missed' | 'no_data';
}

export interface SlaCurrentPeriod extends SlaPeriodResult {
  /** The current period is not over: in progress (something monitored so far) or no data yet, never met/missed. */
  status: 'in_progress' | 'no_data';
  elapsed_seconds: number;
  error_budget_seconds: number;
  error_budget_used_seconds: number;
  /** 100 × used / budget (over 100 when overspent); null without a budget. */
  error_budget_used_percent: number | null;
  /** The whole budget is spent (remaining ≤ 0): the period can no longer be met; null with nothing monitored. */
  error_budget_exhausted: boolean | null;
  error_budget_remaining_seconds: number;
  error_budget_remaining_percent: number | null;
  burn_rate: number | null;
}

export interface SlaReportTarget {
  sla_target_id: string;
  name: string;
  target_percent: number;
  period: string;
  combine: 'any_down';
  current: SlaCurrentPeriod;
  periods: SlaEarlierPeriod[];
  monitors: Array<{ monitor_id: string; name: string; achieved_percent: number | null; downtime_seconds: number }>;
}

export interface SlaReport extends ReportHead<'sla'> {
  /**
   * Current periods: in progress (of which budget exhausted) or no data; met and missed count the earlier, finished
   * periods listed (an unfinished period is neither).
   */
  summary: {
    targets: number;
    in_progress: number;
    budget_exhausted: number;
    no_data: number;
    met: number;
    missed: number;
  };
  targets: SlaReportTarget[];
}
