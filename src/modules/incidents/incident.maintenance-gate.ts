import type { Database } from '../../platform/db/index.ts';
import type { Monitor } from '../monitors/index.ts';
import type { MonitorTransition } from './incident.types.ts';

/**
 * The incidents decision's one question to maintenance windows (DECISIONS §16), kept apart from the rest of the
 * decision so that other gates (dependencies) sit beside it: the maintenance module implements it, main.ts passes it.
 */
export interface MaintenanceGate {
  /**
   * A `down` verdict at `t.at` while a window that suppresses alerts covers the monitor: the outage is held (recorded
   * by the gate, in `tx`) and true is returned, so no incident opens and no `down` is sent.
   */
  holdDown(tx: Database, t: MonitorTransition): Promise<boolean>;
  /**
   * A recovery of a held outage releases it. `null`: nothing was held (decide as usual). `judgedFrom: null`: it
   * recovered inside maintenance (nothing to tell). `judgedFrom: ms`: it outlived the window's end, so it is an outage
   * from that end (open the incident then, with `cause`, and resolve it now).
   */
  releaseOnRecovery(
    tx: Database,
    t: MonitorTransition,
  ): Promise<{ judgedFrom: number | null; cause: string | null } | null>;
  /** Reminders of an open incident pause while its monitor is in maintenance. */
  pausesReminders(monitor: Monitor, at: number): Promise<boolean>;
}
