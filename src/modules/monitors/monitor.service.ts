import type { Clock } from '../../platform/clock.ts';
import { PrecompiledQueries, type Database } from '../../platform/db/index.ts';
import { DomainError, notFound, validationFailed, type ErrorDetail } from '../../platform/errors.ts';
import { isId, newId, randomToken } from '../../platform/ids.ts';
import { canSeeEnvironment, type Actor, type ServiceContext } from '../auth/index.ts';
import type { Plans } from '../orgs/index.ts';
import type { LockOrganization, MonitorAlertLinks } from './monitor.ports.ts';
import { credentialsFollowTarget, mergePatch } from './monitor.patch.ts';
import { mergeDetails, wellShapedPart } from './monitor.shape.ts';
import { MonitorsRepository, type MonitorScope } from './monitors.repository.ts';
import type {
  HeartbeatTarget,
  Monitor,
  MonitorFilter,
  MonitorInput,
  MonitorPatch,
  MonitorStatus,
} from './monitor.types.ts';
import { heartbeatConfig } from './heartbeat.validation.ts';
import { validateMonitor, type AssertionValidator, type ValidMonitorFields } from './monitor.validation.ts';
import type { MonitorTargetGuard } from './monitor.target-guard.ts';
import { monitorChange } from './monitor.audit.ts';
import { cycleDetail, dependencyCycle } from './monitor.dependencies.ts';
import { MonitorDependenciesRepository, type RelatedMonitor } from './monitor-dependencies.repository.ts';
import { plural } from '../../platform/plural.ts';
import { decodeListCursor, encodeListCursor, type MonitorSort } from './monitor.list.ts';

/**
 * Told about every saved or deleted monitor, inside the transaction that writes it (`tx`): the reaction's
 * writes (schedule rows, incidents, status pages) commit or roll back with the monitor's.
 */
export interface MonitorListener {
  monitorSaved(tx: Database, monitor: Monitor, previous: Monitor | null): Promise<void>;
  monitorDeleted(tx: Database, monitor: Monitor): Promise<void>;
}

export interface MonitorsServiceDeps {
  /** For internal reads and writes of background roles (the API's verbs use the context's handle). */
  database: Database;
  clock: Clock;
  plans: Plans;
  regions: readonly string[];
  publicUrl: string;
  /**
   * The organization's default region (from the orgs module), read through the verb's handle: inside a wider
   * transaction (configuration apply) a read through another handle would wait for that transaction on SQLite.
   */
  defaultRegionOf(db: Database, organizationId: string): Promise<string>;
  validateAssertion: AssertionValidator;
  /** The monitor ↔ destination links (rows owned by the alerting module). */
  alertLinks: MonitorAlertLinks;
  lockOrganization: LockOrganization;
  /** Refuses private and special-purpose targets when `network.allow_private_targets` is false. */
  targetGuard: MonitorTargetGuard;
  listeners?: MonitorListener[];
}

export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

function scopeOf(actor: Actor): MonitorScope {
  // A session sees every environment: no environment filter at all.
  return actor.allEnvironments
    ? { organizationId: actor.organizationId }
    : { organizationId: actor.organizationId, environments: actor.environments };
}

/** The config as stored: the destination links are the alerting module's rows, written through `alertLinks`. */
function storedConfig(config: Monitor['config']): Monitor['config'] {
  const { alert_destination_ids: _links, ...rest } = config;
  return rest as Monitor['config'];
}

/** How often an update is merged again onto a monitor that another change committed to meanwhile. */
const UPDATE_ATTEMPTS = 5;

/** The fields a user's change writes (not the check engine's status and times): what an update merged onto. */
function userFieldsOf(m: Monitor): string {
  const { name, target, intervalSeconds, regionCodes, tags, environment, paused } = m;
  return JSON.stringify([
    name,
    target,
    intervalSeconds,
    regionCodes,
    tags,
    environment,
    paused,
    storedConfig(m.config),
  ]);
}

/** A detail of one item of a batch, named under the item's field. */
function under(field: string, detail: string): string {
  if (field === '') return detail;
  return detail === 'body' ? field : detail.startsWith('[') ? `${field}${detail}` : `${field}.${detail}`;
}

function sameIds(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}

function parentIdsOf(m: Pick<Monitor, 'config'>): string[] {
  return m.config.depends_on ?? [];
}

