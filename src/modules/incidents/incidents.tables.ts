export interface IncidentRow {
  id: string;
  organization_id: string;
  number: number;
  title: string;
  source: string;
  monitor_id: string | null;
  cause: string | null;
  status: string;
  opened_at: number;
  down_since: number | null;
  acknowledged_at: number | null;
  acknowledged_by: string | null;
  resolved_at: number | null;
  resolved_by: string | null;
  last_reminder_at: number | null;
  blocked_by: string | null;
  suppressed_by: string | null;
  alert_release_due_at: number | null;
  alert_released_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface IncidentEventRow {
  seq: number;
  incident_id: string;
  organization_id: string;
  type: string;
  at: number;
  actor: string | null;
  message: string | null;
}

export interface IncidentCounterRow {
  organization_id: string;
  last_number: number;
}

export interface IncidentsTables {
  incident: IncidentRow;
  incident_event: IncidentEventRow;
  incident_counter: IncidentCounterRow;
}
