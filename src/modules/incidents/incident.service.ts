import { resourceChange, type AuditChange } from '../audit/index.ts';
import type { Clock } from '../../platform/clock.ts';
import { toIso } from '../../platform/clock.ts';
import { decodeIdCursor, pageOf } from '../../platform/cursor.ts';
import type { Database } from '../../platform/db/index.ts';
import { notFound, validationFailed, type ErrorDetail } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { bucketedRange, type BucketQuery } from '../../platform/time-buckets.ts';
import { actorRef, canSeeEnvironment, type Actor, type ServiceContext } from '../auth/index.ts';
import type { EventType, EventsService } from '../events/index.ts';
import type { Monitor, MonitorListener, Page } from '../monitors/index.ts';
import { IncidentsRepository, type IncidentKey } from './incidents.repository.ts';
import { blockingParents, heldMessage, recheckAt, type MonitorDependencies } from './incident.dependencies.ts';
import type { MaintenanceGate } from './incident.maintenance-gate.ts';
import {
  durationSeconds,
  isHeld,
  outageStart,
  timeToAcknowledgeSeconds,
  timeToResolveSeconds,
  type Incident,
  type IncidentFilter,
  type IncidentSource,
  type IncidentWithTimeline,
  type MonitorTransition,
  type TimelineEntry,
} from './incident.types.ts';

/** What the incidents module needs from the monitors module (MonitorsService satisfies it). */
export interface IncidentMonitors {
  findAnywhere(id: string): Promise<Monitor | null>;
  findManyAnywhere(ids: readonly string[]): Promise<Monitor[]>;
}

export interface IncidentsServiceDeps {
  database: Database;
  clock: Clock;
  events: EventsService;
  monitors: IncidentMonitors;
  /** The name a person goes by (the orgs module's user: name, else email); absent: timelines show ids only. */
  people?: { nameOf(userId: string): Promise<string | null> };
  /** Parents and children of monitors (DECISIONS §17); absent: no incident is ever held. */
  dependencies?: MonitorDependencies;
  /** Maintenance windows (DECISIONS §16): outages inside one are held, not alerted; absent: no windows. */
  maintenance?: MaintenanceGate | null;
}

/** The range of GET /incidents/opened: hour or day buckets (no minute: incidents are few). */
export type OpenedCountQuery = Omit<BucketQuery, 'resolution'> & { resolution?: 'hour' | 'day' };

/** Incidents opened in one bucket [start, end). */
export interface OpenedBucket {
  start: number;
  end: number;
  opened: number;
}

/** Body of POST /incidents, its shape checked by the route's schema. */
export interface IncidentInput {
  title: string;
  cause?: string | null;
  monitor_id?: string | null;
}

export const TITLE_MAX = 200;
export const CAUSE_MAX = 2000;
const AUTO = 'auto';
/** Rows fetched per round when environment scoping hides some incidents of a page. */
const SCAN_BATCH = 200;

/**
 * Incidents (DECISIONS §6): one per monitor outage (enforced by a unique partial index), API/manual ones,
 * acknowledge/resolve, per-organization numbers, a timeline, and an outbox event with every change.
 */
export class IncidentsService implements MonitorListener {
  private readonly deps: IncidentsServiceDeps;
  constructor(deps: IncidentsServiceDeps) {
    this.deps = deps;
  }

