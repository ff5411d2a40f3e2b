import type { Clock } from '../../platform/clock.ts';
import { decodeIdCursor, pageOf } from '../../platform/cursor.ts';
import { DomainError, notFound, validationFailed } from '../../platform/errors.ts';
import { isId, newId, randomToken } from '../../platform/ids.ts';
import type { Actor } from '../auth/index.ts';
import type { Plans } from '../orgs/index.ts';
import type { MonitorScope, MonitorsRepository } from './monitors.repository.ts';
import type { Monitor, MonitorFilter, MonitorStatus } from './monitor.types.ts';
import { validateMonitor, type AssertionValidator, type ValidMonitorFields } from './monitor.validation.ts';

/** Told about every saved or deleted monitor (the scheduler keeps its due times from this). */
export interface MonitorListener {
  monitorSaved(monitor: Monitor): Promise<void>;
  monitorDeleted(monitor: Monitor): Promise<void>;
}

export interface MonitorsServiceDeps {
  repository: MonitorsRepository;
  clock: Clock;
  plans: Plans;
  regions: readonly string[];
  publicUrl: string;
  /** The organization's default region (from the orgs module). */
  defaultRegionOf(organizationId: string): Promise<string>;
  validateAssertion: AssertionValidator;
  /** Returns the ids that are not destinations of this organization; wired to the alerting module. */
  missingDestinationIds(organizationId: string, ids: readonly string[]): Promise<string[]>;
  listeners?: MonitorListener[];
}

export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

const PATCHABLE = ['name', 'target', 'interval_seconds', 'region_codes', 'tags', 'environment', 'config', 'paused'];

function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) return body as Record<string, unknown>;
  throw validationFailed([{ field: 'body', issue: 'must be a JSON object' }]);
}

function scopeOf(actor: Actor): MonitorScope {
  return { organizationId: actor.organizationId, environments: actor.environments };
}

export class MonitorsService {
  private readonly deps: MonitorsServiceDeps;
  private readonly listeners: MonitorListener[];
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

