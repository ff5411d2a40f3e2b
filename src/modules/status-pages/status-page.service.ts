import { resourceChange } from '../audit/index.ts';
import type { Clock } from '../../platform/clock.ts';
import { decodeIdCursor, pageOf } from '../../platform/cursor.ts';
import type { Database } from '../../platform/db/index.ts';
import { DomainError, notFound, validationFailed, type ErrorDetail } from '../../platform/errors.ts';
import { isId, newId } from '../../platform/ids.ts';
import { canSeeEnvironment, type Actor, type ServiceContext } from '../auth/index.ts';
import type { Incident } from '../incidents/index.ts';
import type { LockOrganization, Monitor, MonitorListener, Page } from '../monitors/index.ts';
import type { Plans } from '../orgs/index.ts';
import { StatusPagesRepository } from './status-pages.repository.ts';
import type {
  AvailabilitySource,
  OutageLevel,
  PublicDay,
  PublicIncidentView,
  PublicMonitorStatus,
  PublicStatusView,
  StatusPage,
  StatusPageCreateInput,
  StatusPageInput,
  UptimeSource,
  StatusPageMaintenance,
  PublicMaintenanceView,
} from './status-page.types.ts';

/** What status pages need from the monitors and incidents modules. */
export interface StatusPageMonitors {
  findManyAnywhere(ids: readonly string[]): Promise<Monitor[]>;
}
export interface StatusPageIncidents {
  listOpenForMonitors(monitorIds: readonly string[]): Promise<Incident[]>;
  listResolvedForMonitorsSince(monitorIds: readonly string[], from: number, limit: number): Promise<Incident[]>;
}

export interface StatusPagesServiceDeps {
  database: Database;
  clock: Clock;
  plans: Plans;
  monitors: StatusPageMonitors;
  incidents: StatusPageIncidents;
  /** Checks and failures per day (rollups). */
  uptime: UptimeSource;
  /** Uptime, downtime and SLA achievement with the reports' accounting. */
  availability: AvailabilitySource;
  lockOrganization: LockOrganization;
  /** Maintenance windows announced on pages (DECISIONS §16); absent: none. */
  maintenance?: StatusPageMaintenance | null;
}

export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{1,62})[a-z0-9]$/;
export const TITLE_MAX = 200;
export const MONITORS_MAX = 100;
/** Days of uptime bars on a public page. */
export const UPTIME_DAYS = 90;
/** Past incidents listed on a public page at most (newest first). */
export const PAST_INCIDENTS_MAX = 50;
const DAY_MS = 86_400_000;
/** Rows read per round when environment scoping hides some pages of a list. */
const SCAN_BATCH = 200;

export function publicStatusOf(monitor: Monitor): PublicMonitorStatus {
  if (monitor.paused || monitor.status === 'paused') return 'paused';
  if (monitor.status === 'down') return 'degraded';
  if (monitor.status === 'up') return 'operational';
  return 'pending';
}

/** The banner's level: among monitors that are watched (not paused, not awaiting a first check), how many are down. */
export function outageLevel(statuses: readonly PublicMonitorStatus[]): OutageLevel {
  const degraded = statuses.filter((s) => s === 'degraded').length;
  if (degraded === 0) return 'none';
  const watched = statuses.filter((s) => s === 'degraded' || s === 'operational').length;
  return degraded === watched ? 'major' : 'partial';
}

function incidentView(
  i: Incident,
  outageStart: (monitorId: string, openedAt: number) => number | null,
): PublicIncidentView {
  const since = i.monitorId === null ? null : outageStart(i.monitorId, i.openedAt);
  return {
    id: i.id,
    number: i.number,
    title: i.title,
    status: i.status,
    monitorId: i.monitorId,
    openedAt: i.openedAt,
    startedAt: since !== null && since <= i.openedAt ? since : i.openedAt,
    resolvedAt: i.resolvedAt,
  };
}

/** Status pages (DECISIONS §9): CRUD with plan counts, and the public view of a page. */
/** How often an update is merged again onto a page that another change committed to meanwhile. */
const UPDATE_ATTEMPTS = 5;

/** What an update read and merged onto: when the stored page differs from it at write time, the merge is redone. */
function mergeBase(page: StatusPage): string {
  return JSON.stringify([
    page.slug,
    page.title,
    page.monitorIds,
    page.public,
    page.showSlaTargets,
    page.allowEmbedding,
  ]);
}

export class StatusPagesService implements MonitorListener {
  private readonly deps: StatusPagesServiceDeps;
  constructor(deps: StatusPagesServiceDeps) {
    this.deps = deps;
  }

