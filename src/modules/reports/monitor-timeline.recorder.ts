import type { Clock } from '../../platform/clock.ts';
import { PrecompiledQueries, type Database } from '../../platform/db/index.ts';
import type { MonitorTransition, TransitionListener } from '../checks/index.ts';
import type { Monitor, MonitorListener } from '../monitors/index.ts';
import { MonitorTimelineRepository } from './monitor-timeline.repository.ts';

/**
 * Writes each monitor's timeline in the transaction of the change itself: as a MonitorListener (created, paused,
 * resumed, deleted; name and tags kept for reports on deleted monitors) and as one of the check engine's transition
 * listeners (up, down with the start of the failure), so reports agree with the incidents committed beside it.
 */
export class MonitorTimelineRecorder implements MonitorListener, TransitionListener {
  readonly name = 'reports timeline';
  private readonly clock: Clock;
  /** The report copy's upsert, compiled once (every save of a monitor writes it). */
  private readonly queries = new PrecompiledQueries();
  constructor(clock: Clock) {
    this.clock = clock;
  }

  async monitorSaved(tx: Database, monitor: Monitor, previous: Monitor | null): Promise<void> {
    const repo = new MonitorTimelineRepository(tx);
    await repo.saveMonitor({ ...monitor, deletedAt: null }, this.queries);
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

  async onTransition(tx: Database, t: MonitorTransition): Promise<void> {
    await new MonitorTimelineRepository(tx).append(
      t.monitorId,
      t.to,
      t.at,
      t.to === 'down' ? Math.min(t.downSince ?? t.at, t.at) : null,
    );
  }
}
