import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/index.ts';
import type { Logger } from '../../platform/logger.ts';
import { BackgroundLoop } from '../../platform/background-loop.ts';
import type { BackgroundRole } from '../../platform/background-role.ts';
import type { EventsService } from '../events/index.ts';
import type { MonitorTransition } from '../incidents/index.ts';
import type { MonitorStatus } from '../monitors/index.ts';
import { MaintenanceRepository, type HeldOutage } from './maintenance.repository.ts';
import { covers, type MaintenanceMonitors, type MaintenanceService } from './maintenance-window.service.ts';
import { OccurrenceMemo } from './maintenance.occurrence-memo.ts';
import { occurrencesBetween } from './maintenance.occurrences.ts';
import type { MaintenanceWindow, Occurrence } from './maintenance.types.ts';

/** The incidents module's decision, which the role hands a held outage that outlived its window (IncidentsService fits). */
export interface MaintenanceIncidents {
  handleMonitorTransition(tx: Database, t: MonitorTransition): Promise<void>;
}

export interface MaintenanceEventsDeps {
  database: Database;
  clock: Clock;
  logger: Logger;
  events: Pick<EventsService, 'record'>;
  incidents: MaintenanceIncidents;
  monitors: Pick<MaintenanceMonitors, 'findManyAnywhere'> & {
    statusesAnywhere(ids: readonly string[], db?: Database): Promise<Map<string, MonitorStatus>>;
  };
  /** The organizations' windows as the service keeps them (read again only when they changed). */
  windows: Pick<MaintenanceService, 'windowsOfOrganization'>;
  /** How often the role looks (default 5 s): events and judgements come at most this late. */
  everyMs?: number;
}

/** Occurrences that started or ended longer ago than this (the process was down) are not announced any more. */
const LOOKBACK_MS = 24 * 3_600_000;
const PAGE = 500;

/**
 * Background role `maintenance-events`. Each pass, in one transaction per step:
 * - emits `maintenance_started` / `maintenance_ended` once per occurrence (the row in `maintenance_emission` and the
 *   outbox event commit together, so a restart, a crash or a second process neither loses nor doubles one);
 * - judges held outages whose monitor no window covers any more: still down → its incident opens at the end of the
 *   last occurrence that covered it (one `down`); otherwise the hold is dropped.
 */
export class MaintenanceEventsRole implements BackgroundRole {
  readonly name = 'maintenance-events';
  private readonly deps: MaintenanceEventsDeps;
  private readonly loop: BackgroundLoop;
  /** Each window's occurrences, computed once per edit and per 10 minutes instead of on every pass. */
  private readonly occurrences = new OccurrenceMemo();
  /**
   * Emissions known to be stored, by window: `started|start` / `ended|start` → the occurrence's end. A stored emission
   * is never undone (its row goes only with its window), so a pass asks the database only about the others.
   */
  private readonly emittedKnown = new Map<string, Map<string, number>>();
  constructor(deps: MaintenanceEventsDeps) {
    this.deps = deps;
    this.loop = new BackgroundLoop({
      name: this.name,
      everyMs: deps.everyMs ?? 5_000,
      pass: () => this.runPass().then(() => undefined),
      failed: (err) => void deps.logger.error({ err }, 'maintenance events pass failed'),
    });
  }

