import type { IncidentSource, IncidentStatus } from '../incidents/index.ts';
import type { ReportPeriod } from './report.types.ts';

/** One incident in the incidents report and the export (DECISIONS §11: names are binding; down_since added). */
export interface IncidentReportRow {
  id: string;
  number: number;
  title: string;
  source: IncidentSource;
  monitor_id: string | null;
  cause: string | null;
  status: IncidentStatus;
  opened_at: string;
  /** The first failing check of the outage that opened it; opened_at for incidents not opened by a monitor. */
  down_since: string;
  acknowledged_at: string | null;
  resolved_at: string | null;
  duration_seconds: number;
  time_to_acknowledge_seconds: number | null;
  time_to_resolve_seconds: number | null;
}

export interface IncidentsReport {
  report: 'incidents';
  period: ReportPeriod;
  generated_at: string;
  methodology: string;
  summary: {
    count: number;
    by_source: Record<IncidentSource, number>;
    mtta_seconds: number | null;
    mttr_seconds: number | null;
    median_tta_seconds: number | null;
    median_ttr_seconds: number | null;
    /** Incidents opened inside the period (the sum of daily[].opened). */
    opened: number;
    acknowledged: number;
    resolved: number;
    /** Not resolved when the report was made. */
    open: number;
    /** Not resolved at the period's end (or now, when the period reaches into the future). */
    open_at_period_end: number;
  };
  incidents: IncidentReportRow[];
  daily: Array<{ date: string; opened: number }>;
}