  /** `shapeDetails`: what the route's schema found wrong with the body (reported together with the domain rules'). */
  async create(
    ctx: ServiceContext,
    input: StatusPageCreateInput,
    shapeDetails: readonly ErrorDetail[] = [],
  ): Promise<StatusPage> {
    const { actor } = ctx;
    const fields = await this.validated(ctx, input, null, shapeDetails);
    const now = ctx.clock.now();
    const page: StatusPage = {
      id: newId('stp', now),
      organizationId: actor.organizationId,
      slug: fields.slug!,
      title: fields.title!,
      monitorIds: fields.monitorIds ?? [],
      public: fields.public ?? true,
      showSlaTargets: fields.showSlaTargets ?? false,
      allowEmbedding: fields.allowEmbedding ?? false,
      createdAt: now,
      updatedAt: now,
    };
    await ctx.db.transaction(async (tx) => {
      // Count and insert under the organization's lock: concurrent creates at the limit accept exactly the rest.
      await this.deps.lockOrganization(tx, actor.organizationId);
      const repository = new StatusPagesRepository(tx);
      const count = await repository.count(actor.organizationId);
      this.deps.plans.requireWithin(actor.plan, 'status_pages', count + 1, 'status pages');
      if (!(await repository.insert(page))) throw slugTaken(page.slug);
      await ctx.audit?.record(tx, resourceChange('status_page.create', 'status_page', null, page));
    });
    return page;
  }

  async get(ctx: ServiceContext, id: string): Promise<StatusPage> {
    const { page, hidden } = await this.findVisible(ctx, id);
    return withoutHidden(page, hidden);
  }

  /** Pages of the organization; for a key limited to some environments, without other environments' monitors. */
  async list(ctx: ServiceContext, page: { limit: number; cursor?: string }): Promise<Page<StatusPage>> {
    const repository = new StatusPagesRepository(ctx.db);
    const visible: StatusPage[] = [];
    let after = decodeIdCursor(page.cursor);
    // A page made only of monitors the key cannot see is hidden from it; read on until the page is full.
    for (;;) {
      const batchSize = Math.max(page.limit + 1, SCAN_BATCH);
      const rows = await repository.list(ctx.actor.organizationId, after, batchSize - 1);
      const hidden = await this.hiddenMonitorIds(
        ctx.actor,
        rows.flatMap((p) => p.monitorIds),
      );
      for (const row of rows) {
        if (!onlyHidden(row, hidden)) visible.push(withoutHidden(row, hidden));
        if (visible.length > page.limit) break;
      }
      if (visible.length > page.limit || rows.length < batchSize) break;
      after = rows[rows.length - 1]!.id;
    }
    return pageOf(visible, page.limit, (p) => p.id);
  }

  async update(
    ctx: ServiceContext,
    id: string,
    input: StatusPageInput,
    shapeDetails: readonly ErrorDetail[] = [],
  ): Promise<StatusPage> {
    // Validated before the transaction (it reads monitors); inside it the page is read again under a lock, and if
    // another change committed since (another PATCH, a deleted monitor leaving the page) the merge is redone onto it.
    for (let attempt = 1; ; attempt++) {
      const { page: existing, hidden } = await this.findVisible(ctx, id);
      const fields = await this.validated(ctx, input, existing.id, shapeDetails);
      // The key's own list replaces what it sees; monitors of environments it cannot see stay on the page.
      const kept = existing.monitorIds.filter((m) => hidden.has(m));
      const updated: StatusPage = {
        ...existing,
        slug: fields.slug ?? existing.slug,
        title: fields.title ?? existing.title,
        monitorIds: fields.monitorIds ? [...fields.monitorIds, ...kept] : existing.monitorIds,
        public: fields.public ?? existing.public,
        showSlaTargets: fields.showSlaTargets ?? existing.showSlaTargets,
        allowEmbedding: fields.allowEmbedding ?? existing.allowEmbedding,
        updatedAt: ctx.clock.now(),
      };
      const written = await ctx.db.transaction(async (tx) => {
        const repository = new StatusPagesRepository(tx);
        const current = await repository.findForUpdate(ctx.actor.organizationId, id);
        if (!current) throw notFound('Status page');
        if (mergeBase(current) !== mergeBase(existing)) return false;
        if (!(await repository.update(updated))) throw slugTaken(updated.slug);
        await ctx.audit?.record(tx, resourceChange('status_page.update', 'status_page', existing, updated));
        return true;
      });
      if (written) return withoutHidden(updated, hidden);
      if (attempt === UPDATE_ATTEMPTS)
        throw new DomainError('conflict', 'The status page kept changing while this update was applied; try again.');
    }
  }

