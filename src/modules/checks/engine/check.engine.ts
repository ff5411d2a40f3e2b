import type { Clock } from '../../../platform/clock.ts';
import { PrecompiledQueries, type Database } from '../../../platform/db/index.ts';
import { DomainError, type ErrorDetail } from '../../../platform/errors.ts';
import { newId } from '../../../platform/ids.ts';
import type { Logger } from '../../../platform/logger.ts';
import type { TocsinMetrics } from '../../../platform/metrics/index.ts';
import type { EventsService } from '../../events/index.ts';
import { confirmRegionsOf, type Monitor, type MonitorStatus, type MonitorsService } from '../../monitors/index.ts';
import { keptDetails, type ExecutionRecord } from '../executions/index.ts';
import { heartbeatDeadline } from '../probes/index.ts';
import { HeartbeatsRepository, type HeartbeatState } from '../heartbeats/heartbeats.repository.ts';
import { ScheduleRepository, type ScheduleKey } from '../scheduler/schedule.repository.ts';
import { CheckStateRepository } from '../state/check-state.repository.ts';
import {
  applyResult,
  DEFAULT_FAILURE_THRESHOLD,
  DEFAULT_SUCCESS_THRESHOLD,
  type RegionCounters,
} from '../state/monitor-state.machine.ts';
import type { BatchAnalyticsQueue } from './batch-analytics.queue.ts';
import type { CheckResult, ClaimedCheck, MonitorTransition, TransitionListener } from './check.types.ts';
import { causeOf } from './failure.cause.ts';
import { LatenessWindow } from './lateness.window.ts';
import { parentsFirst } from './transition.order.ts';

export interface ExecutionsSink {
  recordBatch(tx: Database, executions: ExecutionRecord[]): Promise<void>;
}

export interface CheckEngineDeps {
  database: Database;
  clock: Clock;
  logger: Logger;
  executions: ExecutionsSink;
  /**
   * Every transition of a batch goes to each of these, in this order, inside the batch's transaction (composed in
   * main.ts: the monitor's status, the live feed event, the reports timeline, incidents; docs/architecture.md).
   */
  transitions: readonly TransitionListener[];
  /** `cert_expiring` notices go to the outbox in the batch's transaction. */
  events: Pick<EventsService, 'record'>;
  /** Analytics of committed batches (intelligence), run after commit off the check path; null = none. */
  analytics?: BatchAnalyticsQueue | null;
  /** The monitors module: reads monitor definitions and records the last-checked time (in the batch's tx). */
  monitors: Pick<MonitorsService, 'findManyAnywhere' | 'statusesAnywhere' | 'recordChecked'>;
  leaseMs: number;
  /** `tocsin_checks_total` and the duration and lateness histograms; null when metrics are off. */
  metrics?: Pick<TocsinMetrics, 'checkCompleted' | 'checkClaimed'> | null;
}

/** How far behind the checks are (`/readyz`, `/metrics`): see docs/operations.md, "Lateness, backlog, shedding". */
export interface CheckPressure {
  /** Lateness (claimed-at minus due-at) of the checks this process claimed over the last minute; null if none. */
  latenessP50Ms: number | null;
  latenessP99Ms: number | null;
  claimedLastMinute: number;
  /** Every region: checks due and not claimed by any process, and how long the oldest of them has waited. */
  backlog: number;
  oldestDueAgeMs: number;
  /** A due check has waited longer than `SHEDDING_AFTER_MS` unclaimed: runners are saturated (or absent). */
  shedding: boolean;
  regions: Array<{ regionCode: string; backlog: number; oldestDueAgeMs: number }>;
}

/**
 * A runner with free slots claims a due check within one idle wait (100 ms) plus a claim; a check still unclaimed
 * a second after its due time means there were no free slots for it, so claims are choosing among more than they
 * can take.
 */
export const SHEDDING_AFTER_MS = 1_000;

export interface ApplySummary {
  recorded: number;
  transitions: MonitorTransition[];
}

const DAY_MS = 86_400_000;

/** A success that took longer than the monitor's `degraded_latency_ms` (DECISIONS §20). */
export function isSlow(
  o: Pick<CheckResult['observation'], 'status' | 'duration_ms'>,
  limitMs?: number | null,
): boolean {
  return o.status === 'up' && limitMs != null && o.duration_ms > limitMs;
}

