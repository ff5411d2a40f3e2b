import { resourceChange } from '../audit/index.ts';
import { decodeIdCursor, pageOf } from '../../platform/cursor.ts';
import { notFound, validationFailed, type ErrorDetail } from '../../platform/errors.ts';
import { isId, newId } from '../../platform/ids.ts';
import { canSeeEnvironment, type Actor, type ServiceContext } from '../auth/index.ts';
import type { Page } from '../monitors/index.ts';
import { MonitorTimelineRepository } from './monitor-timeline.repository.ts';
import type { SlaPeriod } from './report.period.ts';
import { SlaTargetsRepository, type SlaTarget } from './sla-targets.repository.ts';

export const SLA_NAME_MAX = 200;
export const SLA_MONITORS_MAX = 100;
const SCAN_BATCH = 200;

/** A create body as the route schema admits it (shape, ranges, id pattern, no duplicates are checked there). */
export interface SlaTargetInput {
  name: string;
  monitor_ids: string[];
  target_percent: number;
  period: SlaPeriod;
}

/** A PATCH body: any subset of the create fields. */
export type SlaTargetPatch = Partial<SlaTargetInput>;

interface SlaFields {
  name?: string;
  monitorIds?: string[];
  targetPercent?: number;
  period?: SlaPeriod;
}

/** SLA targets (DECISIONS §8): a set of monitors, an availability percentage and a calendar period. */
export class SlaTargetsService {
  async create(ctx: ServiceContext, input: SlaTargetInput): Promise<SlaTarget> {
    const fields = await this.validated(ctx, input);
    const now = ctx.clock.now();
    const target: SlaTarget = {
      id: newId('sla', now),
      organizationId: ctx.actor.organizationId,
      name: fields.name!,
      monitorIds: fields.monitorIds!,
      targetPercent: fields.targetPercent!,
      period: fields.period!,
      createdAt: now,
      updatedAt: now,
    };
    await ctx.db.transaction(async (tx) => {
      await new SlaTargetsRepository(tx).insert(target);
      await ctx.audit?.record(tx, resourceChange('sla_target.create', 'sla_target', null, target));
    });
    return target;
  }

  async get(ctx: ServiceContext, id: string): Promise<SlaTarget> {
    const { target, hidden } = await this.findVisible(ctx, id);
    return withoutHidden(target, hidden);
  }

  /** Targets of the organization; a key limited to some environments sees only its environments' monitors. */
  async list(ctx: ServiceContext, page: { limit: number; cursor?: string }): Promise<Page<SlaTarget>> {
    const repo = new SlaTargetsRepository(ctx.db);
    const visible: SlaTarget[] = [];
    let after = decodeIdCursor(page.cursor);
    for (;;) {
      const rows = await repo.list(ctx.actor.organizationId, after, SCAN_BATCH);
      const hidden = await this.hiddenMonitorIds(
        ctx,
        rows.flatMap((t) => t.monitorIds),
      );
      for (const row of rows) {
        if (!onlyHidden(row, hidden)) visible.push(withoutHidden(row, hidden));
        if (visible.length > page.limit) break;
      }
      if (visible.length > page.limit || rows.length < SCAN_BATCH) break;
      after = rows[rows.length - 1]!.id;
    }
    return pageOf(visible, page.limit, (t) => t.id);
  }

  /** Every target the actor sees (for the SLA report), with only the monitors it sees. */
  async all(ctx: ServiceContext): Promise<SlaTarget[]> {
    const out: SlaTarget[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await this.list(ctx, { limit: 200, ...(cursor !== undefined && { cursor }) });
      out.push(...page.data);
      if (!page.next_cursor) return out;
      cursor = page.next_cursor;
    }
  }

  async update(ctx: ServiceContext, id: string, patch: SlaTargetPatch): Promise<SlaTarget> {
    const { target: existing, hidden } = await this.findVisible(ctx, id);
    const fields = await this.validated(ctx, patch);
    // The key's list replaces what it sees; monitors of environments it cannot see stay in the target.
    const kept = existing.monitorIds.filter((m) => hidden.has(m));
    const updated: SlaTarget = {
      ...existing,
      name: fields.name ?? existing.name,
      monitorIds: fields.monitorIds ? [...fields.monitorIds, ...kept] : existing.monitorIds,
      targetPercent: fields.targetPercent ?? existing.targetPercent,
      period: fields.period ?? existing.period,
      updatedAt: ctx.clock.now(),
    };
    await ctx.db.transaction(async (tx) => {
      await new SlaTargetsRepository(tx).update(updated);
      await ctx.audit?.record(tx, resourceChange('sla_target.update', 'sla_target', existing, updated));
    });
    return withoutHidden(updated, hidden);
  }

