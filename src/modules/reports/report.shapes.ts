/**
 * The JSON shapes of DECISIONS §11 for the incidents, intelligence and monitor-health reports, as far as their CSV
 * and PDF need them (the generators may add fields). The PDF layouts are written against these so that a report
 * renders as soon as its generator returns a document of this shape.
 */
import type { ReportPeriod } from './report.types.ts';

export interface ReportHeadShape {
  period: ReportPeriod;
  generated_at: string;
  methodology?: string;
}

export interface IncidentsReportShape extends ReportHeadShape {
  report: 'incidents';
  summary: {
    count: number;
    by_source: Record<string, number>;
    mtta_seconds: number | null;
    mttr_seconds: number | null;
    median_tta_seconds: number | null;
    median_ttr_seconds: number | null;
  };
  incidents: Array<{
    id: string;
    number: number;
    title: string;
    source: string;
    monitor_id: string | null;
    cause: string | null;
    status: string;
    opened_at: string;
    acknowledged_at: string | null;
    resolved_at: string | null;
    duration_seconds: number | null;
    time_to_acknowledge_seconds: number | null;
    time_to_resolve_seconds: number | null;
  }>;
  /** Incidents opened per local day of the period (for the chart); counted from `incidents` when absent. */
  daily?: Array<{ date: string; opened: number }>;
}

/** An intelligence event as the intelligence API presents it (the fields a report shows). */
export interface IntelligenceEventShape {
  id: string;
  monitor_id: string;
  category: string;
  kind: string;
  severity: string;
  summary: string;
  region_code?: string | null;
  started_at: string;
  ended_at?: string | null;
}

export interface IntelligenceReportShape extends ReportHeadShape {
  report: 'intelligence';
  summary: { by_category: Record<string, number>; by_monitor: Record<string, number> };
  events: IntelligenceEventShape[];
  correlations: Array<{
    monitor_ids: string[];
    shared: unknown;
    window: { from: string; to: string };
    events: unknown[];
  }>;
}

export type MonitorHealthFindingKind = 'noisy' | 'flapping' | 'misconfigured' | 'never_succeeded';

export interface MonitorHealthReportShape extends ReportHeadShape {
  report: 'monitor_health';
  monitors: Array<{
    monitor_id: string;
    name: string;
    findings: Array<{ kind: MonitorHealthFindingKind; reason: string; evidence: Record<string, unknown> }>;
  }>;
}
