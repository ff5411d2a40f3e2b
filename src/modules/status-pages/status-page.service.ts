import { resourceChange } from '../audit/index.ts';
import type { Clock } from '../../platform/clock.ts';
import { decodeIdCursor, pageOf } from '../../platform/cursor.ts';
import type { Database } from '../../platform/db/index.ts';
import { DomainError, notFound, validationFailed, type ErrorDetail } from '../../platform/errors.ts';
import { isId, newId } from '../../platform/ids.ts';
import {
  canSeeEnvironment,
  hashPassword,
  passwordIssue,
  SignInThrottle,
  verifyPassword,
  type ServiceContext,
  type ThrottlePolicy,
} from '../auth/index.ts';
import type { Incident } from '../incidents/index.ts';
import type { LockOrganization, Monitor, MonitorListener, Page } from '../monitors/index.ts';
import type { Plans } from '../orgs/index.ts';
import { PageSessionSigner } from './status-page.access.ts';
import {
  customDomainIssue,
  groupsOf,
  isTimeZone,
  layoutProblems,
  normaliseDomain,
  pageMonitorIds,
  worstStatus,
  type LayoutList,
} from './status-page.layout.ts';
import { StatusPagesRepository, type UniqueField } from './status-pages.repository.ts';
import type { NoticesService } from './notice.service.ts';
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
  StatusPageAccess,
  StatusPageGroup,
} from './status-page.types.ts';

/** What status pages need from the monitors and incidents modules. */
export interface StatusPageMonitors {
  /** Through `db` when given: a verb inside a wider transaction (configuration apply) sees what it wrote. */
  findManyAnywhere(ids: readonly string[], db?: Database): Promise<Monitor[]>;
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
  /** Published notices of a page (DECISIONS §18); absent: none. */
  notices?: Pick<NoticesService, 'publicOf'> | null;
  /** Signs page sessions of password-protected pages (at least 32 bytes; derived from the master key). */
  pageSessionKey: Buffer;
  /** Host names no page may take as its custom domain (the app's own, from public_url). */
  reservedHosts?: readonly string[];
}

/**
 * Guessing a page's password: each address has 5 free failures an hour, each page 20 (many people share its
 * password, and a block of the page keeps everyone without a session out); then 1 s, 2 s, 4 s … up to 15 minutes.
 */
export const PAGE_PASSWORD_THROTTLE: ThrottlePolicy = {
  accountFreeFailures: 20,
  ipFreeFailures: 5,
  windowMs: 3_600_000,
  maxDelayMs: 15 * 60_000,
};

export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{1,62})[a-z0-9]$/;
export const TITLE_MAX = 200;
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
  if (monitor.status === 'degraded') return 'degraded_performance';
  return 'pending';
}

/** The banner's level: among monitors that are watched (not paused, not awaiting a first check), how many are down. */
export function outageLevel(statuses: readonly PublicMonitorStatus[]): OutageLevel {
  const degraded = statuses.filter((s) => s === 'degraded').length;
  if (degraded === 0) return 'none';
  const watched = statuses.filter(
    (s) => s === 'degraded' || s === 'operational' || s === 'degraded_performance',
  ).length;
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
    acknowledgedAt: i.acknowledgedAt,
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
    page.autoNotices,
    page.groups,
    page.customDomain,
    page.access,
    page.passwordHash,
    page.timezone,
    page.subscriptionsEnabled,
  ]);
}

/** The fields a body sets, validated and in stored form. */
interface ValidFields {
  slug?: string;
  title?: string;
  monitorIds?: string[];
  public?: boolean;
  showSlaTargets?: boolean;
  allowEmbedding?: boolean;
  autoNotices?: boolean;
  subscriptionsEnabled?: boolean;
  groups?: StatusPageGroup[];
  customDomain?: string | null;
  access?: StatusPageAccess;
  passwordHash?: string | null;
  timezone?: string;
}

const AUDIT_OPTIONS = { secretFields: ['passwordHash'] };

