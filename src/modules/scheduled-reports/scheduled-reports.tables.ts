/** Kysely row interfaces of the scheduled-reports module. */
export interface ScheduledReportRow {
  id: string;
  organization_id: string;
  report_type: string;
  custom_report_id: string | null;
  frequency: string;
  day_of_week: number | null;
  day_of_month: number | null;
  time_of_day: string;
  timezone: string;
  destination_ids: string;
  enabled: number;
  next_run_at: number;
  last_run_at: number | null;
  last_status: string;
  /** Runs asked for by POST /{id}/run and not yet made (they do not move next_run_at). */
  run_requests: number;
  lease_owner: string | null;
  lease_until: number | null;
  /** Whose view of the organization a run reports with: the creator's user and key, and the key's environments. */
  created_by_user_id: string | null;
  created_by_key_id: string;
  environments: string;
  created_at: number;
  updated_at: number;
}

/** One run: the outbox event that delivers it, and how its deliveries ended. */
export interface ScheduledReportRunRow {
  event_id: string;
  scheduled_report_id: string;
  organization_id: string;
  manual: number;
  period_from: number;
  period_to: number;
  /** How many destinations the run was addressed to (a destination deleted since counts as not delivered). */
  destination_count: number;
  /** `delivering` until every delivery has ended, then `delivered`, `partially_delivered` or `failed`. */
  status: string;
  started_at: number;
  ended_at: number | null;
}

/** A rendered report file, served by GET /api/v1/report-files/{id}?token= while the token lives. */
export interface ReportFileRow {
  id: string;
  organization_id: string;
  scheduled_report_id: string;
  event_id: string;
  kind: string;
  filename: string;
  content_type: string;
  size_bytes: number;
  body: Buffer;
  token_hash: string;
  expires_at: number;
  created_at: number;
}

export interface ScheduledReportsTables {
  scheduled_report: ScheduledReportRow;
  scheduled_report_run: ScheduledReportRunRow;
  report_file: ReportFileRow;
}
