import type { BackgroundRole } from '../../../platform/background-role.ts';
import type { Clock } from '../../../platform/clock.ts';
import type { ChangeSignals, Database } from '../../../platform/db/index.ts';
import { newId } from '../../../platform/ids.ts';
import type { Logger } from '../../../platform/logger.ts';
import type { TocsinMetrics } from '../../../platform/metrics/index.ts';
import { systemTimers, type Timers } from '../../../platform/timers.ts';
import type { EventsService } from '../../events/index.ts';
import type { MonitorsService } from '../../monitors/index.ts';
import { createProbeRegistry, type Observation, type ProbeRegistry } from '../probes/index.ts';
import { HeartbeatsService } from '../heartbeats/heartbeats.service.ts';
import { HeartbeatKeysService } from '../heartbeats/heartbeat-keys.service.ts';
import { CheckRunner } from '../runner/check.runner.ts';
import { ClaimWait } from '../runner/claim.wait.ts';
import { LocalWorkSource } from '../runner/local.source.ts';
import { RunnersService } from '../runner/runners.service.ts';
import { ScheduleSync } from '../scheduler/schedule.sync.ts';
import { CheckEngine, type ExecutionsSink } from './check.engine.ts';
import { BatchAnalyticsQueue, type BatchAnalytics } from './batch-analytics.queue.ts';
import type { ClaimedCheck, TransitionListener } from './check.types.ts';

export interface CheckEngineModuleDeps {
  database: Database;
  clock: Clock;
  logger: Logger;
  monitors: MonitorsService;
  events: EventsService;
  executions: ExecutionsSink;
  /** The path from a check to an alert: called in order for every transition, inside the batch's transaction. */
  transitions: readonly TransitionListener[];
  /** Analytics of every committed batch (intelligence), after its commit, off the check path and guarded. */
  analytics: readonly BatchAnalytics[];
  /** The analytics' time budget and the remote runners' long-poll waits (tests drive them); the system's by default. */
  timers?: Timers;
  regions: readonly string[];
  scheduler: { enabled: boolean; leaseSeconds: number; concurrency: number; localRegions: readonly string[] };
  allowPrivateTargets: boolean;
  probes?: ProbeRegistry;
  /** Counts recorded checks (`tocsin_checks_total` …); null or absent when metrics are off. */
  metrics?: TocsinMetrics | null;
  /** Benchmarks: told of every check the local runner finishes. */
  onResult?(check: ClaimedCheck, observation: Observation): void;
  /** Schedule changes (`SCHEDULE_CHANGED`) of this and other processes wake the idle in-process runner. */
  signals: ChangeSignals;
}

/**
 * One analytics step of one batch may hold its transaction this long (then it is rolled back and counted). Intelligence
 * takes about 0.05 ms per check (docs/BENCHMARKS.md), 25 ms for a full batch of 500: the budget is 200 times that, so
 * only a stuck query reaches it. On SQLite it is also the longest the process's one connection waits for analytics.
 */
export const ANALYTICS_BUDGET_MS = 5_000;
/** Batches awaiting analytics beyond this many are dropped (counted): about 50 s of checks at 5,000 a second. */
export const ANALYTICS_MAX_PENDING = 500;

/** The change-signal topic of a schedule change that may make a check due sooner (a save, a heartbeat ping). */
export const SCHEDULE_CHANGED = 'schedule';

export interface CheckEngineModule {
  engine: CheckEngine;
  sync: ScheduleSync;
  runners: RunnersService;
  /** Remote runners' long-poll claims (POST /runners/claim): wait on schedule changes and due times. */
  claims: ClaimWait;
  heartbeats: HeartbeatsService;
  /** Organizations' ping keys and heartbeat slugs. */
  heartbeatKeys: HeartbeatKeysService;
  /** The in-process runner (serves `scheduler.local_regions`); tests drive it with runOnce(). */
  localRunner: CheckRunner;
  /** `scheduler` (reconcile the schedule at start) and `local-runner`; empty when `scheduler.enabled` is false. */
  roles: BackgroundRole[];
}

