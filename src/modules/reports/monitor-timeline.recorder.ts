import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/index.ts';
import type { MonitorTransition } from '../incidents/index.ts';
import type { Monitor, MonitorListener } from '../monitors/index.ts';
import { MonitorTimelineRepository } from './monitor-timeline.repository.ts';

/** Who handles the state machine's transitions after the timeline has recorded them (the incidents module). */
export interface TransitionHandlerLike {
  handleMonitorTransition(tx: Database, t: MonitorTransition): Promise<void>;
}

/**
 * Writes each monitor's timeline in the transaction of the change itself: as a MonitorListener (created, paused,
 * resumed, deleted; name and tags kept for reports on deleted monitors) and as the check engine's transition
 * handler (up, down with the start of the failure), which then hands each transition on to `next`.
 */
export class MonitorTimelineRecorder implements MonitorListener {
  private readonly clock: Clock;
  private readonly next: TransitionHandlerLike | null;
  constructor(clock: Clock, next: TransitionHandlerLike | null) {
    this.clock = clock;
    this.next = next;
  }

  async monitorSaved(tx: Database, monitor: Monitor, previous: Monitor | null): Promise<void> {
    const repo = new MonitorTimelineRepository(tx);
    await repo.saveMonitor({ ...monitor, deletedAt: null });
    if (!previous) {
      await repo.append(monitor.id, 'created', monitor.createdAt);
      if (monitor.paused) await repo.append(monitor.id, 'paused', monitor.createdAt);
      return;
    }
    if (previous.paused !== monitor.paused) {
      await repo.append(monitor.id, monitor.paused ? 'paused' : 'resumed', monitor.statusChangedAt);
    }
  }

  async monitorDeleted(tx: Database, monitor: Monitor): Promise<void> {
    const now = this.clock.now();
    const repo = new MonitorTimelineRepository(tx);
    await repo.saveMonitor({ ...monitor, deletedAt: now });
    await repo.append(monitor.id, 'deleted', now);
  }

  async handleMonitorTransition(tx: Database, t: MonitorTransition): Promise<void> {
    await new MonitorTimelineRepository(tx).append(
      t.monitorId,
      t.to,
      t.at,
      t.to === 'down' ? Math.min(t.downSince ?? t.at, t.at) : null,
    );
    if (this.next) await this.next.handleMonitorTransition(tx, t);
  }
}
