import { BackgroundLoop } from '../../platform/background-loop.ts';
import type { BackgroundRole } from '../../platform/background-role.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/index.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Timers } from '../../platform/timers.ts';
import type { ReportFilesService } from './report-file.service.ts';
import type { ScheduledReportRunner } from './scheduled-report.runner.ts';
import { ScheduledReportsRepository } from './scheduled-reports.repository.ts';

export interface ScheduledReportsRoleDeps {
  database: Database;
  clock: Clock;
  logger: Logger;
  runner: ScheduledReportRunner;
  files: ReportFilesService;
  /**
   * The longest sleep (ms): bounds how late this process notices a schedule another process created or moved
   * earlier (that process wakes its own runner at once) and a run left undelivered by a process that died.
   */
  maxSleepMs?: number;
  /** While runs are still delivering, how often their deliveries are looked at besides the pipeline's callback. */
  settleEveryMs?: number;
  /** The loop's timers (tests pass a fake); the system's by default. */
  timers?: Timers;
}

/** A due time already passed (a lease or a request) still waits this long, so a failing round cannot spin. */
const SHORTEST_WAIT_MS = 250;
/** The wait after a failed round. */
const RETRY_AFTER_FAILURE_MS = 5_000;

/**
 * The background loop of scheduled reports: make the due runs, settle finished ones, remove expired files, then
 * sleep until the earliest next due time, request, lease expiry or file expiry (at most `maxSleepMs`), or until
 * `wake()` (a schedule changed or a run was asked for in this process). No tight polling: an idle installation
 * queries once per `maxSleepMs`.
 */
export class ScheduledReportsRole implements BackgroundRole {
  readonly name = 'scheduled-reports';
  private readonly deps: ScheduledReportsRoleDeps;
  private readonly loop: BackgroundLoop;

  constructor(deps: ScheduledReportsRoleDeps) {
    this.deps = deps;
    this.loop = new BackgroundLoop({
      name: this.name,
      everyMs: deps.maxSleepMs ?? 60_000,
      pass: async () => Math.max(SHORTEST_WAIT_MS, (await this.round()) - deps.clock.now()),
      failed: (err) => {
        deps.logger.error({ err }, 'scheduled reports: round failed');
        return RETRY_AFTER_FAILURE_MS;
      },
      ...(deps.timers && { timers: deps.timers }),
    });
  }

  start(): Promise<void> {
    return this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** A schedule changed or a run was asked for in this process: a round now (or right after the one running). */
  wake(): void {
    this.loop.wake();
  }

  /** One round (tests call it directly with a ManualClock); returns when the next round is due (epoch ms). */
  async round(): Promise<number> {
    const { runner, files, clock, database } = this.deps;
    await runner.runDue();
    const delivering = await runner
      .settleAll()
      .then(async () => (await new ScheduledReportsRepository(database).deliveringRuns(1)).length > 0);
    await files.removeExpired();
    const now = clock.now();
    const candidates = [
      await new ScheduledReportsRepository(database).nextWorkAt(now),
      await files.nextExpiry(),
      delivering ? now + (this.deps.settleEveryMs ?? 30_000) : null,
      now + (this.deps.maxSleepMs ?? 60_000),
    ].filter((v): v is number => v !== null);
    return Math.min(...candidates);
  }
}