/** A parent that holds a down child's alerts back (DECISIONS §17): down, or in maintenance. */
export function blocksChildren(status: string): boolean {
  return status === 'down' || status === 'maintenance';
}

export class MonitorsService {
  private readonly deps: MonitorsServiceDeps;
  private readonly listeners: MonitorListener[];
  /**
   * The SQL of the API's hot statements (the single read, list pages, a save's writes), compiled once per shape
   * (dialect, number of environments, filters) for this service.
   */
  private readonly queries = new PrecompiledQueries();
  constructor(deps: MonitorsServiceDeps) {
    this.deps = deps;
    this.listeners = [...(deps.listeners ?? [])];
  }

  addListener(listener: MonitorListener): void {
    this.listeners.push(listener);
  }

  heartbeatUrl(token: string): string {
    return `${this.deps.publicUrl}/api/v1/heartbeats/${token}`;
  }

  /**
   * `input`: the body the route's schema checked; `shapeDetails`: what it found wrong, answered together with what
   * the rules a schema cannot say find in the rest (one 422 names every field at fault).
   */
  async create(ctx: ServiceContext, input: MonitorInput, shapeDetails: readonly ErrorDetail[] = []): Promise<Monitor> {
    const [monitor] = await this.createMany(ctx, [{ input, shapeDetails, field: '' }]);
    return monitor!;
  }

  /**
   * Creates every monitor or none, in one transaction: each input is judged as `create` judges one (its details
   * named under its `field`, e.g. `operations[3].monitor.target`), and the plan's monitor count is checked for all
   * of them together (the message says how many fit).
   */
  async createMany(
    ctx: ServiceContext,
    items: ReadonlyArray<{ input: MonitorInput; shapeDetails: readonly ErrorDetail[]; field: string }>,
  ): Promise<Monitor[]> {
    const { actor } = ctx;
    const plan = this.deps.plans.limitsOf(actor.plan);
    const defaultEnvironment = actor.environments.includes('production')
      ? 'production'
      : (actor.environments[0] ?? 'production');
    const details: ErrorDetail[] = [];
    const valid: ValidMonitorFields[] = [];
    for (const { input, shapeDetails, field } of items) {
      try {
        if (shapeDetails.length > 0) {
          const judged = wellShapedPart<MonitorInput>(input, shapeDetails);
          throw this.shapeAndDomain(judged, shapeDetails, plan.interval_floor_seconds, defaultEnvironment);
        }
        valid.push(await this.validated(ctx, input, plan.interval_floor_seconds, defaultEnvironment));
      } catch (error) {
        // A plan limit of one of several items names that item's field (`monitors[2].interval_seconds`).
        if (error instanceof DomainError && error.code === 'plan_limit_exceeded' && items.length > 1 && error.details)
          throw new DomainError(
            error.code,
            error.message,
            error.details.map((d) => ({ field: under(field, d.field), issue: d.issue })),
          );
        if (!(error instanceof DomainError) || error.code !== 'validation_failed' || items.length === 1) throw error;
        for (const d of error.details ?? []) details.push({ field: under(field, d.field), issue: d.issue });
      }
    }
    if (details.length > 0) throw validationFailed(details);
    const now = ctx.clock.now();
    const monitors = valid.map((fields) => this.newMonitor(actor, fields, now));
    await ctx.db.transaction(async (tx) => {
      // Count and insert under the organization's lock: concurrent creates at the limit accept exactly the rest.
      await this.deps.lockOrganization(tx, actor.organizationId);
      const repository = new MonitorsRepository(tx, this.queries);
      const max = plan.monitors;
      // Counting scans the organization's monitors (10,000: a fifth of a create's CPU, issue 36 item 8): only a plan
      // with a limit needs the number.
      const count = max === null ? 0 : await repository.count(actor.organizationId);
      if (monitors.length > 1 && max !== null && count + monitors.length > max) {
        throw new DomainError(
          'plan_limit_exceeded',
          `The ${actor.plan} plan allows ${plural(max, 'monitor')} and ${count} ${count === 1 ? 'exists' : 'exist'}: ` +
            `${Math.max(0, max - count)} of the ${monitors.length} requested fit.`,
        );
      }
      this.deps.plans.requireWithin(actor.plan, 'monitors', count + monitors.length, 'monitors');
      for (const monitor of monitors) {
        await repository.insert({ ...monitor, config: storedConfig(monitor.config) });
        if (monitor.config.alert_destination_ids.length > 0) {
          await this.deps.alertLinks.replaceForMonitor(
            tx,
            actor.organizationId,
            monitor.id,
            monitor.config.alert_destination_ids,
          );
        }
        if (parentIdsOf(monitor).length > 0) await this.saveDependencies(tx, ctx, monitor);
        for (const l of this.listeners) await l.monitorSaved(tx, monitor, null);
        await ctx.audit?.record(tx, monitorChange('monitor.create', null, monitor));
      }
    });
    return monitors;
  }

