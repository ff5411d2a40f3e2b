import type { Database } from '../../platform/db/index.ts';
import type { MonitorTransition } from './incident.types.ts';

/** Incidents (DECISIONS §6). Implementation in progress; the signature below is agreed with the check engine. */
export class IncidentsService {
  /**
   * Called by the check engine inside its transaction (`tx`): to=down opens the monitor's incident unless
   * one is open, to=up resolves it; outbox events are recorded in the same transaction.
   */
  async handleMonitorTransition(_tx: Database, _t: MonitorTransition): Promise<void> {
    // implemented in the next commit
  }
}