  /**
   * Called by the check engine inside its transaction (`tx`): to=down opens the monitor's incident unless
   * one is open, to=up resolves it; outbox events are recorded in the same transaction.
   */
  async handleMonitorTransition(tx: Database, t: MonitorTransition): Promise<void> {
    // Between up and degraded (DECISIONS §20: not an outage) there is no incident to open or resolve.
    if ((t.from === 'up' || t.from === 'degraded') && t.to !== 'down') return;
    const repo = new IncidentsRepository(tx);
    const gate = this.deps.maintenance;
    if (t.to === 'down') {
      if (gate && (await gate.holdDown(tx, t))) return;
      await this.openForMonitor(tx, repo, t);
      return;
    }
    // A parent's recovery may release its held children: decided under the dependency lock, before any write.
    const children = this.deps.dependencies ? await this.deps.dependencies.childrenOf(tx, t.monitorId) : [];
    if (children.length > 0) await repo.lockDependencyDecisions();
    if (gate) {
      const held = await gate.releaseOnRecovery(tx, t);
      if (held) {
        if (held.judgedFrom === null) {
          // Went down and recovered inside maintenance: nothing to tell, but children it held may be released.
          if (children.length > 0) await this.releaseChildren(tx, repo, t.monitorId, t.at);
          return;
        }
        // The outage outlived the window: it is one from the window's end, opened then and resolved by this verdict.
        const at = held.judgedFrom;
        await this.openForMonitor(tx, repo, {
          ...t,
          to: 'down',
          at,
          downSince: at,
          cause: held.cause,
          executionId: null,
        });
      }
    }
    const open = await repo.findOpenForMonitor(t.monitorId);
    if (open) {
      await repo.addTimeline(open, {
        type: 'monitor_up',
        at: t.at,
        actor: AUTO,
        message: `${t.monitorName} recovered.`,
      });
      await this.resolveWith(tx, repo, open, AUTO, t.at, 'recovered');
    } else if (t.from === 'down') {
      // The incident was resolved by hand while the monitor was down: still tell destinations it recovered
      // (unless it was held and never alerted: nobody heard it went down).
      const latest = await repo.findLatestForMonitor(t.monitorId);
      if (!latest || !isHeld(latest)) {
        await this.record(tx, 'recovered', t.organizationId, t.monitorId, latest?.id ?? null, t.at, {
          monitor_name: t.monitorName,
          since: latest ? toIso(outageStart(latest)) : null,
          duration_seconds: latest ? durationSeconds({ ...latest, resolvedAt: t.at }, t.at) : null,
          incident_id: latest?.id ?? null,
          incident_number: latest?.number ?? null,
          execution_id: t.executionId,
        });
      }
    }
    if (children.length > 0) await this.releaseChildren(tx, repo, t.monitorId, t.at);
  }

  /**
   * After a parent recovered (its status is already written in this transaction): each child whose incident is held
   * and that no other parent holds any longer alerts if it is still down once its own checks have had the time to
   * see the recovery (`releaseDelayMs`; `releaseDueHolds` sends it). Children recovering with their parent, as they
   * mostly do, are never alerted.
   */
  private async releaseChildren(tx: Database, repo: IncidentsRepository, parentId: string, at: number): Promise<void> {
    const dependencies = this.deps.dependencies!;
    // Read again under the lock: a child that went down in a batch committed meanwhile is seen.
    for (const child of await dependencies.childrenOf(tx, parentId)) {
      const open = await repo.findOpenForMonitor(child.monitorId);
      if (!open || !isHeld(open)) continue;
      const blocking = blockingParents(await dependencies.parentStatesOf(tx, child.monitorId, at));
      if (blocking.length > 0) {
        // Held on by a parent in maintenance or failing unconfirmed: looked at again when that ends by itself.
        const due = recheckAt(blocking);
        if (due !== null) await repo.setReleaseDue(open.id, due);
        continue;
      }
      await repo.setReleaseDue(open.id, at + child.releaseDelayMs);
    }
  }

  /**
   * The held incidents whose release is due at `now` (the reminders role's pass): each alerts, once, if its monitor
   * is still down and no parent holds it; one whose parent went down again waits for that parent's recovery.
   * Returns how many alerted.
   */
  async releaseDueHolds(now: number, limit = 500): Promise<number> {
    const dependencies = this.deps.dependencies;
    if (!dependencies) return 0;
    const due = await new IncidentsRepository(this.deps.database).listReleaseDue(now, limit);
    let released = 0;
    for (const candidate of due) {
      const done = await this.deps.database.transaction(async (tx) => {
        const repo = new IncidentsRepository(tx);
        await repo.lockDependencyDecisions();
        const incident = await repo.find(candidate.organizationId, candidate.id);
        if (!incident?.monitorId || incident.status === 'resolved' || !isHeld(incident)) return false;
        const child = await dependencies.childStateOf(tx, incident.monitorId);
        // Not down now (paused): its next confirmed failure decides (`openForMonitor`).
        if (!child?.down) {
          await repo.setReleaseDue(incident.id, null);
          return false;
        }
        return this.releaseIfClear(tx, repo, incident, child.name, now);
      });
      if (done) released += 1;
    }
    return released;
  }

