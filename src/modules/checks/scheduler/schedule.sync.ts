import type { Clock } from '../../../platform/clock.ts';
import type { Database } from '../../../platform/db/index.ts';
import type { Logger } from '../../../platform/logger.ts';
import type { Monitor, MonitorListener } from '../../monitors/index.ts';
import { CheckStateRepository } from '../state/check-state.repository.ts';
import { firstDueAt, phaseOf } from './schedule.jitter.ts';
import { ScheduleRepository, type ScheduleEntry, type ScheduleKey } from './schedule.repository.ts';

// What every probe uses when a monitor's config has no `timeout_ms` (probes/*: num(config.timeout_ms, 10_000)).
const DEFAULT_CHECK_TIMEOUT_MS = 10_000;

export interface ScheduleSyncDeps {
  database: Database;
  clock: Clock;
  logger: Logger;
  /** Pages of monitors that are not paused, ordered by id. */
  listActive(afterId: string | undefined, limit: number): Promise<Monitor[]>;
}

export function scheduleEntriesOf(monitor: Monitor, now: number): ScheduleEntry[] {
  const intervalMs = monitor.intervalSeconds * 1000;
  const phaseMs = phaseOf(monitor.id, intervalMs);
  return monitor.regionCodes.map((regionCode) => ({
    monitorId: monitor.id,
    regionCode,
    organizationId: monitor.organizationId,
    intervalMs,
    phaseMs,
    firstDueAt: firstDueAt(now, phaseMs, intervalMs),
    monitorVersion: monitor.updatedAt,
    timeoutMs: checkTimeoutMsOf(monitor),
  }));
}

/** The timeout a probe gives this monitor's check (the probes' default when its config has none). */
function checkTimeoutMsOf(monitor: Monitor): number {
  const timeout = monitor.config.timeout_ms;
  return typeof timeout === 'number' && Number.isFinite(timeout) ? timeout : DEFAULT_CHECK_TIMEOUT_MS;
}

/**
 * Keeps `check_schedule` in step with the monitors: told of every save/delete/pause by MonitorsService
 * (as a MonitorListener, inside the transaction that writes the monitor), and reconciled in full when the scheduler role starts (rows for monitors
 * saved while no process listened are added, rows of deleted or paused monitors removed).
 */
export class ScheduleSync implements MonitorListener {
  private readonly deps: ScheduleSyncDeps;
  constructor(deps: ScheduleSyncDeps) {
    this.deps = deps;
  }

  /** Inside the monitor's own transaction (`tx`): its schedule rows change with it or not at all. */
  async monitorSaved(tx: Database, monitor: Monitor, previous: Monitor | null): Promise<void> {
    // Paused before and after (an edit of a paused monitor, or one created paused): it has no rows to remove. Pausing
    // removed them in its transaction; the engine writes no counters for a paused monitor (its batch reads the status
    // under the monitor's lock, and the state machine ignores results while paused); a schedule row the start's
    // reconcile upserted from a page read just before a pause is an orphan that the next reconcile removes (and a
    // resume replaces). So nothing is deleted here, the two deletes that were most of such a save's statements.
    if (monitor.paused && (previous === null || previous.paused)) return;
    const now = this.deps.clock.now();
    const schedule = new ScheduleRepository(tx);
    const state = new CheckStateRepository(tx);
    if (monitor.paused) {
      await schedule.removeMonitor(monitor.id);
      await state.removeMonitor(monitor.id);
      return;
    }
    if (monitor.status === 'pending') await state.removeMonitor(monitor.id);
    else await state.removeMonitor(monitor.id, monitor.regionCodes);
    await schedule.removeMonitor(monitor.id, monitor.regionCodes);
    await schedule.upsert(scheduleEntriesOf(monitor, now));
  }

  async monitorDeleted(tx: Database, monitor: Monitor): Promise<void> {
    await new ScheduleRepository(tx).removeMonitor(monitor.id);
    await new CheckStateRepository(tx).removeMonitor(monitor.id);
  }

  /** Inserts missing rows, refreshes changed ones and removes orphans. Returns what it did. */
  async reconcile(): Promise<{ upserted: number; removed: number }> {
    const now = this.deps.clock.now();
    const schedule = new ScheduleRepository(this.deps.database);
    const wanted = new Map<string, number>();
    let upserted = 0;
    let after: string | undefined;
    for (;;) {
      const page = await this.deps.listActive(after, 1000);
      if (page.length === 0) break;
      const entries = page.flatMap((m) => scheduleEntriesOf(m, now));
      for (const e of entries) wanted.set(`${e.monitorId}\u0000${e.regionCode}`, e.monitorVersion);
      await schedule.upsert(entries);
      upserted += entries.length;
      after = page[page.length - 1]!.id;
    }
    let removed = 0;
    let cursor: ScheduleKey | null = null;
    for (;;) {
      const keys = await schedule.keysAfter(cursor, 2000);
      if (keys.length === 0) break;
      const orphans = keys.filter((k) => !wanted.has(`${k.monitorId}\u0000${k.regionCode}`));
      await schedule.removeKeys(orphans);
      removed += orphans.length;
      cursor = keys[keys.length - 1]!;
    }
    this.deps.logger.info({ upserted, removed }, 'check schedule reconciled');
    return { upserted, removed };
  }
}
