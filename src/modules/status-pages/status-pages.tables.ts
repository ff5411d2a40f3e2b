export interface StatusPageRow {
  id: string;
  organization_id: string;
  slug: string;
  title: string;
  monitor_ids: string;
  public: number;
  show_sla_targets: number;
  allow_embedding: number;
  auto_notices: number;
  /** JSON: [{name, monitor_ids, collapsed}]. */
  groups: string;
  custom_domain: string | null;
  access: string;
  password_hash: string | null;
  timezone: string;
  subscriptions_enabled: number;
  created_at: number;
  updated_at: number;
}

export interface StatusPagesTables {
  status_page: StatusPageRow;
}
