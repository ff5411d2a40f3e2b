import { BackgroundLoop } from '../../platform/background-loop.ts';
import type { BackgroundRole } from '../../platform/background-role.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Timers } from '../../platform/timers.ts';
import type { IncidentMonitors, IncidentsService } from './incident.service.ts';
import { isHeld } from './incident.types.ts';

export interface IncidentRemindersDeps {
  incidents: IncidentsService;
  monitors: IncidentMonitors;
  clock: Clock;
  logger: Logger;
  /** How often the role looks for due reminders (default 30 s). */
  tickMs?: number;
  /** Open incidents read per query. */
  batchSize?: number;
  /** The loop's timers (tests pass a fake); the system's by default. */
  timers?: Timers;
}

/**
 * Background role `incident-reminders`: sends the alerts of held incidents whose parents recovered while they stayed
 * down (`IncidentsService.releaseDueHolds`); and for each open monitor incident whose monitor sets
 * `config.reminder_interval_minutes` and is still down, records a `still_down` event every time the
 * interval has elapsed since the opening or the last reminder. After a pause of the process one reminder
 * is sent, not one per missed interval. Paused monitors get no reminders (they are not being checked).
 */
export class IncidentRemindersRole implements BackgroundRole {
  readonly name = 'incident-reminders';
  private readonly deps: IncidentRemindersDeps;
  private readonly loop: BackgroundLoop;
  private running: Promise<number> | null = null;
  constructor(deps: IncidentRemindersDeps) {
    this.deps = deps;
    this.loop = new BackgroundLoop({
      name: this.name,
      everyMs: deps.tickMs ?? 30_000,
      firstPass: 'after-wait',
      pass: () => this.tick().then(() => undefined),
      failed: (err) => void deps.logger.error({ err }, 'incident reminders pass failed'),
      ...(deps.timers && { timers: deps.timers }),
    });
  }

  start(): Promise<void> {
    return this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
    // A pass called directly (tick) may still run.
    if (this.running) await this.running.catch(() => 0);
  }

  /** One pass: held incidents whose release is due (DECISIONS §17), then reminders; returns how many reminders. */
  tick(): Promise<number> {
    if (!this.running) {
      this.running = this.pass().finally(() => {
        this.running = null;
      });
    }
    return this.running;
  }

  private async pass(): Promise<number> {
    const batch = this.deps.batchSize ?? 500;
    await this.deps.incidents.releaseDueHolds(this.deps.clock.now(), batch);
    let after: string | undefined;
    let sent = 0;
    for (;;) {
      const open = await this.deps.incidents.listOpenMonitorIncidents(after, batch);
      if (open.length === 0) break;
      after = open[open.length - 1]!.id;
      const monitors = new Map(
        (
          await this.deps.monitors.findManyAnywhere(
            open.map((i) => i.monitorId).filter((id): id is string => id !== null),
          )
        ).map((m) => [m.id, m]),
      );
      const now = this.deps.clock.now();
      for (const incident of open) {
        const monitor = incident.monitorId ? monitors.get(incident.monitorId) : undefined;
        const minutes = monitor?.config.reminder_interval_minutes;
        if (!monitor || !minutes || monitor.paused || monitor.status !== 'down') continue;
        // Held by a parent (DECISIONS §17): no reminder of an outage nobody was told about.
        if (isHeld(incident)) continue;
        // A released hold (DECISIONS §17) alerted at its release: reminders count from then.
        const last = Math.max(incident.lastReminderAt ?? incident.openedAt, incident.alertReleasedAt ?? 0);
        if (now - last < minutes * 60_000) continue;
        if (await this.deps.incidents.remind(incident, monitor, now)) sent += 1;
      }
      if (open.length < batch) break;
    }
    return sent;
  }
}
