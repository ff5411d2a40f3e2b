export interface StatusPageRow {
  id: string;
  organization_id: string;
  slug: string;
  title: string;
  monitor_ids: string;
  public: number;
  show_sla_targets: number;
  allow_embedding: number;
  created_at: number;
  updated_at: number;
}

export interface StatusPagesTables {
  status_page: StatusPageRow;
}
