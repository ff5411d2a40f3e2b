export interface DestinationRow {
  id: string;
  organization_id: string;
  type: string;
  name: string;
  events: string;
  config: string;
  sealed_secrets: string | null;
  payload_format: string | null;
  group_window_seconds: number;
  state: string;
  last_success_at: number | null;
  last_failure_at: number | null;
  last_failure_reason: string | null;
  needs_reauthorization: number;
  created_at: number;
  updated_at: number;
}

export interface DeliveryRow {
  id: string;
  organization_id: string;
  destination_id: string | null;
  member_user_id: string | null;
  member_email: string | null;
  target_key: string;
  event_id: string;
  event_seq: number;
  event_type: string;
  monitor_id: string | null;
  event_snapshot: string;
  status: string;
  attempts: number;
  next_attempt_at: number;
  lease_owner: string | null;
  lease_until: number | null;
  last_error: string | null;
  provider_reference: string | null;
  created_at: number;
  updated_at: number;
  delivered_at: number | null;
  silence_id: string | null;
  group_id: string | null;
}

export interface SlackInstallStateRow {
  state_hash: string;
  organization_id: string;
  destination_id: string | null;
  name: string;
  expires_at: number;
  created_at: number;
}

/** One monitor ↔ destination link: the monitor alerts the destination (see alert-links.repository.ts). */
export interface MonitorDestinationRow {
  organization_id: string;
  monitor_id: string;
  destination_id: string;
  created_at: number;
}

export interface AlertingTables {
  destination: DestinationRow;
  delivery: DeliveryRow;
  slack_install_state: SlackInstallStateRow;
  monitor_destination: MonitorDestinationRow;
}