/** A region whose last result is older than this shows "no data" and leaves the quorum. */
export function staleAfterMs(intervalMs: number): number {
  return 2 * intervalMs + 60_000;
}

interface CachedMonitor {
  version: number;
  monitor: Monitor;
}

/**
 * Orchestration: claim → (runner probes) → record → state machine → transition listeners → (after commit) analytics.
 * `claim` and `applyResults` are what both the in-process runner and the runner HTTP routes call.
 * Each `applyResults` call is one transaction for the whole batch: executions (and their rollups), counters and
 * whatever the transition listeners write (statuses, timeline, incidents, outbox events) commit together; analytics
 * run after the commit, guarded, and never hold up the batch.
 */
export class CheckEngine {
  private readonly deps: CheckEngineDeps;
  private readonly cache = new Map<string, CachedMonitor>();
  /** The result batch's per-batch statements, compiled once per row count (they recur every batch). */
  private readonly queries = new PrecompiledQueries();
  private readonly lateness = new LatenessWindow();
  constructor(deps: CheckEngineDeps) {
    this.deps = deps;
  }

  /**
   * Keeps runners off these monitors until `until` (epoch ms, the runners' clock) or `releaseHold(owner)`: whoever
   * feeds their results itself (`tocsin demo` playing a history beside a running server) is then their only source.
   * `database` may be a transaction, so a monitor is held from the commit that creates it.
   */
  async hold(database: Database, owner: string, monitorIds: readonly string[], until: number): Promise<void> {
    await new ScheduleRepository(database).hold(owner, monitorIds, until);
  }

  /** Ends `hold(owner, …)`: the monitors' next slots are claimed as usual (the overdue ones first). */
  async releaseHold(owner: string): Promise<void> {
    await this.deps.database.transaction((tx) => new ScheduleRepository(tx).releaseAll(owner));
  }

  /**
   * One transaction: on SQLite the claim takes the one connection once (the urgent lane's turn) rather than queueing
   * again for each of its statements behind the API's.
   */
  claim(owner: string, regions: readonly string[], limit: number, lookaheadMs = 0): Promise<ClaimedCheck[]> {
    return this.deps.database.transaction((tx) => this.claimIn(tx, owner, regions, limit, lookaheadMs));
  }

  private async claimIn(
    database: Database,
    owner: string,
    regions: readonly string[],
    limit: number,
    lookaheadMs: number,
  ): Promise<ClaimedCheck[]> {
    const { clock } = this.deps;
    const slots = await new ScheduleRepository(database).claim(
      owner,
      regions,
      clock.now(),
      this.deps.leaseMs,
      limit,
      lookaheadMs,
    );
    if (slots.length === 0) return [];
    const stale = [
      ...new Set(
        slots.filter((s) => this.cache.get(s.monitorId)?.version !== s.monitorVersion).map((s) => s.monitorId),
      ),
    ];
    if (stale.length > 0) {
      const monitors = await this.deps.monitors.findManyAnywhere(stale, database);
      // Keyed by the schedule's monitor_version (set by the listener on every user save); status changes
      // touch updated_at but not the schedule, so they do not invalidate the cache.
      const versionOf = new Map(slots.map((s) => [s.monitorId, s.monitorVersion]));
      for (const m of monitors) this.cache.set(m.id, { version: versionOf.get(m.id)!, monitor: m });
    }
    const heartbeatIds = slots
      .filter((s) => this.cache.get(s.monitorId)?.monitor.type === 'heartbeat')
      .map((s) => s.monitorId);
    const states =
      heartbeatIds.length > 0
        ? await new HeartbeatsRepository(database).states(heartbeatIds)
        : new Map<string, HeartbeatState>();
    const pings = new Map([...states].map(([id, s]) => [id, s.lastPingAt]));
    const out: ClaimedCheck[] = [];
    const gone: ScheduleKey[] = [];
    const now = clock.now();
    for (const s of slots) {
      const m = this.cache.get(s.monitorId)?.monitor;
      if (!m || m.paused || this.awaitsFirstPing(m, pings, now)) {
        gone.push(s);
        continue;
      }
      this.claimed(s.regionCode, now, s.wasDueAt, s.dueAt, m.intervalSeconds * 1000);
      out.push({
        monitorId: m.id,
        organizationId: m.organizationId,
        regionCode: s.regionCode,
        dueAt: s.dueAt,
        target: { id: m.id, type: m.type, target: m.target, interval_seconds: m.intervalSeconds, config: m.config },
        createdAt: m.createdAt,
        lastHeartbeatAt: pings.get(m.id) ?? null,
        ...(states.has(m.id) && { heartbeatRun: states.get(m.id)!.run }),
      });
    }
    if (gone.length > 0) await new ScheduleRepository(database, this.queries).release(owner, gone);
    return out;
  }

