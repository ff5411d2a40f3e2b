import type { Generated } from 'kysely';

/** Tables of heartbeat signals (see heartbeats.migrations.ts). */
export interface HeartbeatPingRow {
  monitor_id: string;
  /** The last end of a run (success or fail), or the monitor's creation for a row a start made. */
  last_ping_at: number;
  pings: number;
  last_fail_at: number | null;
  last_exit_code: number | null;
  open_since: number | null;
}

export interface HeartbeatSignalRow {
  id: string;
  monitor_id: string;
  organization_id: string;
  kind: string;
  at: number;
  rid: string | null;
  open: number;
  duration_ms: number | null;
  exit_code: number | null;
  body: string | null;
  body_bytes: number;
  truncated: number;
  source_ip: string | null;
  user_agent: string | null;
}

export interface HeartbeatTables {
  heartbeat_ping: HeartbeatPingRow;
  /** `filed` 0: the row is not in `heartbeat_signal_monitor_idx` yet (HeartbeatsRepository.fileSignals). */
  heartbeat_signal: HeartbeatSignalRow & { filed: Generated<number> };
  heartbeat_slug: { organization_id: string; slug: string; monitor_id: string };
  heartbeat_org_setting: {
    organization_id: string;
    ping_key: string | null;
    auto_create: number;
    updated_at: number;
  };
}
