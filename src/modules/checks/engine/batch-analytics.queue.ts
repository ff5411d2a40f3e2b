import { limitStatementTime, type Database } from '../../../platform/db/index.ts';
import type { Logger } from '../../../platform/logger.ts';
import type { TocsinMetrics } from '../../../platform/metrics/index.ts';
import type { TimerHandle, Timers } from '../../../platform/timers.ts';
import type { Monitor } from '../../monitors/index.ts';
import type { CheckResult, MonitorTransition } from './check.types.ts';

/** A result batch once it has committed: what analytics read of it. */
export interface CommittedBatch {
  /** The batch's results in time order (those of monitors deleted while their check ran are left out). */
  results: readonly CheckResult[];
  /** The monitors the results were judged against, by id. */
  monitors: ReadonlyMap<string, Monitor>;
  transitions: readonly MonitorTransition[];
}

/**
 * Analytics over committed batches (intelligence ingestion): nothing the alert path needs. Each runs after the batch
 * committed, in a transaction of its own that rolls back when it fails or overruns its time budget.
 */
export interface BatchAnalytics {
  readonly name: string;
  afterBatch(tx: Database, batch: CommittedBatch): Promise<void>;
}

export type AnalyticsFailure = 'error' | 'timeout' | 'dropped';

export interface BatchAnalyticsQueueDeps {
  database: Database;
  logger: Logger;
  /** Fires the time budget; injected so that tests fire it without waiting. */
  timers: Timers;
  analytics: readonly BatchAnalytics[];
  /** How long one analytics step may hold its transaction (and, on SQLite, the process's one connection). */
  budgetMs: number;
  /** Batches waiting beyond this are dropped (counted): analytics slower than the checks never grow memory. */
  maxPending: number;
  metrics?: Pick<TocsinMetrics, 'checkAnalyticsFailed'> | null;
}

/** The step's time budget ran out: its transaction was rolled back. */
class BudgetExceeded extends Error {}

/** PostgreSQL's "canceling statement due to statement timeout" (the budget, enforced by the server). */
const QUERY_CANCELED = '57014';

/**
 * Runs the analytics of committed batches one batch at a time, in commit order, off the check path: `push` returns at
 * once, so neither the batch's commit nor the runner's next claim waits for analytics, and an analytics failure can
 * neither roll back nor hold up a check result. Each failure is logged and counted
 * (`tocsin_check_analytics_failures_total`); the batch's analytics step is then skipped, the next batch runs as usual.
 */
export class BatchAnalyticsQueue {
  private readonly deps: BatchAnalyticsQueueDeps;
  private readonly pending: CommittedBatch[] = [];
  private draining: Promise<void> | null = null;
  constructor(deps: BatchAnalyticsQueueDeps) {
    this.deps = deps;
  }

  /** Called once the batch committed; never throws, never waits. */
  push(batch: CommittedBatch): void {
    if (this.deps.analytics.length === 0 || batch.results.length === 0) return;
    if (this.pending.length >= this.deps.maxPending) {
      for (const a of this.deps.analytics) this.failed(a, 'dropped', null, batch);
      return;
    }
    this.pending.push(batch);
    this.draining ??= this.drain().finally(() => {
      this.draining = null;
    });
  }

  /** Resolves once every batch pushed so far has had its analytics (or their failure). */
  async settled(): Promise<void> {
    while (this.draining) await this.draining;
  }

  private async drain(): Promise<void> {
    for (let batch = this.pending.shift(); batch; batch = this.pending.shift()) {
      for (const analytics of this.deps.analytics) await this.runGuarded(analytics, batch);
    }
  }

  private async runGuarded(analytics: BatchAnalytics, batch: CommittedBatch): Promise<void> {
    const { database, timers, budgetMs } = this.deps;
    let timer: TimerHandle | null = null;
    try {
      await database.transaction(async (tx) => {
        await limitStatementTime(tx, budgetMs);
        const work = analytics.afterBatch(tx, batch);
        const overrun = new Promise<never>((_resolve, reject) => {
          timer = timers.after(budgetMs, () => reject(new BudgetExceeded(`over its ${budgetMs} ms budget`)));
        });
        // Whichever loses the race is settled later and ignored: an overrun step's own later queries fail, since its
        // transaction has ended (Kysely refuses statements on a finished transaction), so it writes nothing outside it.
        work.catch(() => {});
        overrun.catch(() => {});
        await Promise.race([work, overrun]);
      });
    } catch (err) {
      const timedOut = err instanceof BudgetExceeded || (err as { code?: unknown }).code === QUERY_CANCELED;
      this.failed(analytics, timedOut ? 'timeout' : 'error', err, batch);
    } finally {
      if (timer) timers.cancel(timer);
    }
  }

  private failed(analytics: BatchAnalytics, reason: AnalyticsFailure, err: unknown, batch: CommittedBatch): void {
    this.deps.metrics?.checkAnalyticsFailed(analytics.name, reason);
    this.deps.logger.warn(
      { err, analytics: analytics.name, reason, results: batch.results.length },
      'check analytics skipped for a batch (its results, statuses, incidents and alerts are stored)',
    );
  }
}