  private newMonitor(actor: Actor, fields: ValidMonitorFields, now: number): Monitor {
    const token = fields.type === 'heartbeat' ? randomToken(18) : null;
    return {
      id: newId('mon', now),
      organizationId: actor.organizationId,
      name: fields.name,
      type: fields.type,
      target: token ? this.heartbeatUrl(token) : fields.target,
      intervalSeconds: fields.interval_seconds,
      regionCodes: fields.region_codes,
      tags: fields.tags,
      environment: fields.environment,
      config: fields.config,
      paused: fields.paused,
      status: fields.paused ? 'paused' : 'pending',
      statusChangedAt: now,
      lastCheckedAt: null,
      heartbeatToken: token,
      createdAt: now,
      updatedAt: now,
    };
  }

  /** Destination ids per monitor (monitors without links are absent): for reports on monitors without alerts. */
  alertDestinationIdsOf(organizationId: string, monitorIds: readonly string[]): Promise<Map<string, string[]>> {
    return this.deps.alertLinks.destinationIdsOf(this.deps.database, organizationId, monitorIds);
  }

  /**
   * A heartbeat schedule and grace judged exactly as a save judges them (the plan's floor, the zone, a cron that
   * fires): the config a save would store, or the 422 a save would answer (fields named `config.schedule.*`).
   */
  judgeHeartbeatSchedule(
    ctx: ServiceContext,
    config: Record<string, unknown>,
    shapeDetails: readonly ErrorDetail[] = [],
  ): { schedule: Record<string, unknown>; grace_seconds: number } {
    const floor = this.deps.plans.limitsOf(ctx.actor.plan).interval_floor_seconds;
    const judged =
      shapeDetails.length > 0
        ? wellShapedPart<{ config?: Record<string, unknown> }>({ config }, shapeDetails)?.config
        : config;
    if (judged === undefined) throw validationFailed([...shapeDetails]);
    const details: ErrorDetail[] = [];
    if ((judged.schedule === undefined || judged.schedule === null) && shapeDetails.length === 0) {
      details.push({ field: 'config.schedule', issue: 'is required' });
    }
    // The legacy interval does not matter here: a schedule is required, so the grace default is the schedule's.
    const valid = heartbeatConfig(judged, floor, floor, ctx.clock.now(), details);
    if (details.length === 0 && shapeDetails.length === 0) {
      return { schedule: valid.schedule as Record<string, unknown>, grace_seconds: valid.grace_seconds as number };
    }
    throw validationFailed(mergeDetails(shapeDetails, details));
  }

  async get(ctx: ServiceContext, id: string): Promise<Monitor> {
    // Not an id at all: nothing to look up (and a NUL byte would make PostgreSQL fail rather than miss).
    if (!isId(id, 'mon')) throw notFound('Monitor');
    // One statement for the row and its links (alerting's subquery), compiled once: the API's hottest read.
    const found = await new MonitorsRepository(ctx.db).findWithLinks(
      scopeOf(ctx.actor),
      id,
      (dialect) => this.deps.alertLinks.destinationIdsOfMonitorRow(dialect),
      this.queries,
    );
    if (!found) throw notFound('Monitor');
    const monitor = {
      ...found.monitor,
      config: { ...found.monitor.config, alert_destination_ids: found.destinationIds },
    };
    return (await this.withBlockedBy(ctx.db, [monitor]))[0]!;
  }

