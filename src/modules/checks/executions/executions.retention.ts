import type { BackgroundRole } from '../../../platform/background-role.ts';
import type { Clock } from '../../../platform/clock.ts';
import type { Database } from '../../../platform/db/index.ts';
import type { Logger } from '../../../platform/logger.ts';
import { BackgroundLoop } from '../../../platform/background-loop.ts';
import type { Timers } from '../../../platform/timers.ts';
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
  /** The pause between chunks; by default the loop's own (on `timers`, ended at once by a stop). */
  sleep?: (ms: number) => Promise<void>;
  /** The loop's timers (tests pass a fake); the system's by default. */
  timers?: Timers;
}

/**
 * Background role that deletes raw executions past retention, in chunks. Shaped like main.ts's
 * BackgroundRole. Rollups are kept (they are what history and reports use beyond retention).
 */
export class ExecutionsRetention implements BackgroundRole {
  readonly name = 'executions-retention';
  private readonly deps: ExecutionsRetentionDeps;
  private readonly repo: ExecutionsRepository;
  private readonly loop: BackgroundLoop;

  constructor(deps: ExecutionsRetentionDeps) {
    this.deps = deps;
    this.repo = new ExecutionsRepository(deps.database);
    this.loop = new BackgroundLoop({
      name: this.name,
      everyMs: deps.everyMs ?? 3_600_000,
      pass: () => this.purgeOnce().then(() => undefined),
      failed: (err) => void deps.logger?.error({ err }, 'execution purge failed'),
      ...(deps.timers && { timers: deps.timers }),
    });
  }

  /** Deletes everything expired now, chunk by chunk; returns the number of rows deleted. */
  async purgeOnce(): Promise<number> {
    const cutoff = this.deps.clock.now() - this.deps.retentionDays * 86_400_000;
    const chunk = this.deps.chunkSize ?? 5000;
    const sleep = this.deps.sleep ?? ((ms: number) => this.loop.pause(ms));
    let total = 0;
    while (!this.loop.stopping) {
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
    return this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }
}