  /**
   * A held incident alerts (its `down` and `incident_opened`) when no parent holds it any longer; true when it did.
   * A parent down again clears the due time: that parent's recovery sets the next one.
   */
  private async releaseIfClear(
    tx: Database,
    repo: IncidentsRepository,
    incident: Incident,
    monitorName: string,
    at: number,
  ): Promise<boolean> {
    if (!incident.monitorId) return false;
    const blocking = blockingParents(await this.deps.dependencies!.parentStatesOf(tx, incident.monitorId, at));
    if (blocking.length > 0) {
      // A parent down (again) clears the due time; one in maintenance or failing unconfirmed moves it to its end.
      const due = recheckAt(blocking);
      if (incident.alertReleaseDueAt !== due) await repo.setReleaseDue(incident.id, due);
      return false;
    }
    if (!(await repo.markAlertReleased(incident.id, at))) return false;
    await repo.addTimeline(incident, {
      type: 'alert_released',
      at,
      actor: AUTO,
      message: `Every parent recovered and ${monitorName} is still down: alerted.`,
    });
    await this.recordDown(tx, incident, monitorName, at, null);
    await this.recordOpened(tx, incident, at);
    return true;
  }

  async list(
    ctx: ServiceContext,
    filter: IncidentFilter,
    page: { limit: number; cursor?: string },
  ): Promise<Page<IncidentWithDuration>> {
    const { actor } = ctx;
    let before = decodeIdCursor(page.cursor);
    const repo = new IncidentsRepository(ctx.db);
    const visible: Incident[] = [];
    // Environment scoping hides incidents of monitors the key cannot see; read on until the page is full.
    for (;;) {
      const batchSize = Math.max(page.limit + 1, SCAN_BATCH);
      const rows = await repo.list(actor.organizationId, filter, before, batchSize);
      const allowed = await this.visibleSet(actor, rows);
      for (const row of rows) {
        if (allowed(row)) visible.push(row);
        if (visible.length > page.limit) break;
      }
      if (visible.length > page.limit || rows.length < batchSize) break;
      before = rows[rows.length - 1]!.id;
    }
    const now = ctx.clock.now();
    const result = pageOf(visible, page.limit, (i) => i.id);
    return {
      data: result.data.map((i) => withDuration(i, now)),
      next_cursor: result.next_cursor,
    };
  }

  /**
   * Incidents opened per UTC hour or day that this actor may see (the overview's incident bars), every bucket of the
   * range present, oldest first. Counted by the database, so it is one read whatever the number of incidents.
   */
  async openedPerBucket(ctx: ServiceContext, query: OpenedCountQuery): Promise<OpenedBucket[]> {
    const { actor } = ctx;
    const { start, end, step } = bucketedRange(query, ctx.clock.now());
    const counts = await new IncidentsRepository(ctx.db).openedCounts(actor.organizationId, start, end, step);
    const hidden = await this.hiddenMonitors(
      actor,
      counts.map((c) => c.monitorId),
    );
    const opened = new Map<number, number>();
    for (const c of counts) {
      if (c.monitorId !== null && hidden.has(c.monitorId)) continue;
      opened.set(c.bucket, (opened.get(c.bucket) ?? 0) + c.opened);
    }
    const buckets: OpenedBucket[] = [];
    for (let s = start; s < end; s += step) buckets.push({ start: s, end: s + step, opened: opened.get(s) ?? 0 });
    return buckets;
  }

  async get(ctx: ServiceContext, id: string): Promise<IncidentWithTimeline & IncidentWithDuration> {
    const { actor } = ctx;
    const incident = await this.findVisible(actor, id, ctx.db);
    const timeline = await new IncidentsRepository(ctx.db).timeline(id);
    return { ...withDuration(incident, ctx.clock.now()), timeline: await this.named(timeline) };
  }

