import { resourceChange } from '../audit/index.ts';
import { canSeeEnvironment, type ServiceContext } from '../auth/index.ts';
import { PrecompiledQueries, type Database } from '../../platform/db/index.ts';
import { decodeIdCursor, pageOf } from '../../platform/cursor.ts';
import { DomainError, notFound, validationFailed, type ErrorDetail } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { Monitor, Page } from '../monitors/index.ts';
import { MaintenanceRepository } from './maintenance.repository.ts';
import { nextOccurrence, occurrenceAt, occurrencesBetween } from './maintenance.occurrences.ts';
import { MAX_EARLY_ENDS, type MaintenanceWindow, type Occurrence } from './maintenance.types.ts';
import { isTimeZone, scheduleOf, type ScheduleInput } from './maintenance.validation.ts';

/** What the maintenance module reads of monitors (MonitorsService fits). */
export interface MaintenanceMonitors {
  findManyAnywhere(ids: readonly string[], db?: Database): Promise<Monitor[]>;
  list(ctx: ServiceContext, filter: { tag?: string }, page: { limit: number; cursor?: string }): Promise<Page<Monitor>>;
}

/** Status pages a window may be announced on (StatusPagesService fits: `get` throws not_found for another's page). */
export interface MaintenanceStatusPages {
  get(ctx: ServiceContext, id: string): Promise<unknown>;
}

/** Body of POST /maintenance-windows (snake_case, as the route schema checked it). */
export interface WindowInput {
  name: string;
  description?: string | null;
  monitor_ids?: string[];
  tags?: string[];
  schedule: ScheduleInput;
  timezone?: string;
  suppress_alerts?: boolean;
  exclude_from_sla?: boolean;
  status_page_ids?: string[];
  announce_minutes_before?: number;
}

export type WindowPatch = Partial<WindowInput>;

/** A window with what is computed at the time it is read. */
export interface WindowView extends MaintenanceWindow {
  active: boolean;
  /** The occurrence in progress, else the next one (null when none is ahead). */
  next: Occurrence | null;
}

/** The part of a monitor that decides whether a window covers it. */
export type CoveredMonitor = Pick<Monitor, 'id' | 'tags'>;

/** A write's `updated_at`: now, and always after the one it replaces (the gate's version must move on every write). */
function laterThan(current: Pick<MaintenanceWindow, 'updatedAt'>, now: number): number {
  return Math.max(now, current.updatedAt + 1);
}

export function covers(w: Pick<MaintenanceWindow, 'monitorIds' | 'tags'>, m: CoveredMonitor): boolean {
  return w.monitorIds.includes(m.id) || (w.tags.length > 0 && m.tags.some((t) => w.tags.includes(t)));
}

export interface MaintenanceServiceDeps {
  database: Database;
  monitors: MaintenanceMonitors;
  statusPages: MaintenanceStatusPages | null;
}

const SCAN_PAGE = 200;
/** Organizations whose windows the gate keeps in memory; past that the memory starts again (a few kB each). */
const MAX_CACHED_ORGANIZATIONS = 1_000;

/** Maintenance windows (DECISIONS §16): CRUD, ending an occurrence early, previews, and who is covered when. */
export class MaintenanceService {
  private readonly deps: MaintenanceServiceDeps;
  /**
   * The windows of an organization as last read, with the version they were read at (MaintenanceRepository.versionOf):
   * `coveringAt` runs in the check transaction of every down, and reading and decoding all of an organization's
   * windows there (2.1 ms of CPU for 1,000 on SQLite, issue 31's benchmark) is replaced by one aggregate read. A
   * change by any process moves the version, so the next call reads the rows again.
   */
  private readonly windowsByOrganization = new Map<string, { version: string; windows: MaintenanceWindow[] }>();
  /** The version's SQL, compiled once (MaintenanceRepository.versionOf). */
  private readonly queries = new PrecompiledQueries();
  constructor(deps: MaintenanceServiceDeps) {
    this.deps = deps;
  }

  async create(ctx: ServiceContext, input: WindowInput): Promise<WindowView> {
    const now = ctx.clock.now();
    const draft = await this.validated(ctx, input, {
      id: newId('mnt', now),
      organizationId: ctx.actor.organizationId,
      earlyEnds: [],
      createdAt: now,
      updatedAt: now,
    });
    await ctx.db.transaction(async (tx) => {
      await new MaintenanceRepository(tx).insert(draft);
      await ctx.audit?.record(tx, resourceChange('maintenance_window.create', 'maintenance_window', null, draft));
    });
    return viewOf(draft, now);
  }