  start(): Promise<void> {
    return this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** One pass; returns how many events were emitted and outages judged (tests call it with a manual clock). */
  async runPass(): Promise<{ emitted: number; judged: number }> {
    const now = this.deps.clock.now();
    let emitted = 0;
    let after: string | undefined;
    const seen = new Set<string>();
    for (;;) {
      const windows = await new MaintenanceRepository(this.deps.database).pageAll(after, PAGE);
      for (const w of windows) {
        seen.add(w.id);
        emitted += await this.emitFor(w, now);
      }
      if (windows.length < PAGE) break;
      after = windows[windows.length - 1]!.id;
    }
    this.occurrences.retainOnly(seen);
    for (const id of this.emittedKnown.keys()) if (!seen.has(id)) this.emittedKnown.delete(id);
    const judged = await this.judgeHeld(now);
    return { emitted, judged };
  }

  private async emitFor(w: MaintenanceWindow, now: number): Promise<number> {
    const since = Math.max(w.createdAt, now - LOOKBACK_MS);
    const known = this.emittedKnown.get(w.id);
    if (known) for (const [key, end] of known) if (end <= since) known.delete(key); // out of the look-back
    let n = 0;
    for (const o of this.occurrences.between(w, since, now + 1)) {
      if (o.start <= now && o.end > since && (await this.emit(w, o, 'started', now))) n += 1;
      if (o.end <= now && o.end > since && (await this.emit(w, o, 'ended', now))) n += 1;
    }
    return n;
  }

  private async emit(w: MaintenanceWindow, o: Occurrence, kind: 'started' | 'ended', now: number): Promise<boolean> {
    const key = `${kind}|${o.start}`;
    if (this.emittedKnown.get(w.id)?.has(key)) return false;
    const remember = () => {
      const known = this.emittedKnown.get(w.id) ?? new Map<string, number>();
      known.set(key, o.end);
      this.emittedKnown.set(w.id, known);
    };
    const repo = new MaintenanceRepository(this.deps.database);
    if (await repo.emitted(w.id, o.start, kind)) {
      remember();
      return false;
    }
    // Remembered once the transaction has committed (recorded here, or found recorded by another process).
    const recorded = await this.deps.database.transaction(async (tx) => {
      const inserted = await new MaintenanceRepository(tx).tryRecordEmission({
        windowId: w.id,
        occurrenceStart: o.start,
        kind,
        organizationId: w.organizationId,
        at: now,
      });
      if (!inserted) return false;
      await this.deps.events.record(tx, {
        organizationId: w.organizationId,
        type: kind === 'started' ? 'maintenance_started' : 'maintenance_ended',
        monitorId: null,
        incidentId: null,
        occurredAt: kind === 'started' ? o.start : o.end,
        payload: {
          maintenance_window_id: w.id,
          name: w.name,
          description: w.description,
          starts_at: new Date(o.start).toISOString(),
          ends_at: new Date(o.end).toISOString(),
          timezone: w.timezone,
          monitor_ids: w.monitorIds,
          tags: w.tags,
          // Status pages whose subscribers are told (DECISIONS §18).
          status_page_ids: w.statusPageIds,
          summary: `Maintenance "${w.name}" ${kind === 'started' ? 'started' : 'ended'}.`,
        },
      });
      return true;
    });
    remember();
    return recorded;
  }

  private async judgeHeld(now: number): Promise<number> {
    const { database } = this.deps;
    const byOrg = new Map<string, HeldOutage[]>();
    for (const windowOrg of await this.organizationsWithHolds()) {
      byOrg.set(windowOrg, await new MaintenanceRepository(database).heldOfOrganization(windowOrg));
    }
    let judged = 0;
    for (const [organizationId, holds] of byOrg) {
      const windows = (await this.deps.windows.windowsOfOrganization(database, organizationId)).filter(
        (w) => w.suppressAlerts,
      );
      const monitors = new Map(
        (
          await this.deps.monitors.findManyAnywhere(
            holds.map((h) => h.monitorId),
            database,
          )
        ).map((m) => [m.id, m]),
      );
      for (const h of holds) {
        const m = monitors.get(h.monitorId);
        const mine = m ? windows.filter((w) => covers(w, m)) : [];
        const occurrences = mine.flatMap((w) => occurrencesBetween(w, h.heldAt, now + 1));
        if (occurrences.some((o) => o.start <= now && now < o.end)) continue; // still in maintenance
        const ends = occurrences.map((o) => o.end).filter((e) => e <= now);
        const judgedFrom = ends.length > 0 ? Math.max(...ends) : now;
        const done = await database.transaction(async (tx) => {
          if (!(await new MaintenanceRepository(tx).release(h.monitorId))) return false;
          if (!m) return true;
          const status = (await this.deps.monitors.statusesAnywhere([m.id], tx)).get(m.id);
          if (status !== 'down') return true;
          await this.deps.incidents.handleMonitorTransition(tx, {
            organizationId: m.organizationId,
            monitorId: m.id,
            monitorName: m.name,
            from: 'up',
            to: 'down',
            at: judgedFrom,
            downSince: judgedFrom,
            cause: h.cause,
            executionId: null,
          });
          return true;
        });
        if (done) judged += 1;
      }
    }
    return judged;
  }

  private async organizationsWithHolds(): Promise<string[]> {
    return new MaintenanceRepository(this.deps.database).organizationsWithHolds();
  }
}