  /** The timeline with each person's name beside their id (keys and "auto" have none). */
  private async named(timeline: TimelineEntry[]): Promise<TimelineEntry[]> {
    const people = this.deps.people;
    const ids = [...new Set(timeline.map((e) => e.actor).filter((a): a is string => a?.startsWith('usr_') === true))];
    if (!people || ids.length === 0) return timeline;
    const names = new Map(await Promise.all(ids.map(async (id) => [id, await people.nameOf(id)] as const)));
    return timeline.map((e) => ({ ...e, actorName: e.actor === null ? null : (names.get(e.actor) ?? null) }));
  }

  /** POST /incidents: source `api` for keys (`manual` when a person opens it in the app). */
  async create(
    ctx: ServiceContext,
    input: IncidentInput,
    source: IncidentSource = 'api',
  ): Promise<IncidentWithTimeline & IncidentWithDuration> {
    const { actor } = ctx;
    // The shape (lengths, types, a title that is not blank) is the route schema's; what remains is the monitor.
    const title = input.title.trim();
    const cause = input.cause === undefined || input.cause === null || input.cause.trim() === '' ? null : input.cause;
    const details: ErrorDetail[] = [];
    let monitorId: string | null = null;
    if (input.monitor_id !== undefined && input.monitor_id !== null) {
      const monitor = await this.deps.monitors.findAnywhere(input.monitor_id);
      if (
        !monitor ||
        monitor.organizationId !== actor.organizationId ||
        !canSeeEnvironment(actor, monitor.environment)
      ) {
        details.push({ field: 'monitor_id', issue: `monitor ${input.monitor_id} does not exist in this organization` });
      } else monitorId = monitor.id;
    }
    if (details.length > 0) throw validationFailed(details);
    const now = ctx.clock.now();
    const created = await ctx.db.transaction(async (tx) => {
      const repo = new IncidentsRepository(tx);
      const incident = this.newIncident(actor.organizationId, await repo.allocateNumber(actor.organizationId), {
        title,
        source,
        monitorId,
        cause,
        at: now,
      });
      await repo.insert(incident);
      await repo.addTimeline(incident, { type: 'opened', at: now, actor: actorRef(actor), message: cause });
      await this.recordOpened(tx, incident);
      await ctx.audit?.record(tx, resourceChange('incident.create', 'incident', null, incident));
      return incident;
    });
    return this.get(ctx, created.id);
  }

  async acknowledge(ctx: ServiceContext, id: string): Promise<IncidentWithTimeline & IncidentWithDuration> {
    const { actor } = ctx;
    // Visibility is checked before the transaction: it reads monitors through their own handle.
    await this.findVisible(actor, id, ctx.db);
    await ctx.db.transaction(async (tx) => {
      const incident = await new IncidentsRepository(tx).find(actor.organizationId, id);
      if (!incident) throw notFound('Incident');
      if (incident.status === 'resolved') {
        throw validationFailed(
          [{ field: 'status', issue: 'the incident is resolved; only an open incident can be acknowledged' }],
          'A resolved incident cannot be acknowledged.',
        );
      }
      if (incident.status === 'acknowledged') return;
      const repo = new IncidentsRepository(tx);
      const now = ctx.clock.now();
      const by = actorRef(actor);
      if (!(await repo.acknowledge(id, by, now))) return;
      await repo.addTimeline(incident, { type: 'acknowledged', at: now, actor: by, message: null });
      await this.record(tx, 'incident_acknowledged', incident.organizationId, incident.monitorId, incident.id, now, {
        ...this.incidentFacts(incident),
        acknowledged_by: by,
        acknowledged_at: toIso(now),
      });
      await ctx.audit?.record(tx, incidentStatusChange('incident.acknowledge', incident, 'acknowledged'));
    });
    return this.get(ctx, id);
  }