  /**
   * Lateness counts from the oldest slot the check missed (`wasDueAt`), not the slot it runs: a check due 50 s ago
   * on a 20 s interval is 50 s late, and two slots were skipped (never queued: the claim runs the latest one).
   */
  private claimed(regionCode: string, now: number, wasDueAt: number, dueAt: number, intervalMs: number): void {
    const latenessMs = Math.max(0, now - wasDueAt);
    this.lateness.record(now, latenessMs);
    const skipped = intervalMs > 0 ? Math.max(0, Math.round((dueAt - wasDueAt) / intervalMs)) : 0;
    this.deps.metrics?.checkClaimed(regionCode, latenessMs, skipped);
  }

  /** The lateness of this process's claims over the last minute and every region's unclaimed backlog. */
  async pressure(): Promise<CheckPressure> {
    const now = this.deps.clock.now();
    const backlog = await new ScheduleRepository(this.deps.database).backlog(now);
    const window = this.lateness.summary(now);
    const regions = backlog.map((b) => ({
      regionCode: b.regionCode,
      backlog: b.count,
      oldestDueAgeMs: b.oldestDueAt === null ? 0 : Math.max(0, now - b.oldestDueAt),
    }));
    const oldestDueAgeMs = Math.max(0, ...regions.map((r) => r.oldestDueAgeMs));
    return {
      latenessP50Ms: window?.p50Ms ?? null,
      latenessP99Ms: window?.p99Ms ?? null,
      claimedLastMinute: window?.count ?? 0,
      backlog: regions.reduce((n, r) => n + r.backlog, 0),
      oldestDueAgeMs,
      shedding: oldestDueAgeMs > SHEDDING_AFTER_MS,
      regions,
    };
  }

  /**
   * A heartbeat monitor that never received a ping has nothing to judge until its first deadline (creation +
   * interval + grace) has passed: it is not checked, so it stays `pending` instead of turning up on no evidence.
   */
  private awaitsFirstPing(m: Monitor, pings: ReadonlyMap<string, number>, now: number): boolean {
    if (m.type !== 'heartbeat' || pings.has(m.id)) return false;
    return now <= heartbeatDeadline({ interval_seconds: m.intervalSeconds, config: m.config }, m.createdAt);
  }

  /** When the next check of `regions` is due (null when none is scheduled): how long an idle runner may sleep. */
  nextDueAt(regions: readonly string[]): Promise<number | null> {
    return new ScheduleRepository(this.deps.database).nextDueAt(regions);
  }

  /** Records a batch of results in one transaction and applies the state machine to each, in time order. */
  applyResults(owner: string, results: readonly CheckResult[]): Promise<ApplySummary> {
    return this.apply(owner, results, false);
  }

  /**
   * Results reported by a remote runner: each must be for a check whose lease `owner` holds and that has not
   * ended, one result per lease. Otherwise nothing is recorded and a `conflict` error names every such result
   * (`results[i]`), so a runner can never report a check it did not claim (another organization's monitor in its
   * region, a slot taken over after its lease ended, the same result twice).
   */
  applyLeasedResults(owner: string, results: readonly CheckResult[]): Promise<ApplySummary> {
    return this.apply(owner, results, true);
  }