export class StatusPagesService implements MonitorListener {
  private readonly deps: StatusPagesServiceDeps;
  private readonly sessions: PageSessionSigner;
  private readonly guessing: SignInThrottle;
  constructor(deps: StatusPagesServiceDeps) {
    this.deps = deps;
    this.sessions = new PageSessionSigner(deps.pageSessionKey);
    this.guessing = new SignInThrottle({
      database: deps.database,
      clock: deps.clock,
      policy: PAGE_PASSWORD_THROTTLE,
      namespace: 'status_page:',
      forgetAccountOnSuccess: false,
    });
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
      autoNotices: fields.autoNotices ?? false,
      groups: fields.groups ?? [],
      customDomain: fields.customDomain ?? null,
      access: fields.access ?? 'public',
      passwordHash: fields.passwordHash ?? null,
      timezone: fields.timezone ?? 'UTC',
      subscriptionsEnabled: fields.subscriptionsEnabled ?? false,
      createdAt: now,
      updatedAt: now,
    };
    await ctx.db.transaction(async (tx) => {
      // Count and insert under the organization's lock: concurrent creates at the limit accept exactly the rest.
      await this.deps.lockOrganization(tx, actor.organizationId);
      const repository = new StatusPagesRepository(tx);
      const count = await repository.count(actor.organizationId);
      this.deps.plans.requireWithin(actor.plan, 'status_pages', count + 1, 'status pages');
      const taken = await repository.insert(page);
      if (taken) throw uniqueTaken(taken, page);
      await ctx.audit?.record(tx, resourceChange('status_page.create', 'status_page', null, page, AUDIT_OPTIONS));
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
      const hidden = await this.hiddenMonitorIds(ctx, rows.flatMap(pageMonitorIds));
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
      const fields = await this.validated(ctx, input, { page: existing, hidden }, shapeDetails);
      const updated: StatusPage = {
        ...existing,
        ...mergedLayout(existing, fields, hidden),
        slug: fields.slug ?? existing.slug,
        title: fields.title ?? existing.title,
        public: fields.public ?? existing.public,
        showSlaTargets: fields.showSlaTargets ?? existing.showSlaTargets,
        allowEmbedding: fields.allowEmbedding ?? existing.allowEmbedding,
        autoNotices: fields.autoNotices ?? existing.autoNotices,
        customDomain: fields.customDomain !== undefined ? fields.customDomain : existing.customDomain,
        access: fields.access ?? existing.access,
        passwordHash: fields.passwordHash !== undefined ? fields.passwordHash : existing.passwordHash,
        timezone: fields.timezone ?? existing.timezone,
        subscriptionsEnabled: fields.subscriptionsEnabled ?? existing.subscriptionsEnabled,
        updatedAt: ctx.clock.now(),
      };
      const written = await ctx.db.transaction(async (tx) => {
        const repository = new StatusPagesRepository(tx);
        const current = await repository.findForUpdate(ctx.actor.organizationId, id);
        if (!current) throw notFound('Status page');
        if (mergeBase(current) !== mergeBase(existing)) return false;
        const taken = await repository.update(updated);
        if (taken) throw uniqueTaken(taken, updated);
        await ctx.audit?.record(
          tx,
          resourceChange('status_page.update', 'status_page', existing, updated, AUDIT_OPTIONS),
        );
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
      await ctx.audit?.record(tx, resourceChange('status_page.delete', 'status_page', page, null, AUDIT_OPTIONS));
    });
  }

  /** The published page with this slug (public true), or null; says nothing about its access (see hasPageAccess). */
  async publicPage(slug: string): Promise<StatusPage | null> {
    if (!SLUG_PATTERN.test(slug)) return null;
    const page = await new StatusPagesRepository(this.deps.database).findBySlug(slug);
    return page && page.public ? page : null;
  }

  /** Every custom domain (lower case) with its page's slug: what the HTTP layer serves by Host. */
  async customDomains(): Promise<Map<string, string>> {
    const rows = await new StatusPagesRepository(this.deps.database).customDomains();
    return new Map(rows.map((r) => [r.domain, r.slug]));
  }

  /** Whether a request carrying this page-session cookie value may read the page (always for a public one). */
  hasPageAccess(page: StatusPage, sessionCookie: string | undefined): boolean {
    if (page.access === 'public') return true;
    return this.sessions.valid(page, sessionCookie, this.deps.clock.now());
  }

  /**
   * The page's password: a page session (cookie value and expiry) when right. Guessing is slowed down per address
   * and per page (RetryLaterError, 429, while blocked: then the password is not even checked); a wrong password is
   * `invalid_credentials`.
   */
  async unlock(page: StatusPage, password: string, ip: string): Promise<{ value: string; expiresAt: number }> {
    if (page.access !== 'password' || page.passwordHash === null) {
      return this.sessions.issue(page, this.deps.clock.now());
    }
    await this.guessing.begin(page.id, ip);
    if (!(await verifyPassword(password.slice(0, 1000), page.passwordHash))) {
      throw new DomainError('invalid_credentials', 'Wrong password for this status page.');
    }
    await this.guessing.succeeded(page.id, ip);
    return this.sessions.issue(page, this.deps.clock.now());
  }

  /** The public view of a page, or null when there is no public page with this slug (access is the caller's). */
  async publicView(slug: string): Promise<PublicStatusView | null> {
    const page = await this.publicPage(slug);
    return page ? this.publicViewOf(page) : null;
  }

  /** The public view of a published page (the caller checked its access). */
  async publicViewOf(page: StatusPage): Promise<PublicStatusView> {
    const now = this.deps.clock.now();
    const from = Math.floor(now / DAY_MS) * DAY_MS - (UPTIME_DAYS - 1) * DAY_MS;
    const shown = pageMonitorIds(page);
    const found = await this.deps.monitors.findManyAnywhere(shown);
    // Keep the page's order; skip monitors deleted or moved out of the organization.
    const byId = new Map(found.filter((m) => m.organizationId === page.organizationId).map((m) => [m.id, m]));
    const monitors = shown.map((id) => byId.get(id)).filter((m): m is Monitor => m !== undefined);
    const ids = monitors.map((m) => m.id);
    const maintenance = this.deps.maintenance;
    const noticesOf = this.deps.notices;
    const [checks, availability, open, past, announced, inMaintenance, notices] = await Promise.all([
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
      noticesOf ? noticesOf.publicOf(this.deps.database, page, now) : { active: [], past: [] },
    ]);
    const maintenanceViews: PublicMaintenanceView[] = announced.map((a) => ({
      id: a.window.id,
      name: a.window.name,
      description: a.window.description,
      startsAt: a.occurrence.start,
      endsAt: a.occurrence.end,
      inProgress: a.inProgress,
      createdAt: a.window.createdAt,
      updatedAt: a.window.updatedAt,
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
        maintenance_seconds: d.maintenanceSeconds,
      }));
      const uptime = a?.windows ?? { last_24_hours: null, last_7_days: null, last_30_days: null, last_90_days: null };
      // A monitor inside a maintenance window shows as under maintenance, not as an outage.
      const status = inMaintenance.has(m.id) && !m.paused ? 'maintenance' : publicStatusOf(m);
      return {
        id: m.id,
        name: m.name,
        status,
        uptimePercent: uptime.last_90_days,
        uptime,
        days,
        createdAt: m.createdAt,
        statusChangedAt: m.statusChangedAt,
      };
    });
    const statusOf = new Map(views.map((v) => [v.id, v.status]));
    const groups = page.groups.map((g) => {
      const ids = g.monitorIds.filter((id) => statusOf.has(id));
      return {
        name: g.name,
        collapsed: g.collapsed,
        monitorIds: ids,
        status: worstStatus(ids.map((id) => statusOf.get(id)!)),
      };
    });
    return {
      pageId: page.id,
      pageUpdatedAt: page.updatedAt,
      slug: page.slug,
      title: page.title,
      groups,
      timezone: page.timezone,
      status: views.some((v) => v.status === 'degraded')
        ? 'degraded'
        : views.some((v) => v.status === 'degraded_performance')
          ? 'degraded_performance'
          : 'operational',
      outage: outageLevel(views.map((v) => v.status)),
      generatedAt: now,
      days: UPTIME_DAYS,
      monitors: views,
      incidents: open.map((i) => incidentView(i, availability.outageStart)),
      pastIncidents: past.slice(0, PAST_INCIDENTS_MAX).map((i) => incidentView(i, availability.outageStart)),
      pastIncidentsTruncated: past.length > PAST_INCIDENTS_MAX,
      slaTargets: availability.slaTargets,
      maintenance: maintenanceViews,
      notices,
      allowEmbedding: page.allowEmbedding,
      subscriptionsEnabled: page.subscriptionsEnabled,
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
      if (!pageMonitorIds(page).includes(monitor.id)) continue;
      await repository.update({
        ...page,
        monitorIds: page.monitorIds.filter((id) => id !== monitor.id),
        groups: page.groups.map((g) => ({ ...g, monitorIds: g.monitorIds.filter((id) => id !== monitor.id) })),
        updatedAt: this.deps.clock.now(),
      });
    }
  }

  /** The page and the ids of its monitors that this actor may not see; 404 when it shows only such monitors. */
  private async findVisible(ctx: ServiceContext, id: string): Promise<{ page: StatusPage; hidden: Set<string> }> {
    const page = isId(id, 'stp') ? await new StatusPagesRepository(ctx.db).find(ctx.actor.organizationId, id) : null;
    if (!page) throw notFound('Status page');
    const hidden = await this.hiddenMonitorIds(ctx, pageMonitorIds(page));
    if (onlyHidden(page, hidden)) throw notFound('Status page');
    return { page, hidden };
  }

  /** Of these monitor ids, those of the actor's organization in environments the actor cannot see. */
  private async hiddenMonitorIds(ctx: ServiceContext, monitorIds: readonly string[]): Promise<Set<string>> {
    if (monitorIds.length === 0) return new Set();
    const { actor } = ctx;
    const found = await this.deps.monitors.findManyAnywhere([...new Set(monitorIds)], ctx.db);
    return new Set(
      found
        .filter((m) => m.organizationId === actor.organizationId && !canSeeEnvironment(actor, m.environment))
        .map((m) => m.id),
    );
  }

  /**
   * The rules a schema cannot say, after the route's schema checked the shape (`shapeDetails`: what it found,
   * so that one answer names every field at fault): the monitors exist in the organization, in the actor's
   * environments, each once on the page (grouped or not); the slug and the custom domain are free; the domain is a
   * host name; the zone is known; a password page has a password.
   */
  private async validated(
    ctx: ServiceContext,
    body: StatusPageInput,
    existing: { page: StatusPage; hidden: ReadonlySet<string> } | null,
    shapeDetails: readonly ErrorDetail[],
  ): Promise<ValidFields> {
    const details: ErrorDetail[] = [...shapeDetails];
    // With shape problems the body may not even be an object; their details are the answer then.
    const input: StatusPageInput = typeof body === 'object' && body !== null ? body : {};
    const shapeOk = (prefix: string) => !shapeDetails.some((d) => d.field.startsWith(prefix));
    const layoutWellFormed = shapeOk('monitor_ids') && shapeOk('groups');
    if (layoutWellFormed && (input.monitor_ids !== undefined || input.groups !== undefined)) {
      const lists = layoutLists(input, existing);
      const given = lists.filter((l) => l.field !== null);
      for (const list of given) details.push(...(await this.monitorIdProblems(ctx, list.ids, list.field!)));
      details.push(...layoutProblems(lists));
    }
    const domain =
      typeof input.custom_domain === 'string' && shapeOk('custom_domain') ? normaliseDomain(input.custom_domain) : null;
    if (domain !== null) {
      const issue = customDomainIssue(domain, this.deps.reservedHosts ?? []);
      if (issue) details.push({ field: 'custom_domain', issue });
    }
    if (typeof input.timezone === 'string' && shapeOk('timezone') && !isTimeZone(input.timezone)) {
      details.push({ field: 'timezone', issue: `unknown IANA time zone "${input.timezone}"` });
    }
    if (typeof input.password === 'string' && shapeOk('password')) {
      const issue = passwordIssue(input.password);
      if (issue) details.push({ field: 'password', issue });
    }
    const access = input.access ?? existing?.page.access ?? 'public';
    const hasPassword = input.password !== undefined ? input.password !== null : existing?.page.passwordHash != null;
    if (access === 'password' && !hasPassword && shapeOk('password') && shapeOk('access')) {
      details.push({
        field: 'password',
        issue:
          input.password === null
            ? 'cannot be removed while access is "password"'
            : 'is required while access is "password"',
      });
    }
    const repository = new StatusPagesRepository(ctx.db);
    const exceptId = existing?.page.id ?? null;
    if (details.length === 0 && input.slug !== undefined && (await repository.slugTaken(input.slug, exceptId))) {
      details.push({ field: 'slug', issue: `${input.slug} is already taken` });
    }
    if (details.length === 0 && domain !== null && (await repository.domainTaken(domain, exceptId))) {
      details.push({ field: 'custom_domain', issue: `${domain} is already taken by another status page` });
    }
    if (details.length > 0) throw validationFailed(details);
    return {
      ...(input.slug !== undefined && { slug: input.slug }),
      ...(input.title !== undefined && { title: input.title.trim() }),
      ...(input.public !== undefined && { public: input.public }),
      ...(input.show_sla_targets !== undefined && { showSlaTargets: input.show_sla_targets }),
      ...(input.allow_embedding !== undefined && { allowEmbedding: input.allow_embedding }),
      ...(input.auto_notices !== undefined && { autoNotices: input.auto_notices }),
      ...(input.subscriptions_enabled !== undefined && { subscriptionsEnabled: input.subscriptions_enabled }),
      ...(input.monitor_ids !== undefined && { monitorIds: [...input.monitor_ids] }),
      ...(input.groups !== undefined && { groups: groupsOf(input.groups) }),
      ...(input.custom_domain !== undefined && { customDomain: domain }),
      ...(input.access !== undefined && { access: input.access }),
      // Hashed once here (memory-hard: tens of milliseconds), before any transaction.
      ...(input.password !== undefined && {
        passwordHash: input.password === null ? null : await hashPassword(input.password),
      }),
      ...(input.timezone !== undefined && { timezone: canonicalZone(input.timezone) }),
    };
  }

  private async monitorIdProblems(
    ctx: ServiceContext,
    ids: readonly string[],
    listField: string,
  ): Promise<ErrorDetail[]> {
    const { actor } = ctx;
    const found = await this.deps.monitors.findManyAnywhere(ids, ctx.db);
    const visible = new Set(
      found
        .filter((m) => m.organizationId === actor.organizationId && canSeeEnvironment(actor, m.environment))
        .map((m) => m.id),
    );
    // Duplicates are the layout's rule (layoutProblems), across every list of the page.
    const details: ErrorDetail[] = [];
    ids.forEach((id, i) => {
      if (!visible.has(id)) {
        details.push({ field: `${listField}[${i}]`, issue: `monitor ${id} does not exist in this organization` });
      }
    });
    return details;
  }
}

