import type { Clock } from '../../../platform/clock.ts';
import type { Database } from '../../../platform/db/index.ts';
import { notFound } from '../../../platform/errors.ts';
import type { Monitor } from '../../monitors/index.ts';
import { ScheduleRepository } from '../scheduler/schedule.repository.ts';
import { HeartbeatsRepository } from './heartbeats.repository.ts';

export interface HeartbeatsServiceDeps {
  database: Database;
  clock: Clock;
  findByToken(token: string): Promise<Monitor | null>;
  /** Told, inside the ping's transaction, that it made a monitor's check due now (an idle runner claims it at once). */
  madeDue?(tx: Database): void;
}

/** Push pings for heartbeat monitors (`POST|GET /api/v1/heartbeats/{token}`). */
export class HeartbeatsService {
  private readonly deps: HeartbeatsServiceDeps;
  constructor(deps: HeartbeatsServiceDeps) {
    this.deps = deps;
  }

  async ping(token: string): Promise<{ monitor: Monitor; receivedAt: number }> {
    const monitor = await this.deps.findByToken(token);
    if (!monitor || monitor.type !== 'heartbeat') throw notFound('Heartbeat monitor');
    const now = this.deps.clock.now();
    await this.deps.database.transaction(async (tx) => {
      await new HeartbeatsRepository(tx).recordPing(monitor.id, now);
      // A monitor that is not up is evaluated at once, so recovery does not wait for the next slot.
      if (monitor.status !== 'up' && !monitor.paused) {
        await new ScheduleRepository(tx).makeDueNow(monitor.id, now);
        this.deps.madeDue?.(tx);
      }
    });
    return { monitor, receivedAt: now };
  }

  lastPings(monitorIds: readonly string[]): Promise<Map<string, number>> {
    return new HeartbeatsRepository(this.deps.database).lastPings(monitorIds);
  }
}
