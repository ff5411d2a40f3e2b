import type { Database } from '../../platform/db/index.ts';
import type { EventsService } from '../events/index.ts';
import type { Monitor, MonitorListener } from '../monitors/index.ts';

/**
 * Records pausing and resuming a monitor in the outbox as `monitor_status_changed`, in the transaction of the change,
 * so the live feed tells every client (the check engine records the changes the state machine decides).
 */
export class MonitorPauseFeed implements MonitorListener {
  private readonly events: Pick<EventsService, 'record'>;
  constructor(deps: { events: Pick<EventsService, 'record'> }) {
    this.events = deps.events;
  }

  async monitorSaved(tx: Database, monitor: Monitor, previous: Monitor | null): Promise<void> {
    if (previous === null || previous.paused === monitor.paused) return;
    await this.events.record(tx, {
      organizationId: monitor.organizationId,
      type: 'monitor_status_changed',
      monitorId: monitor.id,
      incidentId: null,
      occurredAt: monitor.statusChangedAt,
      payload: { from: previous.status, to: monitor.status },
    });
  }

  async monitorDeleted(): Promise<void> {
    // A deleted monitor leaves the lists through the client's own change or the next reload.
  }
}