  /**
   * `blockedBy` of the monitors that are down and have parents (one read for all of them; none for the others): the
   * parents that are down or in maintenance now.
   */
  private async withBlockedBy(db: Database, monitors: Monitor[]): Promise<Monitor[]> {
    const candidates = monitors.filter((m) => m.status === 'down' && parentIdsOf(m).length > 0).map((m) => m.id);
    if (candidates.length === 0) return monitors;
    const parents = await new MonitorDependenciesRepository(db).parentsOf(candidates);
    return monitors.map((m) => {
      const blocking = (parents.get(m.id) ?? []).filter((p) => blocksChildren(p.status)).map((p) => p.id);
      return blocking.length > 0 ? { ...m, blockedBy: blocking } : m;
    });
  }

  /** Internal (the incidents module's dependency decision): the parents of a monitor with their statuses. */
  async parentsOf(db: Database, monitorId: string): Promise<RelatedMonitor[]> {
    return (await new MonitorDependenciesRepository(db).parentsOf([monitorId])).get(monitorId) ?? [];
  }

  /** Internal (the incidents module's dependency decision): one monitor as an end of an edge, read through `db`. */
  relatedOf(db: Database, monitorId: string): Promise<RelatedMonitor | null> {
    return new MonitorDependenciesRepository(db).related(monitorId);
  }

  /** Internal (the incidents module's dependency decision): the monitors that depend on this one. */
  childrenOf(db: Database, monitorId: string): Promise<RelatedMonitor[]> {
    return new MonitorDependenciesRepository(db).childrenOf(monitorId);
  }

  /**
   * Inside the saving transaction: the parents exist in this organization (one deleted since the checks before the
   * transaction is a 422 too), the graph stays acyclic (checked under the organization's lock, so two changes
   * cannot close a cycle together), then the rows are replaced.
   */
  private async saveDependencies(tx: Database, ctx: ServiceContext, monitor: Monitor): Promise<void> {
    const parentIds = parentIdsOf(monitor);
    if (parentIds.length > 0) {
      const found = new Set(
        (await new MonitorsRepository(tx).findManyAnywhere(parentIds))
          .filter((m) => m.organizationId === monitor.organizationId)
          .map((m) => m.id),
      );
      const missing = parentIds.filter((id) => !found.has(id));
      if (missing.length > 0) throw validationFailed(missing.map((id) => missingParent(parentIds, id)));
    }
    await this.deps.lockOrganization(tx, monitor.organizationId);
    const repository = new MonitorDependenciesRepository(tx);
    const cycle = dependencyCycle(await repository.edgesOf(monitor.organizationId), monitor.id, parentIds);
    if (cycle) throw validationFailed([cycleDetail(cycle, parentIds)]);
    await repository.replaceFor(monitor.organizationId, monitor.id, parentIds);
  }

  /**
   * A page of the monitors matching `filter` in `sort`'s order. `lean`: for the list's summary rows, which show no
   * destinations (their links are not read).
   */
  async list(
    ctx: ServiceContext,
    filter: MonitorFilter,
    page: { limit: number; cursor?: string; sort?: MonitorSort; lean?: boolean },
  ): Promise<Page<Monitor>> {
    const sort = page.sort ?? 'id';
    const after = decodeListCursor(sort, page.cursor);
    const rows = await new MonitorsRepository(ctx.db).list(
      scopeOf(ctx.actor),
      filter,
      after,
      page.limit,
      sort,
      this.queries,
    );
    const result = { data: rows.slice(0, page.limit) };
    const next_cursor = rows.length > page.limit ? encodeListCursor(sort, result.data[result.data.length - 1]!) : null;
    const links = page.lean
      ? new Map<string, string[]>()
      : await this.deps.alertLinks.destinationIdsOf(
          ctx.db,
          ctx.actor.organizationId,
          result.data.map((m) => m.id),
        );
    const data = await this.withBlockedBy(
      ctx.db,
      result.data.map((m) => (page.lean ? m : withLinks(m, links))),
    );
    return { data, next_cursor };
  }

  /** How many monitors match `filter`, per status as shown (`maintenance` for unpaused ones `covered` now). */
  countByStatus(
    ctx: ServiceContext,
    filter: Omit<MonitorFilter, 'status' | 'maintenance'>,
    covered: { monitorIds: readonly string[]; tags: readonly string[] },
  ): Promise<Map<string, number>> {
    return new MonitorsRepository(ctx.db).countByStatus(scopeOf(ctx.actor), filter, covered);
  }