  async delete(ctx: ServiceContext, id: string): Promise<void> {
    const { page } = await this.findVisible(ctx, id);
    await ctx.db.transaction(async (tx) => {
      if (!(await new StatusPagesRepository(tx).delete(ctx.actor.organizationId, id))) throw notFound('Status page');
      await ctx.audit?.record(tx, resourceChange('status_page.delete', 'status_page', page, null));
    });
  }

  /** The public view of a page, or null when there is no public page with this slug. */
  async publicView(slug: string): Promise<PublicStatusView | null> {
    if (!SLUG_PATTERN.test(slug)) return null;
    const page = await new StatusPagesRepository(this.deps.database).findBySlug(slug);
    if (!page || !page.public) return null;
    const now = this.deps.clock.now();
    const from = Math.floor(now / DAY_MS) * DAY_MS - (UPTIME_DAYS - 1) * DAY_MS;
    const found = await this.deps.monitors.findManyAnywhere(page.monitorIds);
    // Keep the page's order; skip monitors deleted or moved out of the organization.
    const byId = new Map(found.filter((m) => m.organizationId === page.organizationId).map((m) => [m.id, m]));
    const monitors = page.monitorIds.map((id) => byId.get(id)).filter((m): m is Monitor => m !== undefined);
    const ids = monitors.map((m) => m.id);
    const maintenance = this.deps.maintenance;
    const [checks, availability, open, past, announced, inMaintenance] = await Promise.all([
      this.deps.uptime.dailyUptime(ids, from, now, 'UTC'),
      this.deps.availability.of({
        organizationId: page.organizationId,
        monitorIds: ids,
        now,
        days: UPTIME_DAYS,
        withSlaTargets: page.showSlaTargets,
      }),
      this.deps.incidents.listOpenForMonitors(ids),
      // One more than shown tells whether the list was cut.
      this.deps.incidents.listResolvedForMonitorsSince(ids, from, PAST_INCIDENTS_MAX + 1),
      maintenance ? maintenance.announcedOn(page.organizationId, page.id, now) : [],
      maintenance
        ? maintenance.inMaintenance(this.deps.database, page.organizationId, monitors, now)
        : new Set<string>(),
    ]);
    const maintenanceViews: PublicMaintenanceView[] = announced.map((a) => ({
      id: a.window.id,
      name: a.window.name,
      description: a.window.description,
      startsAt: a.occurrence.start,
      endsAt: a.occurrence.end,
      inProgress: a.inProgress,
      monitorIds: monitors
        .filter((m) => a.window.monitorIds.includes(m.id) || m.tags.some((t) => a.window.tags.includes(t)))
        .map((m) => m.id),
    }));
    const views = monitors.map((m) => {
      const a = availability.monitors.get(m.id);
      const counted = new Map((checks.get(m.id) ?? []).map((d) => [d.day, d]));
      const days: PublicDay[] = (a?.days ?? []).map((d) => ({
        day: d.date,
        checks: counted.get(d.date)?.checks ?? 0,
        failures: counted.get(d.date)?.failures ?? 0,
        downtime_seconds: d.downtimeSeconds,
        uptime_percent: d.uptimePercent,
        monitored_seconds: d.monitoredSeconds,
        paused_seconds: d.pausedSeconds,
      }));
      const uptime = a?.windows ?? { last_24_hours: null, last_7_days: null, last_30_days: null, last_90_days: null };
      // A monitor inside a maintenance window shows as under maintenance, not as an outage.
      const status = inMaintenance.has(m.id) && !m.paused ? 'maintenance' : publicStatusOf(m);
      return { id: m.id, name: m.name, status, uptimePercent: uptime.last_90_days, uptime, days };
    });
    return {
      slug: page.slug,
      title: page.title,
      status: views.some((v) => v.status === 'degraded') ? 'degraded' : 'operational',
      outage: outageLevel(views.map((v) => v.status)),
      generatedAt: now,
      days: UPTIME_DAYS,
      monitors: views,
      incidents: open.map((i) => incidentView(i, availability.outageStart)),
      pastIncidents: past.slice(0, PAST_INCIDENTS_MAX).map((i) => incidentView(i, availability.outageStart)),
      pastIncidentsTruncated: past.length > PAST_INCIDENTS_MAX,
      slaTargets: availability.slaTargets,
      maintenance: maintenanceViews,
      allowEmbedding: page.allowEmbedding,
    };
  }

  /** MonitorListener: nothing to do on save. */
  async monitorSaved(_tx: Database, _monitor: Monitor, _previous: Monitor | null): Promise<void> {
    // pages read the monitor's current state when rendered
  }

