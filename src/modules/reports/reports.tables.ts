import type { Generated } from 'kysely';

/** What a report needs to know about a monitor, kept after the monitor is deleted (its reports still cover it). */
export interface ReportMonitorRow {
  monitor_id: string;
  organization_id: string;
  name: string;
  type: string;
  target: string;
  environment: string;
  /** JSON array of strings. */
  tags: string;
  created_at: number;
  deleted_at: number | null;
}

/**
 * One change of what the accounting counts, per monitor, in order (`at`, then `seq`):
 * created, paused, resumed, deleted (the monitors' lifecycle) and down/up (the state machine's verdicts).
 */
export interface MonitorTimelineRow {
  seq: Generated<number>;
  monitor_id: string;
  at: number;
  kind: string;
  /** down: when the failure began (the first failing check of the run that confirmed it); null otherwise. */
  since: number | null;
}

export interface SlaTargetRow {
  id: string;
  organization_id: string;
  name: string;
  /** JSON array of monitor ids. */
  monitor_ids: string;
  target_percent: number;
  period: string;
  created_at: number;
  updated_at: number;
}

/** A custom report (DECISIONS §8): a named page of widgets over a period, with who may see it. */
export interface CustomReportRow {
  id: string;
  organization_id: string;
  /** The user who created it, or the service account whose key did. */
  owner_id: string;
  name: string;
  /** JSON: a preset name (string) or {from, to}. */
  period: string;
  timezone: string;
  /** JSON array of widgets as the API shows them. */
  widgets: string;
  visibility: string;
  /** JSON array of user ids (visibility `shared`). */
  shared_with_user_ids: string;
  created_at: number;
  updated_at: number;
}

export interface ReportsTables {
  report_monitor: ReportMonitorRow;
  monitor_timeline: MonitorTimelineRow;
  sla_target: SlaTargetRow;
  custom_report: CustomReportRow;
}