  /** The ids of every monitor the actor sees that matches `filter` (the overview's organization-wide history). */
  idsMatching(ctx: ServiceContext, filter: MonitorFilter = {}): Promise<string[]> {
    return new MonitorsRepository(ctx.db).idsMatching(scopeOf(ctx.actor), filter);
  }

  /** Which of `ids` the actor sees (the others do not exist or are another organization's or environment's). */
  visibleIds(ctx: ServiceContext, ids: readonly string[]): Promise<Set<string>> {
    return new MonitorsRepository(ctx.db).visibleIds(
      scopeOf(ctx.actor),
      ids.filter((id) => isId(id, 'mon')),
    );
  }

  /** How many monitors match `filter` (what a list's first page says it has in all). */
  countMatching(ctx: ServiceContext, filter: MonitorFilter): Promise<number> {
    return new MonitorsRepository(ctx.db).countMatching(scopeOf(ctx.actor), filter);
  }

  /**
   * Merges the patch onto the monitor and writes it in one transaction. Validation (DNS of the target, destination
   * ids) runs before it; inside it the row is read again under a lock: if another change to the user's fields
   * committed since the merge read it, the merge is redone onto that change (two PATCHes of different fields both
   * land), and the status the check engine recorded meanwhile is kept unless this change pauses or resumes.
   */
  async update(
    ctx: ServiceContext,
    id: string,
    patch: MonitorPatch,
    shapeDetails: readonly ErrorDetail[] = [],
  ): Promise<Monitor> {
    const judged = shapeDetails.length > 0 ? wellShapedPart<MonitorPatch>(patch, shapeDetails) : undefined;
    if (judged === null) throw validationFailed([...shapeDetails]);
    for (let attempt = 1; ; attempt++) {
      const existing = await this.get(ctx, id);
      const plan = this.deps.plans.limitsOf(ctx.actor.plan);
      if (judged !== undefined) {
        const merged = mergePatch(existing, judged);
        throw this.shapeAndDomain(merged, shapeDetails, plan.interval_floor_seconds, existing.environment);
      }
      const moved = credentialsFollowTarget(existing, patch);
      if (moved) throw validationFailed([moved]);
      const merged = mergePatch(existing, patch);
      const fields = await this.validated(ctx, merged, plan.interval_floor_seconds, existing.environment);
      const now = ctx.clock.now();
      const pausedChanged = fields.paused !== existing.paused;
      const updated: Monitor = {
        ...existing,
        name: fields.name,
        target: existing.type === 'heartbeat' ? existing.target : fields.target,
        intervalSeconds: fields.interval_seconds,
        regionCodes: fields.region_codes,
        tags: fields.tags,
        environment: fields.environment,
        config: fields.config,
        paused: fields.paused,
        status: pausedChanged ? (fields.paused ? 'paused' : 'pending') : existing.status,
        statusChangedAt: pausedChanged ? now : existing.statusChangedAt,
        updatedAt: now,
      };
      const links = updated.config.alert_destination_ids;
      const linksGiven = patch.config?.alert_destination_ids !== undefined;
      const written = await ctx.db.transaction(async (tx) => {
        const repository = new MonitorsRepository(tx, this.queries);
        const current = await repository.findForUpdate(scopeOf(ctx.actor), id);
        if (!current) throw notFound('Monitor');
        if (userFieldsOf(current) !== userFieldsOf(existing)) return null;
        const saved: Monitor = pausedChanged
          ? updated
          : {
              ...updated,
              status: current.status,
              statusChangedAt: current.statusChangedAt,
              lastCheckedAt: current.lastCheckedAt,
            };
        await repository.update({ ...saved, config: storedConfig(saved.config) }, current);
        if (!sameIds(parentIdsOf(saved), parentIdsOf(current))) await this.saveDependencies(tx, ctx, saved);
        if (linksGiven || !sameIds(links, existing.config.alert_destination_ids)) {
          await this.deps.alertLinks.replaceForMonitor(tx, saved.organizationId, saved.id, links);
        }
        for (const l of this.listeners) await l.monitorSaved(tx, saved, existing);
        await ctx.audit?.record(tx, monitorChange('monitor.update', existing, saved));
        return saved;
      });
      if (written) return written;
      if (attempt === UPDATE_ATTEMPTS)
        throw new DomainError('conflict', 'The monitor kept changing while this update was applied; try again.');
    }
  }

