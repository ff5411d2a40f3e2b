import type { BackgroundRole } from '../../../platform/background-role.ts';
import type { Clock } from '../../../platform/clock.ts';
import type { Database } from '../../../platform/db/index.ts';
import type { Logger } from '../../../platform/logger.ts';
import { PeriodicPass } from '../../../platform/periodic-pass.ts';
import { ExecutionsRepository } from './executions.repository.ts';

export interface ExecutionsRetentionDeps {
  database: Database;
  clock: Clock;
  logger?: Logger;
  /** Raw executions older than this are deleted (config.retention.executionsDays). */
  retentionDays: number;
  /** Rows per DELETE statement (each its own short transaction). Default 5,000. */
  chunkSize?: number;
  /** Pause between chunks so writers get the lock. Default 50 ms. */
  pauseMs?: number;
  /** How often a purge runs. Default 1 hour. */
  everyMs?: number;
  /** Injected for tests. */
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Background role that deletes raw executions past retention, in chunks. Shaped like main.ts's
 * BackgroundRole. Rollups are kept (they are what history and reports use beyond retention).
 */
export class ExecutionsRetention implements BackgroundRole {
  readonly name = 'executions-retention';
  private readonly deps: ExecutionsRetentionDeps;
  private readonly repo: ExecutionsRepository;
  private readonly periodic: PeriodicPass;

  constructor(deps: ExecutionsRetentionDeps) {
    this.deps = deps;
    this.repo = new ExecutionsRepository(deps.database);
    this.periodic = new PeriodicPass({
      name: this.name,
      everyMs: deps.everyMs ?? 3_600_000,
      pass: () => this.purgeOnce(),
      failureMessage: 'execution purge failed',
      logger: deps.logger,
    });
  }

  /** Deletes everything expired now, chunk by chunk; returns the number of rows deleted. */
  async purgeOnce(): Promise<number> {
    const cutoff = this.deps.clock.now() - this.deps.retentionDays * 86_400_000;
    const chunk = this.deps.chunkSize ?? 5000;
    const sleep = this.deps.sleep ?? defaultSleep;
    let total = 0;
    while (!this.periodic.stopping) {
      const deleted = await this.repo.purgeChunk(cutoff, chunk);
      if (deleted < 0) break;
      total += deleted;
      await sleep(this.deps.pauseMs ?? 50);
    }
    if (total > 0)
      this.deps.logger?.info({ deleted: total, cutoff: new Date(cutoff).toISOString() }, 'purged expired executions');
    return total;
  }

  start(): Promise<void> {
    return this.periodic.start();
  }

  stop(): Promise<void> {
    return this.periodic.stop();
  }
}