  /** Resolving a resolved incident is a no-op that returns it. */
  async resolve(ctx: ServiceContext, id: string): Promise<IncidentWithTimeline & IncidentWithDuration> {
    const { actor } = ctx;
    await this.findVisible(actor, id, ctx.db);
    await ctx.db.transaction(async (tx) => {
      const incident = await new IncidentsRepository(tx).find(actor.organizationId, id);
      if (!incident) throw notFound('Incident');
      if (incident.status === 'resolved') return;
      const repo = new IncidentsRepository(tx);
      await this.resolveWith(tx, repo, incident, actorRef(actor), ctx.clock.now(), null);
      await ctx.audit?.record(tx, incidentStatusChange('incident.resolve', incident, 'resolved'));
    });
    return this.get(ctx, id);
  }

  /**
   * One keyset page of the incidents overlapping [from, to) that this actor may see, in opening order (reports and
   * the streamed export). `last` is the last row read, visible or not: pass it as `after` for the next page; null
   * when there is none. `monitorIds` (at most a few hundred) narrows the read to those monitors' incidents.
   */
  async pageOverlapping(
    ctx: ServiceContext,
    window: { from: number; to: number; monitorIds?: readonly string[] },
    after: IncidentKey | undefined,
    limit: number,
  ): Promise<{ data: Incident[]; last: IncidentKey | null }> {
    if (window.monitorIds !== undefined && window.monitorIds.length === 0) return { data: [], last: null };
    const rows = await new IncidentsRepository(ctx.db).pageOverlapping(ctx.actor.organizationId, window, after, limit);
    const allowed = await this.visibleSet(ctx.actor, rows);
    const tail = rows[rows.length - 1];
    return {
      data: rows.filter(allowed),
      last: rows.length < limit || !tail ? null : { openedAt: tail.openedAt, id: tail.id },
    };
  }

  /** One incident of an organization, without an actor's visibility rules (the live feed's titles). */
  findAnywhere(organizationId: string, id: string): Promise<Incident | null> {
    return new IncidentsRepository(this.deps.database).find(organizationId, id);
  }

  /** The monitor's open incident as `db` sees it (pass a transaction handle to see what it wrote). */
  findOpenForMonitor(db: Database, monitorId: string): Promise<Incident | null> {
    return new IncidentsRepository(db).findOpenForMonitor(monitorId);
  }

  /** Open incidents (any source) tied to these monitors, oldest first; for status pages. */
  listOpenForMonitors(monitorIds: readonly string[]): Promise<Incident[]> {
    return new IncidentsRepository(this.deps.database).listOpenForMonitors(monitorIds);
  }

  /** Resolved incidents tied to these monitors and open at `from` or later, newest first; for status pages. */
  listResolvedForMonitorsSince(monitorIds: readonly string[], from: number, limit: number): Promise<Incident[]> {
    return new IncidentsRepository(this.deps.database).listResolvedForMonitorsSince(monitorIds, from, limit);
  }

  /** Internal: unresolved incidents of all organizations, counted by status (for GET /metrics). */
  countOpenByStatus(): Promise<Array<{ status: Incident['status']; count: number }>> {
    return new IncidentsRepository(this.deps.database).countOpenByStatus();
  }

  /** Internal: a page of open monitor incidents of all organizations, by id. */
  listOpenMonitorIncidents(afterId: string | undefined, limit: number): Promise<Incident[]> {
    return new IncidentsRepository(this.deps.database).listOpenMonitorIncidents(afterId, limit);
  }

  /**
   * Records one `still_down` reminder for an open monitor incident, unless another process already did
   * for this interval (compare-and-set on last_reminder_at). Returns true when recorded.
   */
  async remind(incident: Incident, monitor: Monitor, at: number): Promise<boolean> {
    return this.deps.database.transaction(async (tx) => {
      const repo = new IncidentsRepository(tx);
      if (!(await repo.markReminded(incident.id, incident.lastReminderAt, at))) return false;
      const down = durationSeconds({ ...incident, resolvedAt: at }, at);
      await repo.addTimeline(incident, {
        type: 'still_down',
        at,
        actor: AUTO,
        message: `Still down after ${formatDuration(down)}.`,
      });
      await this.record(tx, 'still_down', incident.organizationId, incident.monitorId, incident.id, at, {
        ...this.incidentFacts(incident),
        monitor_name: monitor.name,
        cause: incident.cause,
        since: toIso(outageStart(incident)),
        duration_seconds: down,
      });
      return true;
    });
  }

