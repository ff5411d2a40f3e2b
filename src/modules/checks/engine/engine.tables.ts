/** Kysely row interfaces of the check engine's tables (see engine.migrations.ts). */
export interface CheckScheduleRow {
  monitor_id: string;
  region_code: string;
  organization_id: string;
  interval_ms: number;
  phase_ms: number;
  next_due_at: number;
  lease_owner: string | null;
  lease_until: number | null;
  monitor_version: number;
  /** The monitor's check timeout; a claim leases the row for at least this and LEASE_MARGIN_MS. 0: unknown. */
  timeout_ms: number;
}

export interface CheckStateRow {
  monitor_id: string;
  region_code: string;
  successes: number;
  failures: number;
  last_at: number | null;
  last_status: string | null;
  last_cause: string | null;
  /** First failure of the current run of failures; null after a success or when unknown. */
  failing_since: number | null;
  /** Consecutive checks that were slow (over `degraded_latency_ms`) or failed; 0 after a fast success. */
  impaired: number;
  /** Consecutive fast successes; 0 after a slow check or a failure. */
  fast: number;
}

export interface RunnerRow {
  id: string;
  region_code: string;
  name: string;
  token_hash: string;
  created_at: number;
  last_seen_at: number | null;
  revoked_at: number | null;
}

export interface EngineTables {
  check_schedule: CheckScheduleRow;
  check_state: CheckStateRow;
  check_cert_notice: { monitor_id: string; last_day: number };
  /** A monitor while it is degraded (DECISIONS §20); `announced` 0/1. */
  check_degraded: { monitor_id: string; since: number; announced: number };
  runner: RunnerRow;
  heartbeat_ping: { monitor_id: string; last_ping_at: number; pings: number };
}
