import { toIso } from '../../../platform/clock.ts';
import type { Database } from '../../../platform/db/index.ts';
import type { EventsService } from '../../events/index.ts';
import type { MonitorsService } from '../../monitors/index.ts';
import { CheckStateRepository } from '../state/check-state.repository.ts';
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

/** Whether a maintenance window that suppresses alerts covers the monitor at `at` (the maintenance module's gate). */
export interface DegradedAlertGate {
  suppressesAlerts(db: Database, organizationId: string, monitorId: string, at: number): Promise<boolean>;
}

/**
 * `degraded` / `degraded_recovered` in the outbox (DECISIONS §20; alerted like other events, no incident): `degraded`
 * when the monitor enters degraded (from up, pending, or down after its `recovered`), `degraded_recovered` when it
 * leaves degraded for up. Leaving it for down says nothing more than `down`. Inside a maintenance window that
 * suppresses alerts no `degraded` goes out (DECISIONS §16); a `degraded_recovered` goes out exactly when its
 * `degraded` did, even inside a window, so that what was announced (a pager's alert) is always closed.
 */
export function degradedEventsListener(deps: {
  events: Pick<EventsService, 'record'>;
  maintenance: DegradedAlertGate | null;
}): TransitionListener {
  return {
    name: 'degraded events',
    async onTransition(tx, t) {
      const state = new CheckStateRepository(tx);
      if (t.from === 'degraded') {
        const was = await state.endDegraded(t.monitorId);
        if (t.to !== 'up' || !was?.announced) return;
        await deps.events.record(tx, {
          organizationId: t.organizationId,
          type: 'degraded_recovered',
          monitorId: t.monitorId,
          incidentId: null,
          occurredAt: t.at,
          payload: {
            monitor_name: t.monitorName,
            since: toIso(was.since),
            duration_seconds: Math.max(0, (t.at - was.since) / 1000),
            execution_id: t.executionId,
          },
        });
        return;
      }
      if (t.to !== 'degraded') return;
      const quiet = (await deps.maintenance?.suppressesAlerts(tx, t.organizationId, t.monitorId, t.at)) ?? false;
      await state.startDegraded(t.monitorId, t.at, !quiet);
      if (quiet) return;
      await deps.events.record(tx, {
        organizationId: t.organizationId,
        type: 'degraded',
        monitorId: t.monitorId,
        incidentId: null,
        occurredAt: t.at,
        payload: {
          monitor_name: t.monitorName,
          cause: t.cause,
          since: toIso(t.at),
          latency_ms: t.durationMs ?? null,
          threshold_ms: t.degradedLatencyMs ?? null,
          execution_id: t.executionId,
        },
      });
    },
  };
}