  async delete(ctx: ServiceContext, id: string): Promise<void> {
    const existing = await this.findVisible(ctx.db, ctx.actor, id);
    await ctx.db.transaction(async (tx) => {
      // Read before the delete: the foreign key deletes the dependency rows with the monitor.
      const children = await new MonitorDependenciesRepository(tx).childrenOf(id);
      // Nothing deleted: another request got there first, and its transaction ran the reactions.
      if (!(await new MonitorsRepository(tx).delete(scopeOf(ctx.actor), id))) throw notFound('Monitor');
      await this.forgetParent(tx, existing, children);
      for (const l of this.listeners) await l.monitorDeleted(tx, existing);
      await ctx.audit?.record(tx, monitorChange('monitor.delete', existing, null));
    });
  }

  /**
   * A deleted monitor leaves its children's `depends_on` (their rows went with it, by the foreign key): each child's
   * config is rewritten without it, in the deleting transaction.
   */
  private async forgetParent(tx: Database, parent: Monitor, children: readonly RelatedMonitor[]): Promise<void> {
    const repository = new MonitorsRepository(tx);
    for (const { id } of children) {
      const child = await repository.findAnywhere(id);
      if (!child) continue;
      const rest = parentIdsOf(child).filter((id) => id !== parent.id);
      const { depends_on: _gone, ...config } = child.config;
      await repository.setConfig(
        child.id,
        (rest.length > 0 ? { ...config, depends_on: rest } : config) as Monitor['config'],
        this.deps.clock.now(),
      );
    }
  }

  pause(ctx: ServiceContext, id: string): Promise<Monitor> {
    return this.setPaused(ctx, id, true);
  }

  resume(ctx: ServiceContext, id: string): Promise<Monitor> {
    return this.setPaused(ctx, id, false);
  }

  /** Internal: a monitor of any organization (scheduler, heartbeats, alerting). */
  findAnywhere(id: string): Promise<Monitor | null> {
    return this.repository().findAnywhere(id);
  }

  /** Internal: monitors of any organization, read through `db` (a caller's transaction handle, or the database). */
  findManyAnywhere(ids: readonly string[], db: Database = this.deps.database): Promise<Monitor[]> {
    return new MonitorsRepository(db).findManyAnywhere(ids);
  }

  /**
   * Internal: the current status of each of these monitors that still exists, read through `db` (the check engine's
   * batch transaction; it keeps the definitions it claimed with, so only what changes between checks is read).
   */
  statusesAnywhere(ids: readonly string[], db: Database = this.deps.database): Promise<Map<string, MonitorStatus>> {
    return new MonitorsRepository(db).statusesAnywhere(ids);
  }

  /** Internal: the monitors of heartbeat tokens, by token, read through `db` (a ping batch's transaction). */
  findByHeartbeatTokens(
    tokens: readonly string[],
    db: Database = this.deps.database,
  ): Promise<Map<string, HeartbeatTarget>> {
    return new MonitorsRepository(db).findByHeartbeatTokens(tokens, this.queries);
  }

  /** Internal: a page of monitors that are not paused, ordered by id. */
  listActive(afterId: string | undefined, limit: number): Promise<Monitor[]> {
    return this.repository().listActive(afterId, limit);
  }

  /** Internal: the state machine's verdict, written through `db` (the check engine passes its batch transaction). */
  recordStatus(id: string, status: MonitorStatus, at: number, db: Database = this.deps.database): Promise<void> {
    return new MonitorsRepository(db).setStatus(id, status, at);
  }

  /** Internal: when these monitors were last checked, written through `db` (as `recordStatus`). */
  recordChecked(ids: readonly string[], at: number, db: Database = this.deps.database): Promise<void> {
    return new MonitorsRepository(db).setLastChecked(ids, at);
  }

  private repository(): MonitorsRepository {
    return new MonitorsRepository(this.deps.database);
  }

  private async findVisible(db: Database, actor: Actor, id: string): Promise<Monitor> {
    // Not an id at all: nothing to look up (and a NUL byte would make PostgreSQL fail rather than miss).
    if (!isId(id, 'mon')) throw notFound('Monitor');
    const monitor = await new MonitorsRepository(db).find(scopeOf(actor), id);
    if (!monitor) throw notFound('Monitor');
    return monitor;
  }

