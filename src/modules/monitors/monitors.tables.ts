export interface MonitorRow {
  id: string;
  organization_id: string;
  name: string;
  type: string;
  target: string;
  interval_seconds: number;
  region_codes: string;
  tags: string;
  environment: string;
  config: string;
  paused: number;
  status: string;
  status_changed_at: number;
  last_checked_at: number | null;
  heartbeat_token: string | null;
  created_at: number;
  updated_at: number;
  /** Name and target, lowered (monitor.search.ts): what `q` searches. */
  search_text: string;
  /** The name, lowered: what `sort=name` orders by. */
  sort_name: string;
}

/** One edge of `config.depends_on`: `monitor_id` depends on `depends_on_id` (its parent). */
export interface MonitorDependencyRow {
  monitor_id: string;
  depends_on_id: string;
  organization_id: string;
}

/** One tag of a monitor (the `tags` column holds the list as shown; these rows index it for `tag=`). */
export interface MonitorTagRow {
  monitor_id: string;
  organization_id: string;
  tag: string;
}

export interface MonitorsTables {
  monitor: MonitorRow;
  monitor_dependency: MonitorDependencyRow;
  monitor_tag: MonitorTagRow;
}
