import type { BackgroundRole } from '../../platform/background-role.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/index.ts';
import type { Logger } from '../../platform/logger.ts';
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
}

/**
 * The background loop of scheduled reports: make the due runs, settle finished ones, remove expired files, then
 * sleep until the earliest next due time, request, lease expiry or file expiry (at most `maxSleepMs`), or until
 * `wake()` (a schedule changed or a run was asked for in this process). No tight polling: an idle installation
 * queries once per `maxSleepMs`.
 */
export class ScheduledReportsRole implements BackgroundRole {
  readonly name = 'scheduled-reports';
  private readonly deps: ScheduledReportsRoleDeps;
  private stopped = true;
  private running: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private wakeUp: (() => void) | null = null;
  private woken = false;

  constructor(deps: ScheduledReportsRoleDeps) {
    this.deps = deps;
  }

  async start(): Promise<void> {
    this.stopped = false;
    this.running = this.loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    await this.running;
  }

  wake(): void {
    this.woken = true;
    this.wakeUp?.();
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

  private async loop(): Promise<void> {
    while (!this.stopped) {
      this.woken = false;
      let next = this.deps.clock.now() + 5_000;
      try {
        next = await this.round();
      } catch (err) {
        this.deps.logger.error({ err }, 'scheduled reports: round failed');
      }
      if (this.stopped || this.woken) continue;
      await this.sleep(Math.max(0, next - this.deps.clock.now()));
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        if (this.timer) clearTimeout(this.timer);
        this.timer = null;
        this.wakeUp = null;
        resolve();
      };
      this.wakeUp = done;
      // A due time already passed (a lease or a request) still waits a little, so a failing round cannot spin.
      this.timer = setTimeout(done, Math.max(ms, 250));
    });
  }
}