  async delete(ctx: ServiceContext, id: string): Promise<void> {
    const { target } = await this.findVisible(ctx, id);
    await ctx.db.transaction(async (tx) => {
      if (!(await new SlaTargetsRepository(tx).delete(ctx.actor.organizationId, id))) throw notFound('SLA target');
      await ctx.audit?.record(tx, resourceChange('sla_target.delete', 'sla_target', target, null));
    });
  }

  private async findVisible(ctx: ServiceContext, id: string): Promise<{ target: SlaTarget; hidden: Set<string> }> {
    const target = isId(id, 'sla') ? await new SlaTargetsRepository(ctx.db).find(ctx.actor.organizationId, id) : null;
    if (!target) throw notFound('SLA target');
    const hidden = await this.hiddenMonitorIds(ctx, target.monitorIds);
    if (onlyHidden(target, hidden)) throw notFound('SLA target');
    return { target, hidden };
  }

  /** Of these monitor ids, those in environments the actor cannot see. */
  private async hiddenMonitorIds(ctx: ServiceContext, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const found = await new MonitorTimelineRepository(ctx.db).monitorsByIds(ctx.actor.organizationId, ids);
    return new Set(found.filter((m) => !canSeeEnvironment(ctx.actor, m.environment)).map((m) => m.id));
  }

  /** The rules the route schema cannot say: a name that is not only spaces, 3 decimals, monitors the key sees. */
  private async validated(ctx: ServiceContext, input: SlaTargetPatch): Promise<SlaFields> {
    const details: ErrorDetail[] = [];
    const out: SlaFields = {};
    if (input.name !== undefined) out.name = input.name.trim();
    if (input.target_percent !== undefined) {
      if (atMostThreeDecimals(input.target_percent)) out.targetPercent = input.target_percent;
      else {
        details.push({
          field: 'target_percent',
          issue: 'must be a number strictly between 0 and 100 with at most 3 decimals (e.g. 99.95)',
        });
      }
    }
    if (input.period !== undefined) out.period = input.period;
    if (input.monitor_ids !== undefined) {
      out.monitorIds = input.monitor_ids;
      await this.checkMonitorIds(ctx.actor, ctx, input.monitor_ids, details);
    }
    if (details.length > 0) throw validationFailed(details);
    return out;
  }

  /**
   * The problems of a body the route schema refused, beyond the schema's own: a well-typed target_percent's decimals,
   * and monitor ids (each a string) that do not exist or are out of the key's sight, so one 422 names them all.
   */
  async bodyIssues(ctx: ServiceContext, body: Record<string, unknown>): Promise<ErrorDetail[]> {
    const details: ErrorDetail[] = [];
    const percent = body.target_percent;
    if (typeof percent === 'number' && percent > 0 && percent < 100 && !atMostThreeDecimals(percent))
      details.push({
        field: 'target_percent',
        issue: 'must be a number strictly between 0 and 100 with at most 3 decimals (e.g. 99.95)',
      });
    const ids = body.monitor_ids;
    if (Array.isArray(ids) && ids.length > 0 && ids.every((id): id is string => typeof id === 'string'))
      await this.checkMonitorIds(ctx.actor, ctx, ids, details);
    return details;
  }

  private async checkMonitorIds(
    actor: Actor,
    ctx: ServiceContext,
    ids: readonly string[],
    details: ErrorDetail[],
  ): Promise<void> {
    const found = await new MonitorTimelineRepository(ctx.db).monitorsByIds(actor.organizationId, ids);
    const usable = new Set(
      found.filter((m) => m.deletedAt === null && canSeeEnvironment(actor, m.environment)).map((m) => m.id),
    );
    ids.forEach((id, i) => {
      if (!usable.has(id)) {
        details.push({ field: `monitor_ids[${i}]`, issue: `monitor ${id} does not exist in this organization` });
      }
    });
  }
}

function atMostThreeDecimals(v: number): boolean {
  return Math.abs(v * 1000 - Math.round(v * 1000)) < 1e-6;
}

function onlyHidden(t: SlaTarget, hidden: ReadonlySet<string>): boolean {
  return t.monitorIds.length > 0 && t.monitorIds.every((m) => hidden.has(m));
}

function withoutHidden(t: SlaTarget, hidden: ReadonlySet<string>): SlaTarget {
  return hidden.size === 0 ? t : { ...t, monitorIds: t.monitorIds.filter((m) => !hidden.has(m)) };
}
