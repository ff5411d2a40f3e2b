import type { Database } from '../../platform/db/index.ts';
import type { MaintenanceGate, MonitorTransition } from '../incidents/index.ts';
import type { Monitor } from '../monitors/index.ts';
import { MaintenanceRepository } from './maintenance.repository.ts';
import { covers, type MaintenanceMonitors, type MaintenanceService } from './maintenance-window.service.ts';
import { occurrencesBetween } from './maintenance.occurrences.ts';

/**
 * The incidents decision's maintenance gate (incidents' MaintenanceGate port): a `down` inside a window that
 * suppresses alerts is held in `maintenance_held` (same transaction as the verdict), released by the monitor's
 * recovery or judged by MaintenanceEventsRole when the last window covering it ends.
 */
export class MaintenanceAlertGate implements MaintenanceGate {
  private readonly windows: MaintenanceService;
  private readonly monitors: Pick<MaintenanceMonitors, 'findManyAnywhere'>;
  private readonly database: Database;
  constructor(deps: {
    windows: MaintenanceService;
    monitors: Pick<MaintenanceMonitors, 'findManyAnywhere'>;
    database: Database;
  }) {
    this.windows = deps.windows;
    this.monitors = deps.monitors;
    this.database = deps.database;
  }

  async holdDown(tx: Database, t: MonitorTransition): Promise<boolean> {
    const monitor = await this.monitorOf(tx, t.monitorId);
    if (!monitor) return false;
    const covering = (await this.windows.coveringAt(tx, t.organizationId, monitor, t.at)).filter(
      (c) => c.window.suppressAlerts,
    );
    if (covering.length === 0) return false;
    await new MaintenanceRepository(tx).hold({
      monitorId: t.monitorId,
      organizationId: t.organizationId,
      windowId: covering[0]!.window.id,
      heldAt: t.at,
      cause: t.cause,
    });
    return true;
  }

  async releaseOnRecovery(
    tx: Database,
    t: MonitorTransition,
  ): Promise<{ judgedFrom: number | null; cause: string | null } | null> {
    const repo = new MaintenanceRepository(tx);
    const held = await repo.findHeld(t.monitorId);
    if (!held || !(await repo.release(t.monitorId))) return null;
    const monitor = await this.monitorOf(tx, t.monitorId);
    if (!monitor) return { judgedFrom: null, cause: held.cause };
    const windows = (await this.windows.windowsOfOrganization(tx, t.organizationId)).filter(
      (w) => w.suppressAlerts && covers(w, monitor),
    );
    if (windows.some((w) => occurrencesBetween(w, t.at, t.at + 1).some((o) => o.start <= t.at && t.at < o.end))) {
      return { judgedFrom: null, cause: held.cause };
    }
    // Not covered any more: the outage is judged from the end of the last occurrence that covered it (if its window
    // was deleted meanwhile there is no end to judge from, and the hold is dropped).
    const ends = windows
      .flatMap((w) => occurrencesBetween(w, held.heldAt, t.at).map((o) => o.end))
      .filter((e) => e <= t.at);
    return ends.length === 0
      ? { judgedFrom: null, cause: held.cause }
      : { judgedFrom: Math.max(...ends), cause: held.cause };
  }

  /**
   * Intelligence's question (DECISIONS §16: no intelligence alert for what happens inside): a window that suppresses
   * alerts covers the monitor at `at`. Read through `db`, the caller's transaction.
   */
  async suppressesAlerts(db: Database, organizationId: string, monitorId: string, at: number): Promise<boolean> {
    const monitor = await this.monitorOf(db, monitorId);
    if (!monitor) return false;
    return (await this.windows.coveringAt(db, organizationId, monitor, at)).some((c) => c.window.suppressAlerts);
  }

  async pausesReminders(monitor: Monitor, at: number): Promise<boolean> {
    const covering = await this.windows.coveringAt(this.database, monitor.organizationId, monitor, at);
    return covering.some((c) => c.window.suppressAlerts);
  }

  private async monitorOf(db: Database, id: string): Promise<Monitor | null> {
    return (await this.monitors.findManyAnywhere([id], db))[0] ?? null;
  }
}
