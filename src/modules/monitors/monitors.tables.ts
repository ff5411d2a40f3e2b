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
}

export interface MonitorsTables {
  monitor: MonitorRow;
}