  async update(ctx: ServiceContext, id: string, patch: WindowPatch): Promise<WindowView> {
    const current = await this.find(ctx, id);
    const now = ctx.clock.now();
    const merged: WindowInput = { ...inputOf(current), ...patch };
    const next = await this.validated(ctx, merged, {
      id: current.id,
      organizationId: current.organizationId,
      earlyEnds: current.earlyEnds,
      createdAt: current.createdAt,
      updatedAt: laterThan(current, now),
    });
    await ctx.db.transaction(async (tx) => {
      await new MaintenanceRepository(tx).update(next);
      await ctx.audit?.record(tx, resourceChange('maintenance_window.update', 'maintenance_window', current, next));
    });
    return viewOf(next, now);
  }

  async delete(ctx: ServiceContext, id: string): Promise<void> {
    const current = await this.find(ctx, id);
    await ctx.db.transaction(async (tx) => {
      if (!(await new MaintenanceRepository(tx).delete(ctx.actor.organizationId, id)))
        throw notFound('Maintenance window');
      await ctx.audit?.record(tx, resourceChange('maintenance_window.delete', 'maintenance_window', current, null));
    });
  }

  async get(ctx: ServiceContext, id: string): Promise<WindowView> {
    return viewOf(await this.find(ctx, id), ctx.clock.now());
  }

  async list(ctx: ServiceContext, page: { limit: number; cursor?: string }): Promise<Page<WindowView>> {
    const after = decodeIdCursor(page.cursor);
    const all = await this.windowsOfOrganization(ctx.db, ctx.actor.organizationId);
    const rows = all.filter((w) => after === undefined || w.id > after).slice(0, page.limit + 1);
    const now = ctx.clock.now();
    const result = pageOf(rows, page.limit, (w) => w.id);
    return { data: result.data.map((w) => viewOf(w, now)), next_cursor: result.next_cursor };
  }

  /** POST /{id}/end: the occurrence in progress ends now (409 when none is). */
  async end(ctx: ServiceContext, id: string): Promise<WindowView> {
    const now = ctx.clock.now();
    const current = await this.find(ctx, id);
    const occurrence = occurrenceAt(current, now);
    if (!occurrence)
      throw new DomainError('conflict', 'The maintenance window is not in progress; there is nothing to end.');
    const next: MaintenanceWindow = {
      ...current,
      earlyEnds: [...current.earlyEnds, { start: occurrence.start, endedAt: now }].slice(-MAX_EARLY_ENDS),
      updatedAt: laterThan(current, now),
    };
    await ctx.db.transaction(async (tx) => {
      await new MaintenanceRepository(tx).update(next);
      await ctx.audit?.record(tx, {
        organizationId: next.organizationId,
        action: 'maintenance_window.end',
        target: { type: 'maintenance_window', id },
        changes: { ended_at: [null, new Date(now).toISOString()] },
      });
    });
    return viewOf(next, now);
  }

  /** The monitors a window with these `monitor_ids` and `tags` covers now (the app's preview before saving). */
  async preview(ctx: ServiceContext, input: { monitor_ids?: string[]; tags?: string[] }): Promise<Monitor[]> {
    const ids = input.monitor_ids ?? [];
    const details = await this.foreignMonitorDetails(ctx, ids);
    if (details.length > 0) throw validationFailed(details);
    return this.coveredMonitors(ctx, { monitorIds: ids, tags: input.tags ?? [] });
  }