  private async setPaused(ctx: ServiceContext, id: string, paused: boolean): Promise<Monitor> {
    const existing = await this.get(ctx, id);
    if (existing.paused === paused) return existing;
    const now = ctx.clock.now();
    const updated: Monitor = {
      ...existing,
      paused,
      status: paused ? 'paused' : 'pending',
      statusChangedAt: now,
      updatedAt: now,
    };
    await ctx.db.transaction(async (tx) => {
      await new MonitorsRepository(tx).setPaused(updated);
      for (const l of this.listeners) await l.monitorSaved(tx, updated, existing);
      await ctx.audit?.record(tx, monitorChange(paused ? 'monitor.pause' : 'monitor.resume', existing, updated));
    });
    return updated;
  }

  /** The 422 for a body with shape problems: those, and what the synchronous domain rules find in the rest. */
  private shapeAndDomain(
    judged: MonitorInput | null,
    shapeDetails: readonly ErrorDetail[],
    floor: number,
    defaultEnvironment: string,
  ): DomainError {
    if (judged === null) return validationFailed([...shapeDetails]);
    const result = validateMonitor(judged, {
      regions: this.deps.regions,
      // Region defaults do not matter here: only problems are reported.
      defaultRegion: this.deps.regions[0] ?? '',
      defaultIntervalSeconds: floor,
      defaultEnvironment,
      validateAssertion: this.deps.validateAssertion,
    });
    return validationFailed(mergeDetails(shapeDetails, result.ok ? [] : result.details));
  }

  private async validated(
    ctx: ServiceContext,
    input: MonitorInput,
    floor: number,
    defaultEnvironment: string,
  ): Promise<ValidMonitorFields> {
    const { actor } = ctx;
    const result = validateMonitor(input, {
      regions: this.deps.regions,
      defaultRegion: await this.deps.defaultRegionOf(ctx.db, actor.organizationId),
      defaultIntervalSeconds: floor,
      defaultEnvironment,
      validateAssertion: this.deps.validateAssertion,
      now: () => ctx.clock.now(),
    });
    if (!result.ok) throw validationFailed(result.details);
    const fields = result.value;
    const targetIssues = await this.deps.targetGuard.issuesOf(fields);
    if (targetIssues.length > 0) throw validationFailed(targetIssues);
    const ids = fields.config.alert_destination_ids;
    const missing =
      ids.length === 0 ? [] : await this.deps.alertLinks.missingDestinationIds(ctx.db, actor.organizationId, ids);
    if (missing.length > 0) {
      throw validationFailed(
        missing.map((id) => ({
          field: `config.alert_destination_ids[${ids.indexOf(id)}]`,
          issue: `destination ${id} does not exist in this organization`,
        })),
      );
    }
    const parentIds = parentIdsOf(fields);
    if (parentIds.length > 0) {
      // Monitors this actor cannot see (another organization, an environment outside the key's) are unknown here.
      const visible = new Set(
        (await new MonitorsRepository(ctx.db).findManyAnywhere(parentIds))
          .filter((m) => m.organizationId === actor.organizationId && canSeeEnvironment(actor, m.environment))
          .map((m) => m.id),
      );
      const unknown = parentIds.filter((id) => !visible.has(id));
      if (unknown.length > 0) throw validationFailed(unknown.map((id) => missingParent(parentIds, id)));
    }
    if (!canSeeEnvironment(actor, fields.environment)) {
      throw new DomainError('forbidden', `This key may not use the environment ${fields.environment}.`);
    }
    this.deps.plans.requireIntervalAtLeastFloor(actor.plan, fields.interval_seconds);
    this.deps.plans.requireWithin(
      actor.plan,
      'regions',
      fields.region_codes.length,
      'regions per monitor',
      'region_codes',
    );
    return fields;
  }
}

function missingParent(parentIds: readonly string[], id: string): ErrorDetail {
  return {
    field: `config.depends_on[${parentIds.indexOf(id)}]`,
    issue: `monitor ${id} does not exist in this organization`,
  };
}

/** The monitor as the API shows it: its destination links as `config.alert_destination_ids`. */
function withLinks(monitor: Monitor, links: Map<string, string[]>): Monitor {
  return { ...monitor, config: { ...monitor.config, alert_destination_ids: links.get(monitor.id) ?? [] } };
}