/** Shows monitors, all of which the actor may not see (a page without monitors is everyone's). */
function onlyHidden(page: StatusPage, hidden: ReadonlySet<string>): boolean {
  const all = pageMonitorIds(page);
  return all.length > 0 && all.every((m) => hidden.has(m));
}

function withoutHidden(page: StatusPage, hidden: ReadonlySet<string>): StatusPage {
  if (hidden.size === 0) return page;
  return {
    ...page,
    monitorIds: page.monitorIds.filter((m) => !hidden.has(m)),
    groups: page.groups.map((g) => ({ ...g, monitorIds: g.monitorIds.filter((m) => !hidden.has(m)) })),
  };
}

/**
 * The page's lists of monitors after a body: the body's lists (with their fields) replace the stored ones the
 * actor sees; the stored ones the body leaves alone are kept (field null).
 */
function layoutLists(
  input: StatusPageInput,
  existing: { page: StatusPage; hidden: ReadonlySet<string> } | null,
): LayoutList[] {
  const visible = existing ? withoutHidden(existing.page, existing.hidden) : null;
  const lists: LayoutList[] = [];
  if (input.groups !== undefined) {
    input.groups.forEach((g, i) =>
      lists.push({ field: `groups[${i}].monitor_ids`, group: g.name.trim(), ids: g.monitor_ids }),
    );
  } else if (visible) {
    for (const g of visible.groups) lists.push({ field: null, group: g.name, ids: g.monitorIds });
  }
  if (input.monitor_ids !== undefined) lists.push({ field: 'monitor_ids', group: null, ids: input.monitor_ids });
  else if (visible) lists.push({ field: null, group: null, ids: visible.monitorIds });
  return lists;
}

