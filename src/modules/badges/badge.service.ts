import { resourceChange } from '../audit/index.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/index.ts';
import { notFound } from '../../platform/errors.ts';
import { newId, randomToken } from '../../platform/ids.ts';
import type { ServiceContext } from '../auth/index.ts';
import type { Monitor } from '../monitors/index.ts';
import { BadgesRepository } from './badges.repository.ts';
import { responseTimeFace, statusFace, uptimeFace } from './badge.faces.ts';
import {
  RESPONSE_TIME_WINDOW_MS,
  UPTIME_BADGE_DAYS,
  type BadgeFace,
  type BadgeKind,
  type BadgeMetrics,
  type MonitorBadge,
} from './badge.types.ts';

/** What badges need from the monitors module (MonitorsService fits). */
export interface BadgeMonitors {
  /** The monitor as the actor may see it; not_found otherwise. */
  get(ctx: ServiceContext, id: string): Promise<Monitor>;
  findManyAnywhere(ids: readonly string[]): Promise<Monitor[]>;
}

export interface BadgesServiceDeps {
  database: Database;
  clock: Clock;
  monitors: BadgeMonitors;
  metrics: BadgeMetrics;
}

/** 24 random bytes: 192 bits, unguessable; base64url, so the token sits in a URL as it is. */
const TOKEN_BYTES = 24;
const DAY_MS = 86_400_000;

/** The audit view of a badge: the token is a capability and never enters the log. */
function auditView(badge: MonitorBadge) {
  return { id: badge.id, organizationId: badge.organizationId, monitorId: badge.monitorId, createdAt: badge.createdAt };
}

/**
 * Monitor badges (DECISIONS §18): one revocable token per monitor whose public URLs show its status, uptime over
 * N days and response time. The token is stored as it is (a random id, not a password): badge URLs are meant to be
 * published, and the owner reads them back to copy the snippets again.
 */
export class BadgesService {
  private readonly deps: BadgesServiceDeps;
  constructor(deps: BadgesServiceDeps) {
    this.deps = deps;
  }

  /** A new token for the monitor; an existing one stops working in the same transaction (rotation). */
  async create(ctx: ServiceContext, monitorId: string): Promise<MonitorBadge> {
    const monitor = await this.deps.monitors.get(ctx, monitorId);
    const now = ctx.clock.now();
    const badge: MonitorBadge = {
      id: newId('bdg', now),
      organizationId: monitor.organizationId,
      monitorId: monitor.id,
      token: randomToken(TOKEN_BYTES),
      createdAt: now,
    };
    await ctx.db.transaction(async (tx) => {
      const repository = new BadgesRepository(tx);
      const previous = await repository.findByMonitor(monitor.organizationId, monitor.id);
      await repository.replace(badge);
      await ctx.audit?.record(
        tx,
        resourceChange('monitor_badge.create', 'monitor_badge', previous && auditView(previous), auditView(badge)),
      );
    });
    return badge;
  }

  async get(ctx: ServiceContext, monitorId: string): Promise<MonitorBadge> {
    const monitor = await this.deps.monitors.get(ctx, monitorId);
    const badge = await new BadgesRepository(ctx.db).findByMonitor(monitor.organizationId, monitor.id);
    if (!badge) throw notFound('Badge');
    return badge;
  }

  /** Revokes the monitor's badge: its URLs answer 404 from now on. */
  async revoke(ctx: ServiceContext, monitorId: string): Promise<void> {
    const monitor = await this.deps.monitors.get(ctx, monitorId);
    await ctx.db.transaction(async (tx) => {
      const repository = new BadgesRepository(tx);
      const badge = await repository.findByMonitor(monitor.organizationId, monitor.id);
      if (!badge || !(await repository.delete(monitor.organizationId, monitor.id))) throw notFound('Badge');
      await ctx.audit?.record(tx, resourceChange('monitor_badge.revoke', 'monitor_badge', auditView(badge), null));
    });
  }

  /**
   * What the badge of this token shows, or null for an unknown or revoked token (or a deleted monitor): the caller
   * answers all of them alike, so a URL tells nothing about whether a token ever existed.
   */
  async face(token: string, kind: BadgeKind, days: number = UPTIME_BADGE_DAYS.default): Promise<BadgeFace | null> {
    const { database, clock, metrics } = this.deps;
    const badge = await new BadgesRepository(database).findByToken(token);
    if (!badge) return null;
    const [monitor] = await this.deps.monitors.findManyAnywhere([badge.monitorId]);
    if (!monitor || monitor.organizationId !== badge.organizationId) return null;
    const now = clock.now();
    switch (kind) {
      case 'status':
        return statusFace(monitor, await metrics.inMaintenance(database, monitor.organizationId, monitor, now));
      case 'uptime':
        return uptimeFace(await metrics.uptimePercent(monitor.id, now - days * DAY_MS, now), days);
      case 'response-time':
        return responseTimeFace(await metrics.medianResponseMs(monitor.id, now - RESPONSE_TIME_WINDOW_MS, now));
    }
  }
}