  async create(actor: Actor, body: unknown): Promise<Monitor> {
    const input = objectBody(body);
    const plan = this.deps.plans.limitsOf(actor.plan);
    const defaultEnvironment = actor.environments.includes('production')
      ? 'production'
      : (actor.environments[0] ?? 'production');
    const fields = await this.validated(actor, input, plan.interval_floor_seconds, defaultEnvironment);
    const count = await this.deps.repository.count(actor.organizationId);
    this.deps.plans.requireWithin(actor.plan, 'monitors', count + 1, 'monitors');
    const now = this.deps.clock.now();
    const token = fields.type === 'heartbeat' ? randomToken(18) : null;
    const monitor: Monitor = {
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
    await this.deps.repository.insert(monitor);
    await this.notifySaved(monitor);
    return monitor;
  }

  async get(actor: Actor, id: string): Promise<Monitor> {
    // Not an id at all: nothing to look up (and a NUL byte would make PostgreSQL fail rather than miss).
    if (!isId(id, 'mon')) throw notFound('Monitor');
    const monitor = await this.deps.repository.find(scopeOf(actor), id);
    if (!monitor) throw notFound('Monitor');
    return monitor;
  }

  async list(actor: Actor, filter: MonitorFilter, page: { limit: number; cursor?: string }): Promise<Page<Monitor>> {
    const after = decodeIdCursor(page.cursor);
    const rows = await this.deps.repository.list(scopeOf(actor), filter, after, page.limit);
    return pageOf(rows, page.limit, (m) => m.id);
  }

  async update(actor: Actor, id: string, body: unknown): Promise<Monitor> {
    const existing = await this.get(actor, id);
    const patch = objectBody(body);
    const details = Object.keys(patch)
      .filter((k) => !PATCHABLE.includes(k))
      .map((k) => ({
        field: k,
        issue: k === 'type' ? 'cannot be changed; create a new monitor instead' : 'is not a known field for monitors',
      }));
    if (details.length > 0) throw validationFailed(details);
    // Config merges key by key; a key set to null goes back to its default. Always a copy: `existing` may be
    // shared (the read cache's frozen monitor) and the heartbeat rule below deletes a key.
    const mergedConfig =
      patch.config !== undefined &&
      patch.config !== null &&
      typeof patch.config === 'object' &&
      !Array.isArray(patch.config)
        ? { ...existing.config, ...(patch.config as Record<string, unknown>) }
        : patch.config === undefined || patch.config === null
          ? { ...existing.config }
          : patch.config;
    const merged: Record<string, unknown> = {
      name: existing.name,
      type: existing.type,
      target: existing.type === 'heartbeat' ? existing.target : existing.target,
      interval_seconds: existing.intervalSeconds,
      region_codes: existing.regionCodes,
      tags: existing.tags,
      environment: existing.environment,
      paused: existing.paused,
      ...patch,
      config: mergedConfig,
    };
    if (
      existing.type === 'heartbeat' &&
      patch.interval_seconds !== undefined &&
      (patch.config as Record<string, unknown> | undefined)?.grace_seconds === undefined
    ) {
      // The default grace follows the interval unless the user chose one.
      delete (merged.config as Record<string, unknown>).grace_seconds;
    }
    const plan = this.deps.plans.limitsOf(actor.plan);
    const fields = await this.validated(actor, merged, plan.interval_floor_seconds, existing.environment);
    const now = this.deps.clock.now();
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
    await this.deps.repository.update(updated);
    await this.notifySaved(updated);
    return updated;
  }

  async delete(actor: Actor, id: string): Promise<void> {
    const existing = await this.get(actor, id);
    await this.deps.repository.delete(scopeOf(actor), id);
    for (const l of this.listeners) await l.monitorDeleted(existing);
  }

  pause(actor: Actor, id: string): Promise<Monitor> {
    return this.setPaused(actor, id, true);
  }

  resume(actor: Actor, id: string): Promise<Monitor> {
    return this.setPaused(actor, id, false);
  }

  /** Internal: a monitor of any organization (scheduler, heartbeats, alerting). */
  findAnywhere(id: string): Promise<Monitor | null> {
    return this.deps.repository.findAnywhere(id);
  }

  findManyAnywhere(ids: readonly string[]): Promise<Monitor[]> {
    return this.deps.repository.findManyAnywhere(ids);
  }

  findByHeartbeatToken(token: string): Promise<Monitor | null> {
    return this.deps.repository.findByHeartbeatToken(token);
  }

  /** Internal: a page of monitors that are not paused, ordered by id. */
  listActive(afterId: string | undefined, limit: number): Promise<Monitor[]> {
    return this.deps.repository.listActive(afterId, limit);
  }

  /** Internal: the state machine's verdict. */
  recordStatus(id: string, status: MonitorStatus, at: number): Promise<void> {
    return this.deps.repository.setStatus(id, status, at);
  }

  recordChecked(ids: readonly string[], at: number): Promise<void> {
    return this.deps.repository.setLastChecked(ids, at);
  }

  /** Internal (alerting): the organization's monitors that alert this destination. */
  monitorsAlerting(organizationId: string, destinationId: string): Promise<Monitor[]> {
    return this.deps.repository.findByDestination(organizationId, destinationId);
  }

  /** Internal (alerting): replaces a monitor's config.alert_destination_ids, for attaching from the destination side. */
  setAlertDestinationIds(organizationId: string, monitorId: string, destinationIds: readonly string[]): Promise<void> {
    return this.deps.repository.setAlertDestinationIds(
      organizationId,
      monitorId,
      destinationIds,
      this.deps.clock.now(),
    );
  }

  private async setPaused(actor: Actor, id: string, paused: boolean): Promise<Monitor> {
    const existing = await this.get(actor, id);
    if (existing.paused === paused) return existing;
    const now = this.deps.clock.now();
    const updated: Monitor = {
      ...existing,
      paused,
      status: paused ? 'paused' : 'pending',
      statusChangedAt: now,
      updatedAt: now,
    };
    await this.deps.repository.update(updated);
    await this.notifySaved(updated);
    return updated;
  }

  private async notifySaved(monitor: Monitor): Promise<void> {
    for (const l of this.listeners) await l.monitorSaved(monitor);
  }

  private async validated(
    actor: Actor,
    input: Record<string, unknown>,
    floor: number,
    defaultEnvironment: string,
  ): Promise<ValidMonitorFields> {
    const result = validateMonitor(input, {
      regions: this.deps.regions,
      defaultRegion: await this.deps.defaultRegionOf(actor.organizationId),
      defaultIntervalSeconds: floor,
      defaultEnvironment,
      validateAssertion: this.deps.validateAssertion,
    });
    if (!result.ok) throw validationFailed(result.details);
    const fields = result.value;
    const missing = await this.deps.missingDestinationIds(actor.organizationId, fields.config.alert_destination_ids);
    if (missing.length > 0) {
      throw validationFailed(
        missing.map((id) => ({
          field: `config.alert_destination_ids[${fields.config.alert_destination_ids.indexOf(id)}]`,
          issue: `destination ${id} does not exist in this organization`,
        })),
      );
    }
    if (!actor.environments.includes(fields.environment)) {
      throw new DomainError('forbidden', `This key may not use the environment ${fields.environment}.`);
    }
    this.deps.plans.requireIntervalAtLeastFloor(actor.plan, fields.interval_seconds);
    this.deps.plans.requireWithin(actor.plan, 'regions', fields.region_codes.length, 'regions per monitor');
    return fields;
  }
}
