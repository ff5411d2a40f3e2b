/** Kysely row interfaces of the maintenance module. */
export interface MaintenanceWindowRow {
  id: string;
  organization_id: string;
  name: string;
  description: string | null;
  monitor_ids: string;
  tags: string;
  /** The schedule as JSON (maintenance.types.ts MaintenanceSchedule). */
  schedule: string;
  timezone: string;
  suppress_alerts: number;
  exclude_from_sla: number;
  status_page_ids: string;
  announce_minutes_before: number;
  early_ends: string;
  created_at: number;
  updated_at: number;
}

/**
 * One `maintenance_started` or `maintenance_ended` emitted for one occurrence: the primary key makes the emission
 * happen once whichever process, restart or retry gets there (inserted in the transaction that writes the event).
 */
export interface MaintenanceEmissionRow {
  window_id: string;
  occurrence_start: number;
  kind: string;
  organization_id: string;
  emitted_at: number;
}

/**
 * A monitor whose `down` a window held back: its outage is judged when the last window covering it ends (or
 * forgotten when it recovers inside). One row per monitor.
 */
export interface MaintenanceHeldRow {
  monitor_id: string;
  organization_id: string;
  window_id: string;
  held_at: number;
  cause: string | null;
}

export interface MaintenanceTables {
  maintenance_window: MaintenanceWindowRow;
  maintenance_emission: MaintenanceEmissionRow;
  maintenance_held: MaintenanceHeldRow;
}