  private async apply(owner: string, results: readonly CheckResult[], leased: boolean): Promise<ApplySummary> {
    if (results.length === 0) return { recorded: 0, transitions: [] };
    const ordered = [...results].sort((a, b) => a.observation.started_at - b.observation.started_at);
    const monitorIds = [...new Set(ordered.map((r) => r.monitorId))];
    const { logger } = this.deps;
    const summary = await this.deps.database.transaction(async (tx) => {
      const stateRepo = new CheckStateRepository(tx, this.queries);
      await stateRepo.lockMonitors(monitorIds);
      if (leased) await this.requireLeases(tx, owner, results);
      const { monitors, statusOf } = await this.definitionsOf(monitorIds, tx);
      const executions: ExecutionRecord[] = [];
      // The store may assign the final ids (it rewrites `id`), so ids are read from the records after recordBatch.
      const executionOf = new Map<CheckResult, ExecutionRecord>();
      for (const r of ordered) {
        const m = monitors.get(r.monitorId);
        if (!m) continue; // deleted while the check ran
        const o = r.observation;
        const record: ExecutionRecord = {
          id: newId('exe', o.started_at),
          organizationId: m.organizationId,
          monitorId: m.id,
          regionCode: r.regionCode,
          startedAt: o.started_at,
          status: o.status,
          durationMs: o.duration_ms,
          timings: o.timings,
          httpStatus: o.http_status,
          assertions: o.assertions,
          error: o.error,
          details: keptDetails(o.details),
        };
        executionOf.set(r, record);
        executions.push(record);
      }
      await this.deps.executions.recordBatch(tx, executions);

      const counters = await stateRepo.load(monitorIds);
      const dirty = new Map<string, { monitorId: string; counters: RegionCounters }>();
      const transitions: MonitorTransition[] = [];
      const certEvents: Array<{ monitor: Monitor; at: number; data: Record<string, unknown> }> = [];
      for (const r of ordered) {
        const m = monitors.get(r.monitorId);
        if (!m) continue;
        const cfg = m.config;
        const out = applyResult(
          {
            status: statusOf.get(m.id)!,
            regionCodes: m.regionCodes,
            failureThreshold: cfg.failure_threshold ?? DEFAULT_FAILURE_THRESHOLD,
            successThreshold: cfg.success_threshold ?? DEFAULT_SUCCESS_THRESHOLD,
            confirmRegions: (n) => confirmRegionsOf(cfg, n),
            degradedLatencyMs: cfg.degraded_latency_ms ?? null,
          },
          counters.get(m.id) ?? [],
          {
            regionCode: r.regionCode,
            status: r.observation.status,
            at: r.observation.started_at,
            cause: causeOf(r.observation),
            slow: isSlow(r.observation, cfg.degraded_latency_ms),
          },
          staleAfterMs(m.intervalSeconds * 1000),
        );
        counters.set(m.id, out.regions);
        if (out.updated) dirty.set(`${m.id}\u0000${r.regionCode}`, { monitorId: m.id, counters: out.updated });
        if (out.transition) {
          statusOf.set(m.id, out.status);
          const t: MonitorTransition = {
            organizationId: m.organizationId,
            monitorId: m.id,
            monitorName: m.name,
            ...out.transition,
            executionId: executionOf.get(r)?.id ?? null,
            durationMs: r.observation.duration_ms,
            degradedLatencyMs: cfg.degraded_latency_ms ?? null,
          };
          transitions.push(t);
        }
        for (const e of r.observation.events ?? []) {
          if (e.type === 'cert_expiring') certEvents.push({ monitor: m, at: r.observation.started_at, data: e.data });
        }
      }
      await stateRepo.save([...dirty.values()]);
      // Every transition to every listener, pending → up included (after a resume the monitor may still have the
      // incident of its outage before the pause, and this verdict resolves it).
      // Parents before their children (DECISIONS §17): a child's decision reads its parents' verdicts of this batch.
      for (const t of parentsFirst(transitions, monitors)) {
        for (const listener of this.deps.transitions) await listener.onTransition(tx, t);
      }
      if (certEvents.length > 0) await this.recordCertEvents(tx, stateRepo, certEvents);
      const lastAt = ordered[ordered.length - 1]!.observation.started_at;
      await this.deps.monitors.recordChecked([...monitors.keys()], lastAt, tx);
      await new ScheduleRepository(tx, this.queries).release(owner, ordered);
      tx.afterCommit(() => this.countChecks(ordered, monitors));
      const analytics = this.deps.analytics;
      if (analytics) {
        const results = ordered.filter((r) => monitors.has(r.monitorId));
        tx.afterCommit(() => analytics.push({ results, monitors, transitions }));
      }
      return { recorded: executions.length, transitions };
    });
    for (const t of summary.transitions) {
      logger.info({ monitorId: t.monitorId, from: t.from, to: t.to, cause: t.cause }, 'monitor status changed');
    }
    return summary;
  }