  /** MonitorListener: saving (including pausing) leaves an open incident open; the next verdict decides. */
  async monitorSaved(_tx: Database, _monitor: Monitor, _previous: Monitor | null): Promise<void> {
    // nothing to do
  }

  /** MonitorListener: a deleted monitor's open incident is resolved automatically, in the deleting transaction. */
  async monitorDeleted(tx: Database, monitor: Monitor): Promise<void> {
    const repo = new IncidentsRepository(tx);
    const open = await repo.findOpenForMonitor(monitor.id);
    if (!open) return;
    const now = this.deps.clock.now();
    await repo.addTimeline(open, {
      type: 'monitor_deleted',
      at: now,
      actor: AUTO,
      message: `Monitor ${monitor.name} deleted.`,
    });
    await this.resolveWith(tx, repo, open, AUTO, now, null, 'monitor_deleted');
  }

  /**
   * Intelligence (config.intelligence_incidents): an anomaly or grade drop opens an incident with source
   * `intelligence`, in the caller's transaction; `incident_opened` goes out like for every incident.
   */
  async openFromIntelligence(
    tx: Database,
    o: { organizationId: string; monitorId: string; title: string; cause: string; at: number },
  ): Promise<string> {
    const repo = new IncidentsRepository(tx);
    const incident = this.newIncident(o.organizationId, await repo.allocateNumber(o.organizationId), {
      title: o.title.slice(0, TITLE_MAX),
      source: 'intelligence',
      monitorId: o.monitorId,
      cause: o.cause.slice(0, CAUSE_MAX),
      at: o.at,
    });
    await repo.insert(incident);
    await repo.addTimeline(incident, { type: 'opened', at: o.at, actor: AUTO, message: incident.cause });
    await this.recordOpened(tx, incident);
    return incident.id;
  }

  /** Resolves an intelligence incident automatically when what opened it ended (no-op when already resolved). */
  async resolveFromIntelligence(tx: Database, organizationId: string, incidentId: string, at: number): Promise<void> {
    const repo = new IncidentsRepository(tx);
    const incident = await repo.find(organizationId, incidentId);
    if (!incident || incident.status === 'resolved') return;
    await this.resolveWith(tx, repo, incident, AUTO, at, null);
  }

  private async openForMonitor(tx: Database, repo: IncidentsRepository, t: MonitorTransition): Promise<void> {
    const dependencies = this.deps.dependencies;
    let parents = dependencies ? await dependencies.parentStatesOf(tx, t.monitorId, t.at) : [];
    if (parents.length > 0) {
      // Decided under the dependency lock, reading the parents again: a parent's recovery committed meanwhile counts.
      await repo.lockDependencyDecisions();
      parents = await dependencies!.parentStatesOf(tx, t.monitorId, t.at);
    }
    const existing = await repo.findOpenForMonitor(t.monitorId);
    if (existing) {
      // Still the same outage (e.g. down again after a resume): note it, no second incident, no second `down`.
      await repo.addTimeline(existing, { type: 'monitor_down', at: t.at, actor: AUTO, message: t.cause });
      // A held one whose parents recovered while this monitor was not down (paused) alerts now.
      if (isHeld(existing)) await this.releaseIfClear(tx, repo, existing, t.monitorName, t.at);
      return;
    }
    const blocking = blockingParents(parents);
    const suppressedBy = await this.parentIncidentOf(repo, blocking);
    const number = await repo.allocateNumber(t.organizationId);
    const incident = this.newIncident(t.organizationId, number, {
      title: `${t.monitorName} is down`.slice(0, TITLE_MAX),
      source: 'monitor',
      monitorId: t.monitorId,
      cause: t.cause,
      at: t.at,
      ...(t.downSince !== undefined && { downSince: t.downSince }),
      ...(blocking.length > 0 && { blockedBy: blocking.map((p) => p.monitorId), suppressedBy }),
    });
    if (!(await repo.insertIfNoConflict(incident))) {
      // Another process opened it first (the unique partial index refused ours): give the number back.
      await repo.releaseNumber(t.organizationId, number);
      return;
    }
    await repo.addTimeline(incident, { type: 'opened', at: t.at, actor: AUTO, message: t.cause });
    if (blocking.length > 0) {
      // DECISIONS §17: recorded, not alerted (no `down`, no `incident_opened`) while a parent is down or in maintenance.
      await repo.addTimeline(incident, { type: 'alert_held', at: t.at, actor: AUTO, message: heldMessage(blocking) });
      // Only parents in maintenance or failing unconfirmed: nothing else would look at it again (no recovery comes).
      const due = recheckAt(blocking);
      if (due !== null) await repo.setReleaseDue(incident.id, due);
      return;
    }
    await this.recordDown(tx, incident, t.monitorName, t.at, t.executionId);
    await this.recordOpened(tx, incident, t.at);
  }

