export interface NoticeRow {
  id: string;
  organization_id: string;
  status_page_id: string;
  kind: string;
  title: string;
  impact: string;
  status: string | null;
  affected_monitor_ids: string;
  incident_id: string | null;
  published: number;
  published_at: number | null;
  resolved_at: number | null;
  postmortem: string | null;
  postmortem_published_at: number | null;
  automatic: number;
  created_at: number;
  updated_at: number;
}

export interface NoticeUpdateRow {
  id: string;
  notice_id: string;
  status: string | null;
  body: string;
  created_at: number;
}

export interface NoticesTables {
  status_page_notice: NoticeRow;
  status_page_notice_update: NoticeUpdateRow;
}