  /** The monitors of the organization (visible to the actor) that a window covers, by id. */
  async coveredMonitors(ctx: ServiceContext, w: Pick<MaintenanceWindow, 'monitorIds' | 'tags'>): Promise<Monitor[]> {
    const found = new Map<string, Monitor>();
    for (const m of await this.deps.monitors.findManyAnywhere(w.monitorIds, ctx.db)) {
      if (m.organizationId === ctx.actor.organizationId && canSeeEnvironment(ctx.actor, m.environment))
        found.set(m.id, m);
    }
    for (const tag of w.tags) {
      let cursor: string | undefined;
      do {
        const page = await this.deps.monitors.list(ctx, { tag }, { limit: SCAN_PAGE, ...(cursor && { cursor }) });
        for (const m of page.data) found.set(m.id, m);
        cursor = page.next_cursor ?? undefined;
      } while (cursor);
    }
    return [...found.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
  }

  /** Windows of the organization covering this monitor, and the occurrence in progress at `t` of each. */
  async coveringAt(
    db: Database,
    organizationId: string,
    monitor: CoveredMonitor,
    t: number,
  ): Promise<Array<{ window: MaintenanceWindow; occurrence: Occurrence }>> {
    const windows = await this.windowsOfOrganization(db, organizationId);
    const out: Array<{ window: MaintenanceWindow; occurrence: Occurrence }> = [];
    for (const w of windows) {
      if (!covers(w, monitor)) continue;
      const occurrence = occurrenceAt(w, t);
      if (occurrence) out.push({ window: w, occurrence });
    }
    return out;
  }

  /**
   * The organization's windows, read again only when their version moved (read in `db`, the caller's transaction).
   * Shared between callers: never modified. Every reader goes through here: a list of 1,000 windows decoded on each
   * recovery, each monitor read and each status page cost more than the checks' own work at 10,000 monitors.
   */
  async windowsOfOrganization(db: Database, organizationId: string): Promise<readonly MaintenanceWindow[]> {
    const repo = new MaintenanceRepository(db);
    const version = await repo.versionOf(organizationId, this.queries);
    const cached = this.windowsByOrganization.get(organizationId);
    if (cached?.version === version) return cached.windows;
    const windows = await repo.listForOrganization(organizationId);
    if (this.windowsByOrganization.size >= MAX_CACHED_ORGANIZATIONS) this.windowsByOrganization.clear();
    this.windowsByOrganization.set(organizationId, { version, windows });
    return windows;
  }

  /** The next (or current) occurrence of any window covering the monitor, with its window: the monitor page. */
  async nextFor(
    ctx: ServiceContext,
    monitor: CoveredMonitor,
  ): Promise<{ window: MaintenanceWindow; occurrence: Occurrence } | null> {
    const now = ctx.clock.now();
    let best: { window: MaintenanceWindow; occurrence: Occurrence } | null = null;
    for (const w of await this.windowsOfOrganization(ctx.db, ctx.actor.organizationId)) {
      if (!covers(w, monitor)) continue;
      const o = nextOccurrence(w, now);
      if (o && (best === null || o.start < best.occurrence.start)) best = { window: w, occurrence: o };
    }
    return best;
  }

  /** The ids among `monitors` that are in maintenance at `t` (the status `maintenance` of monitor reads). */
  async inMaintenance(
    db: Database,
    organizationId: string,
    monitors: readonly CoveredMonitor[],
    t: number,
  ): Promise<Set<string>> {
    const active = (await this.windowsOfOrganization(db, organizationId)).filter((w) => occurrenceAt(w, t) !== null);
    const out = new Set<string>();
    if (active.length === 0) return out;
    for (const m of monitors) if (active.some((w) => covers(w, m))) out.add(m.id);
    return out;
  }

  /**
   * What the windows active at `t` cover, as a list filter can ask a store: their monitor ids and their tags (a monitor
   * is in maintenance when it is one of the ids or carries one of the tags, and is not paused).
   */
  async coverageAt(db: Database, organizationId: string, t: number): Promise<{ monitorIds: string[]; tags: string[] }> {
    const active = (await this.windowsOfOrganization(db, organizationId)).filter((w) => occurrenceAt(w, t) !== null);
    return {
      monitorIds: [...new Set(active.flatMap((w) => w.monitorIds))],
      tags: [...new Set(active.flatMap((w) => w.tags))],
    };
  }

  /**
   * Per monitor, the time in [from, to) that windows with `exclude_from_sla` covered (sorted, disjoint): what reports
   * count as maintenance, neither uptime nor downtime.
   */
  excludedIntervals(
    db: Database,
    organizationId: string,
    monitors: readonly CoveredMonitor[],
    from: number,
    to: number,
  ): Promise<Map<string, Array<[number, number]>>> {
    return this.coveredIntervals(db, organizationId, monitors, from, to, (w) => w.excludeFromSla);
  }

  /**
   * Per monitor, the time in [from, to) that windows (those `which` keeps; default all) covered, sorted and disjoint:
   * also what marks executions `in_maintenance`.
   */
  async coveredIntervals(
    db: Database,
    organizationId: string,
    monitors: readonly CoveredMonitor[],
    from: number,
    to: number,
    which: (w: MaintenanceWindow) => boolean = () => true,
  ): Promise<Map<string, Array<[number, number]>>> {
    const windows = (await this.windowsOfOrganization(db, organizationId)).filter(which);
    const occurrences = new Map(windows.map((w) => [w.id, occurrencesBetween(w, from, to)]));
    const out = new Map<string, Array<[number, number]>>();
    for (const m of monitors) {
      const spans: Array<[number, number]> = [];
      for (const w of windows) {
        if (!covers(w, m)) continue;
        for (const o of occurrences.get(w.id) ?? []) spans.push([Math.max(o.start, from), Math.min(o.end, to)]);
      }
      if (spans.length > 0) out.set(m.id, unionOf(spans));
    }
    return out;
  }

  /** Windows announced on a status page: in progress, or starting within their `announce_minutes_before`. */
  async announcedOn(
    organizationId: string,
    statusPageId: string,
    now: number,
  ): Promise<Array<{ window: MaintenanceWindow; occurrence: Occurrence; inProgress: boolean }>> {
    const out: Array<{ window: MaintenanceWindow; occurrence: Occurrence; inProgress: boolean }> = [];
    for (const w of await this.windowsOfOrganization(this.deps.database, organizationId)) {
      if (!w.statusPageIds.includes(statusPageId)) continue;
      const o = nextOccurrence(w, now);
      if (!o) continue;
      const inProgress = o.start <= now;
      if (inProgress || o.start - now <= w.announceMinutesBefore * 60_000)
        out.push({ window: w, occurrence: o, inProgress });
    }
    return out.sort((a, b) => a.occurrence.start - b.occurrence.start);
  }

  private async find(ctx: ServiceContext, id: string): Promise<MaintenanceWindow> {
    const w = await new MaintenanceRepository(ctx.db).find(ctx.actor.organizationId, id);
    if (!w) throw notFound('Maintenance window');
    return w;
  }

  private async foreignMonitorDetails(ctx: ServiceContext, ids: readonly string[]): Promise<ErrorDetail[]> {
    const found = new Map((await this.deps.monitors.findManyAnywhere(ids, ctx.db)).map((m) => [m.id, m]));
    const details: ErrorDetail[] = [];
    ids.forEach((id, i) => {
      const m = found.get(id);
      if (!m || m.organizationId !== ctx.actor.organizationId || !canSeeEnvironment(ctx.actor, m.environment)) {
        details.push({ field: `monitor_ids[${i}]`, issue: `monitor ${id} does not exist in this organization` });
      }
    });
    return details;
  }

  /** Every rule a schema cannot say, all reported at once; nothing is saved when one fails. */
  private async validated(
    ctx: ServiceContext,
    input: WindowInput,
    fixed: Pick<MaintenanceWindow, 'id' | 'organizationId' | 'earlyEnds' | 'createdAt' | 'updatedAt'>,
  ): Promise<MaintenanceWindow> {
    const details: ErrorDetail[] = [];
    const timezone = input.timezone ?? 'UTC';
    if (!isTimeZone(timezone)) details.push({ field: 'timezone', issue: `unknown IANA time zone "${timezone}"` });
    const monitorIds = [...new Set(input.monitor_ids ?? [])];
    const tags = [...new Set(input.tags ?? [])];
    if (monitorIds.length === 0 && tags.length === 0) {
      details.push({ field: 'monitor_ids', issue: 'a window covers at least one monitor: give monitor_ids or tags' });
    }
    details.push(...(await this.foreignMonitorDetails(ctx, input.monitor_ids ?? [])));
    const pageIds = [...new Set(input.status_page_ids ?? [])];
    for (const [i, id] of (input.status_page_ids ?? []).entries()) {
      if (!this.deps.statusPages) break;
      try {
        await this.deps.statusPages.get(ctx, id);
      } catch (err) {
        if (!(err instanceof DomainError) || err.code !== 'not_found') throw err;
        details.push({
          field: `status_page_ids[${i}]`,
          issue: `status page ${id} does not exist in this organization`,
        });
      }
    }
    const schedule = isTimeZone(timezone) ? scheduleOf(input.schedule, timezone, ctx.clock.now()) : null;
    if (schedule) details.push(...schedule.details);
    if (details.length > 0 || !schedule?.schedule) throw validationFailed(details);
    return {
      ...fixed,
      name: input.name.trim(),
      description: input.description ?? null,
      monitorIds,
      tags,
      schedule: schedule.schedule,
      timezone,
      suppressAlerts: input.suppress_alerts ?? true,
      excludeFromSla: input.exclude_from_sla ?? true,
      statusPageIds: pageIds,
      announceMinutesBefore: input.announce_minutes_before ?? 0,
    };
  }
}

function viewOf(w: MaintenanceWindow, now: number): WindowView {
  const next = nextOccurrence(w, now);
  return { ...w, active: next !== null && next.start <= now, next };
}

/** The input that would make this window again (for PATCH: the patch goes onto it). */
function inputOf(w: MaintenanceWindow): WindowInput {
  const s = w.schedule;
  return {
    name: w.name,
    description: w.description,
    monitor_ids: w.monitorIds,
    tags: w.tags,
    schedule:
      s.type === 'once'
        ? { type: 'once', starts_at: new Date(s.startsAt).toISOString(), ends_at: new Date(s.endsAt).toISOString() }
        : {
            type: 'recurring',
            rrule: s.rrule,
            start_time: s.startTime,
            duration_minutes: s.durationMinutes,
            start_date: s.startDate,
          },
    timezone: w.timezone,
    suppress_alerts: w.suppressAlerts,
    exclude_from_sla: w.excludeFromSla,
    status_page_ids: w.statusPageIds,
    announce_minutes_before: w.announceMinutesBefore,
  };
}

function unionOf(spans: Array<[number, number]>): Array<[number, number]> {
  const sorted = spans.filter(([s, e]) => e > s).sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const [s, e] of sorted) {
    const last = out[out.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}