  /** The open incident of the first down parent that has one (a parent in maintenance has none). */
  private async parentIncidentOf(
    repo: IncidentsRepository,
    blocking: ReadonlyArray<{ monitorId: string; condition: string }>,
  ): Promise<string | null> {
    for (const p of blocking) {
      if (p.condition !== 'down') continue;
      const open = await repo.findOpenForMonitor(p.monitorId);
      if (open) return open.id;
    }
    return null;
  }

  private recordDown(
    tx: Database,
    incident: Incident,
    monitorName: string,
    at: number,
    executionId: string | null,
  ): Promise<void> {
    return this.record(tx, 'down', incident.organizationId, incident.monitorId, incident.id, at, {
      ...this.incidentFacts(incident),
      monitor_name: monitorName,
      cause: incident.cause,
      since: toIso(outageStart(incident)),
      execution_id: executionId,
    });
  }

  private async resolveWith(
    tx: Database,
    repo: IncidentsRepository,
    incident: Incident,
    by: string,
    at: number,
    monitorEvent: 'recovered' | null,
    reason: string | null = null,
  ): Promise<void> {
    if (!(await repo.resolve(incident.id, by, at))) return;
    const resolved: Incident = { ...incident, status: 'resolved', resolvedAt: at, resolvedBy: by };
    const duration = durationSeconds(resolved, at);
    await repo.addTimeline(incident, {
      type: 'resolved',
      at,
      actor: by,
      message: reason === 'monitor_deleted' ? 'Resolved because the monitor was deleted.' : null,
    });
    // Held and never alerted (DECISIONS §17): nobody was told it opened, so nobody is told it ended. An incident that
    // was alerted always tells its recovery.
    if (isHeld(incident)) return;
    if (monitorEvent) {
      await this.record(tx, monitorEvent, incident.organizationId, incident.monitorId, incident.id, at, {
        ...this.incidentFacts(incident),
        since: toIso(outageStart(incident)),
        duration_seconds: duration,
      });
    }
    await this.record(tx, 'incident_resolved', incident.organizationId, incident.monitorId, incident.id, at, {
      ...this.incidentFacts(incident),
      resolved_by: by,
      resolved_at: toIso(at),
      opened_at: toIso(incident.openedAt),
      down_since: toIso(outageStart(incident)),
      duration_seconds: duration,
      time_to_resolve_seconds: timeToResolveSeconds(resolved),
      ...(reason && { reason }),
    });
  }

  /** `at`: when it was opened, or when its held alert went out (DECISIONS §17). */
  private recordOpened(tx: Database, incident: Incident, at: number = incident.openedAt): Promise<void> {
    return this.record(tx, 'incident_opened', incident.organizationId, incident.monitorId, incident.id, at, {
      ...this.incidentFacts(incident),
      title: incident.title,
      source: incident.source,
      cause: incident.cause,
      opened_at: toIso(incident.openedAt),
    });
  }

  private async record(
    tx: Database,
    type: EventType,
    organizationId: string,
    monitorId: string | null,
    incidentId: string | null,
    at: number,
    payload: Record<string, unknown>,
  ): Promise<void> {
    await this.deps.events.record(tx, { organizationId, type, monitorId, incidentId, occurredAt: at, payload });
  }

