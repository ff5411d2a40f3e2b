import type { EventsService } from '../../events/index.ts';
import type { MonitorsService } from '../../monitors/index.ts';
import type { TransitionListener } from './check.types.ts';

/**
 * The monitor's status and status-changed time (monitors module): what the API and status pages show and what the
 * next batch's state machine starts from.
 */
export function monitorStatusListener(monitors: Pick<MonitorsService, 'recordStatus'>): TransitionListener {
  return {
    name: 'monitor status',
    onTransition: (tx, t) => monitors.recordStatus(t.monitorId, t.to, t.at, tx),
  };
}

/**
 * `monitor_status_changed` in the outbox, for the live feed: every change, pending → up included (the incidents'
 * `down`/`recovered` cover only outages).
 */
export function statusFeedListener(events: Pick<EventsService, 'record'>): TransitionListener {
  return {
    name: 'live feed event',
    async onTransition(tx, t) {
      await events.record(tx, {
        organizationId: t.organizationId,
        type: 'monitor_status_changed',
        monitorId: t.monitorId,
        incidentId: null,
        occurredAt: t.at,
        payload: { from: t.from, to: t.to },
      });
    },
  };
}
