import type { RawBuilder } from 'kysely';
import type { Database, Dialect } from '../../platform/db/index.ts';

/**
 * The monitor ↔ destination links. The rows belong to the alerting module (which implements this port);
 * the monitors API shows them as `config.alert_destination_ids`. Every call runs on the handle it is given,
 * so writes made from a monitor change join that change's transaction.
 */
export interface MonitorAlertLinks {
  /** Destination ids per monitor id (monitors without links are absent from the map). */
  destinationIdsOf(db: Database, organizationId: string, monitorIds: readonly string[]): Promise<Map<string, string[]>>;
  /**
   * The same ids for one monitor as a correlated SQL subquery on the row `monitor` (a JSON array: text on SQLite,
   * parsed on PostgreSQL), for the monitors repository to select with the row: the single read is one statement.
   */
  destinationIdsOfMonitorRow(dialect: Dialect): RawBuilder<string | string[]>;
  /** Makes the monitor's links exactly `destinationIds` (inside the caller's transaction). */
  replaceForMonitor(
    tx: Database,
    organizationId: string,
    monitorId: string,
    destinationIds: readonly string[],
  ): Promise<void>;
  /** The ids that are not destinations of this organization. */
  missingDestinationIds(db: Database, organizationId: string, destinationIds: readonly string[]): Promise<string[]>;
}

/**
 * Holds the organization locked for the rest of `tx` (the orgs module locks its row), so that counting an
 * organization's monitors and inserting one cannot interleave with another create: plan limits hold under
 * concurrency, across processes.
 */
export type LockOrganization = (tx: Database, organizationId: string) => Promise<void>;