  private incidentFacts(incident: Incident): Record<string, unknown> {
    return { incident_id: incident.id, incident_number: incident.number };
  }

  private newIncident(
    organizationId: string,
    number: number,
    o: {
      title: string;
      source: IncidentSource;
      monitorId: string | null;
      cause: string | null;
      at: number;
      downSince?: number;
      blockedBy?: string[];
      suppressedBy?: string | null;
    },
  ): Incident {
    const now = this.deps.clock.now();
    return {
      id: newId('inc', now),
      organizationId,
      number,
      title: o.title,
      source: o.source,
      monitorId: o.monitorId,
      cause: o.cause,
      status: 'opened',
      openedAt: o.at,
      downSince: o.downSince === undefined ? null : Math.min(o.downSince, o.at),
      acknowledgedAt: null,
      acknowledgedBy: null,
      resolvedAt: null,
      resolvedBy: null,
      lastReminderAt: null,
      blockedBy: o.blockedBy ?? null,
      suppressedBy: o.suppressedBy ?? null,
      alertReleaseDueAt: null,
      alertReleasedAt: null,
      createdAt: now,
      updatedAt: now,
    };
  }

  /** The incident if this actor may see it (its organization; for a monitor's incident, the monitor's environment). */
  private async findVisible(actor: Actor, id: string, database: Database): Promise<Incident> {
    const incident = await new IncidentsRepository(database).find(actor.organizationId, id);
    if (!incident) throw notFound('Incident');
    const allowed = await this.visibleSet(actor, [incident]);
    if (!allowed(incident)) throw notFound('Incident');
    return incident;
  }

  private async visibleSet(actor: Actor, incidents: readonly Incident[]): Promise<(i: Incident) => boolean> {
    const hidden = await this.hiddenMonitors(
      actor,
      incidents.map((i) => i.monitorId),
    );
    return (i) => i.monitorId === null || !hidden.has(i.monitorId);
  }

  /** Which of these monitors the actor's environments hide (a monitor that no longer exists hides nothing). */
  private async hiddenMonitors(actor: Actor, monitorIds: ReadonlyArray<string | null>): Promise<Set<string>> {
    if (actor.allEnvironments === true) return new Set();
    const ids = [...new Set(monitorIds.filter((m): m is string => m !== null))];
    const monitors = await this.deps.monitors.findManyAnywhere(ids);
    // A monitor that no longer exists hides nothing: its incidents belong to the organization.
    return new Set(
      monitors
        .filter((m) => m.organizationId === actor.organizationId && !canSeeEnvironment(actor, m.environment))
        .map((m) => m.id),
    );
  }
}

/** An incident with the figures the API shows (DECISIONS §6 and §11 names: see `durationSeconds`). */
export type IncidentWithDuration = Incident & {
  /** The outage's start: `downSince`, else the opening. */
  outageStartedAt: number;
  durationSeconds: number;
  timeToAcknowledgeSeconds: number | null;
  timeToResolveSeconds: number | null;
};

function withDuration(i: Incident, now: number): IncidentWithDuration {
  return {
    ...i,
    outageStartedAt: outageStart(i),
    durationSeconds: durationSeconds(i, now),
    timeToAcknowledgeSeconds: timeToAcknowledgeSeconds(i),
    timeToResolveSeconds: timeToResolveSeconds(i),
  };
}

/** 45s, 1m 30s, 2h 5m, 3d 4h: seconds are shown below an hour, so the text agrees with duration_seconds. */
export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  const m = Math.floor(seconds / 60);
  if (m < 60) return seconds % 60 ? `${m}m ${seconds % 60}s` : `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h ${m % 60}m`;
  return `${Math.floor(h / 24)}d ${h % 24}h`;
}

/** The audit entry of an incident's status change by a person or key. */
function incidentStatusChange(
  action: string,
  incident: { id: string; organizationId: string; status: string },
  status: string,
): AuditChange {
  return {
    organizationId: incident.organizationId,
    action,
    target: { type: 'incident', id: incident.id },
    changes: { status: [incident.status, status] },
  };
}