/** Builds the check engine and keeps the schedule in step with monitors (registers a MonitorListener). */
export function createCheckEngineModule(deps: CheckEngineModuleDeps): CheckEngineModule {
  const { database, clock, logger } = deps;
  const sync = new ScheduleSync({
    database,
    clock,
    logger,
    listActive: (after, limit) => deps.monitors.listActive(after, limit),
  });
  deps.monitors.addListener(sync);
  const engine = new CheckEngine({
    // Claims and result batches go before queued API statements: their wait is the checks' lateness.
    database: database.urgent(),
    clock,
    logger,
    executions: deps.executions,
    transitions: deps.transitions,
    events: deps.events,
    monitors: deps.monitors,
    analytics: new BatchAnalyticsQueue({
      database,
      logger,
      timers: deps.timers ?? systemTimers,
      analytics: deps.analytics,
      budgetMs: ANALYTICS_BUDGET_MS,
      maxPending: ANALYTICS_MAX_PENDING,
      metrics: deps.metrics,
    }),
    leaseMs: deps.scheduler.leaseSeconds * 1000,
    metrics: deps.metrics,
  });
  const runners = new RunnersService({
    database,
    clock,
    regions: deps.regions,
    localRegions: deps.scheduler.enabled ? deps.scheduler.localRegions : [],
  });
  const heartbeats = new HeartbeatsService({
    database,
    clock,
    findByTokens: (tokens, db) => deps.monitors.findByHeartbeatTokens(tokens, db),
    madeDue: (tx) => deps.signals.signal(tx, SCHEDULE_CHANGED),
  });
  const owner = newId('run', clock.now()).replace(/^run_/, 'proc_');
  const localRunner = new CheckRunner({
    source: new LocalWorkSource(engine, owner, deps.scheduler.localRegions),
    probes: deps.probes ?? createProbeRegistry(),
    clock,
    logger,
    concurrency: deps.scheduler.concurrency,
    allowPrivateTargets: deps.allowPrivateTargets,
    // Between due checks the idle runner reads nothing: schedule changes are signalled (other processes' too on
    // PostgreSQL), so the re-read of the next due time is only a safety poll.
    maxIdleMs: () => deps.signals.safetyPollMs,
    // Claims 1 s ahead (about one claim a second instead of ten at an even load) and starts the checks on a 100 ms grid,
    // one timer per grid instant: the same 0–100 ms after the slot as claiming every 100 ms (docs/check-engine.md).
    lookaheadMs: 1_000,
    // Steady results go in one batch a second (one transaction, and one analytics transaction, instead of four):
    // results that may change a verdict still go within 5 ms (urgentFlushMs), so no alert waits for it.
    flushMs: 1_000,
    startGridMs: 100,
    ...(deps.onResult && { onResult: (c: ClaimedCheck, o: Observation) => deps.onResult?.(c, o) }),
  });
  // The idle runner sleeps until its next due check; a schedule change wakes it once committed.
  // A paused monitor has no schedule rows: its save makes nothing due sooner, and under an API mix of edits to paused
  // monitors the signal woke the runner into an empty claim after every request (≈ 4 % of the process's CPU).
  deps.monitors.addListener({
    monitorSaved: async (tx, monitor) => {
      if (!monitor.paused) deps.signals.signal(tx, SCHEDULE_CHANGED);
    },
    monitorDeleted: async () => {},
  });
  deps.signals.on(SCHEDULE_CHANGED, () => localRunner.nudge());
  const heartbeatKeys = new HeartbeatKeysService({ database, clock });
  deps.monitors.addListener(heartbeatKeys.listener());
  // A remote runner's claim that found nothing waits the same way: until the next due time or a schedule change.
  const claims = new ClaimWait({
    engine,
    clock,
    timers: deps.timers ?? systemTimers,
    onScheduleChanged: (listener) => deps.signals.on(SCHEDULE_CHANGED, listener),
    safetyPollMs: () => deps.signals.safetyPollMs,
  });
  const roles: BackgroundRole[] = [];
  if (deps.scheduler.enabled) {
    roles.push({
      name: 'scheduler',
      start: async () => {
        await sync.reconcile();
      },
      stop: async () => {},
    });
    if (deps.scheduler.localRegions.length > 0) {
      roles.push({
        name: 'local-runner',
        start: async () => localRunner.start(),
        stop: () => localRunner.stop(),
      });
    }
  }
  return { engine, sync, runners, claims, heartbeats, heartbeatKeys, localRunner, roles };
}