  /** MonitorListener: a deleted monitor leaves every page of its organization, in the deleting transaction. */
  async monitorDeleted(tx: Database, monitor: Monitor): Promise<void> {
    const repository = new StatusPagesRepository(tx);
    const pages = await repository.listShowingMonitor(monitor.organizationId, monitor.id);
    for (const page of pages) {
      if (!page.monitorIds.includes(monitor.id)) continue;
      await repository.update({
        ...page,
        monitorIds: page.monitorIds.filter((id) => id !== monitor.id),
        updatedAt: this.deps.clock.now(),
      });
    }
  }

  /** The page and the ids of its monitors that this actor may not see; 404 when it shows only such monitors. */
  private async findVisible(ctx: ServiceContext, id: string): Promise<{ page: StatusPage; hidden: Set<string> }> {
    const page = isId(id, 'stp') ? await new StatusPagesRepository(ctx.db).find(ctx.actor.organizationId, id) : null;
    if (!page) throw notFound('Status page');
    const hidden = await this.hiddenMonitorIds(ctx.actor, page.monitorIds);
    if (onlyHidden(page, hidden)) throw notFound('Status page');
    return { page, hidden };
  }

  /** Of these monitor ids, those of the actor's organization in environments the actor cannot see. */
  private async hiddenMonitorIds(actor: Actor, monitorIds: readonly string[]): Promise<Set<string>> {
    if (monitorIds.length === 0) return new Set();
    const found = await this.deps.monitors.findManyAnywhere([...new Set(monitorIds)]);
    return new Set(
      found
        .filter((m) => m.organizationId === actor.organizationId && !canSeeEnvironment(actor, m.environment))
        .map((m) => m.id),
    );
  }

  /**
   * The rules a schema cannot say, after the route's schema checked the shape (`shapeDetails`: what it found,
   * so that one answer names every field at fault): the monitors exist in the organization, in the actor's
   * environments, each once; the slug is free.
   */
  private async validated(
    ctx: ServiceContext,
    body: StatusPageInput,
    exceptId: string | null,
    shapeDetails: readonly ErrorDetail[],
  ): Promise<{
    slug?: string;
    title?: string;
    monitorIds?: string[];
    public?: boolean;
    showSlaTargets?: boolean;
    allowEmbedding?: boolean;
  }> {
    const details: ErrorDetail[] = [...shapeDetails];
    // With shape problems the body may not even be an object; their details are the answer then.
    const input: StatusPageInput = typeof body === 'object' && body !== null ? body : {};
    const monitorIdsWellFormed = !shapeDetails.some((d) => d.field.startsWith('monitor_ids'));
    if (input.monitor_ids !== undefined && monitorIdsWellFormed) {
      details.push(...(await this.monitorIdProblems(ctx.actor, input.monitor_ids)));
    }
    if (
      details.length === 0 &&
      input.slug !== undefined &&
      (await new StatusPagesRepository(ctx.db).slugTaken(input.slug, exceptId))
    ) {
      details.push({ field: 'slug', issue: `${input.slug} is already taken` });
    }
    if (details.length > 0) throw validationFailed(details);
    return {
      ...(input.slug !== undefined && { slug: input.slug }),
      ...(input.title !== undefined && { title: input.title.trim() }),
      ...(input.public !== undefined && { public: input.public }),
      ...(input.show_sla_targets !== undefined && { showSlaTargets: input.show_sla_targets }),
      ...(input.allow_embedding !== undefined && { allowEmbedding: input.allow_embedding }),
      ...(input.monitor_ids !== undefined && { monitorIds: [...input.monitor_ids] }),
    };
  }

  private async monitorIdProblems(actor: Actor, ids: readonly string[]): Promise<ErrorDetail[]> {
    const found = await this.deps.monitors.findManyAnywhere(ids);
    const visible = new Set(
      found
        .filter((m) => m.organizationId === actor.organizationId && canSeeEnvironment(actor, m.environment))
        .map((m) => m.id),
    );
    const details: ErrorDetail[] = [];
    const seen = new Set<string>();
    ids.forEach((id, i) => {
      const field = `monitor_ids[${i}]`;
      if (seen.has(id)) details.push({ field, issue: `monitor ${id} is listed twice` });
      else if (!visible.has(id)) details.push({ field, issue: `monitor ${id} does not exist in this organization` });
      seen.add(id);
    });
    return details;
  }
}

/** Shows monitors, all of which the actor may not see (a page without monitors is everyone's). */
function onlyHidden(page: StatusPage, hidden: ReadonlySet<string>): boolean {
  return page.monitorIds.length > 0 && page.monitorIds.every((m) => hidden.has(m));
}

function withoutHidden(page: StatusPage, hidden: ReadonlySet<string>): StatusPage {
  return hidden.size === 0 ? page : { ...page, monitorIds: page.monitorIds.filter((m) => !hidden.has(m)) };
}

function slugTaken(slug: string) {
  return validationFailed([{ field: 'slug', issue: `${slug} is already taken` }]);
}