  /**
   * The monitors of a result batch as they were claimed (the definitions the checks ran with, from the claim's
   * cache) and their current statuses, read in the batch's transaction. A monitor deleted since is in neither; one
   * not in the cache (claimed by an earlier process, or a result applied without a claim) is read whole.
   */
  private async definitionsOf(
    monitorIds: readonly string[],
    tx: Database,
  ): Promise<{ monitors: Map<string, Monitor>; statusOf: Map<string, MonitorStatus> }> {
    const statusOf = await this.deps.monitors.statusesAnywhere(monitorIds, tx);
    const monitors = new Map<string, Monitor>();
    const uncached: string[] = [];
    for (const id of monitorIds) {
      if (!statusOf.has(id)) continue;
      const cached = this.cache.get(id)?.monitor;
      if (cached) monitors.set(id, cached);
      else uncached.push(id);
    }
    if (uncached.length > 0) {
      for (const m of await this.deps.monitors.findManyAnywhere(uncached, tx)) monitors.set(m.id, m);
    }
    return { monitors, statusOf };
  }

  /** Inside the batch's transaction: every result is for a live lease of `owner`, each lease used once. */
  private async requireLeases(tx: Database, owner: string, results: readonly CheckResult[]): Promise<void> {
    const held = await new ScheduleRepository(tx).liveLeases(owner, results, this.deps.clock.now());
    const details: ErrorDetail[] = [];
    results.forEach((r, i) => {
      const key = `${r.monitorId}\u0000${r.regionCode}`;
      if (held.delete(key)) return;
      details.push({
        field: `results[${i}]`,
        issue: `no live lease of this runner for monitor ${r.monitorId} in region ${r.regionCode} (never claimed, already reported, or the lease ended)`,
      });
    });
    if (details.length > 0) {
      throw new DomainError(
        'conflict',
        'Some results are not for checks this runner holds a live lease on; nothing was recorded.',
        details,
      );
    }
  }

  private async recordCertEvents(
    tx: Database,
    stateRepo: CheckStateRepository,
    events: Array<{ monitor: Monitor; at: number; data: Record<string, unknown> }>,
  ): Promise<void> {
    const days = await stateRepo.certNoticeDays(events.map((e) => e.monitor.id));
    for (const e of events) {
      const day = Math.floor(e.at / DAY_MS);
      if (days.get(e.monitor.id) === day) continue;
      days.set(e.monitor.id, day);
      await this.deps.events.record(tx, {
        type: 'cert_expiring',
        organizationId: e.monitor.organizationId,
        monitorId: e.monitor.id,
        incidentId: null,
        occurredAt: e.at,
        payload: { ...e.data, monitor_name: e.monitor.name, target: e.monitor.target },
      });
      await stateRepo.setCertNoticeDay(e.monitor.id, day);
    }
  }

  /** Checks are counted once their results are stored (a batch that rolls back counts nothing). */
  private countChecks(results: readonly CheckResult[], monitors: ReadonlyMap<string, Monitor>): void {
    const metrics = this.deps.metrics;
    if (!metrics) return;
    for (const r of results) {
      const type = monitors.get(r.monitorId)?.type;
      const o = r.observation;
      if (type) metrics.checkCompleted(type, r.regionCode, o.status, o.duration_ms, o.started_at - r.dueAt);
    }
  }

  /** Resolves once the analytics of every batch committed so far have run (or failed); tests, demo, shutdown. */
  analyticsSettled(): Promise<void> {
    return this.deps.analytics?.settled() ?? Promise.resolve();
  }

  /** Forgets cached monitor definitions (tests; a changed monitor is also detected by its version). */
  forget(monitorId?: string): void {
    if (monitorId) this.cache.delete(monitorId);
    else this.cache.clear();
  }
}