/**
 * The groups and ungrouped monitors after an update. The actor's lists replace what it sees; monitors of
 * environments it cannot see stay on the page: in the group of the same name, else ungrouped.
 */
function mergedLayout(
  existing: StatusPage,
  fields: ValidFields,
  hidden: ReadonlySet<string>,
): Pick<StatusPage, 'groups' | 'monitorIds'> {
  const isHidden = (m: string) => hidden.has(m);
  const monitorIds = fields.monitorIds
    ? [...fields.monitorIds, ...existing.monitorIds.filter(isHidden)]
    : [...existing.monitorIds];
  if (!fields.groups) return { groups: existing.groups, monitorIds };
  const groups = fields.groups.map((g) => ({ ...g, monitorIds: [...g.monitorIds] }));
  for (const old of existing.groups) {
    const kept = old.monitorIds.filter(isHidden);
    if (kept.length === 0) continue;
    const same = groups.find((g) => g.name === old.name);
    if (same) same.monitorIds.push(...kept);
    else monitorIds.push(...kept);
  }
  return { groups, monitorIds };
}

/** A zone as Intl spells it (`europe/berlin` is stored as Europe/Berlin). */
function canonicalZone(zone: string): string {
  return new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;
}

function uniqueTaken(field: UniqueField, page: StatusPage) {
  return validationFailed([
    field === 'custom_domain'
      ? { field, issue: `${page.customDomain} is already taken by another status page` }
      : { field, issue: `${page.slug} is already taken` },
  ]);
}
