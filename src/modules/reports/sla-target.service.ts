import { decodeIdCursor, pageOf } from '../../platform/cursor.ts';
import { notFound, validationFailed, type ErrorDetail } from '../../platform/errors.ts';
import { isId, newId } from '../../platform/ids.ts';
import { canSeeEnvironment, type Actor, type ServiceContext } from '../auth/index.ts';
import type { Page } from '../monitors/index.ts';
import { MonitorTimelineRepository } from './monitor-timeline.repository.ts';
import { SLA_PERIODS, type SlaPeriod } from './report.period.ts';
import { SlaTargetsRepository, type SlaTarget } from './sla-targets.repository.ts';

const FIELDS = ['name', 'monitor_ids', 'target_percent', 'period'];
export const SLA_NAME_MAX = 200;
export const SLA_MONITORS_MAX = 100;
const SCAN_BATCH = 200;

interface SlaFields {
  name?: string;
  monitorIds?: string[];
  targetPercent?: number;
  period?: SlaPeriod;
}

/** SLA targets (DECISIONS §8): a set of monitors, an availability percentage and a calendar period. */
export class SlaTargetsService {
  async create(ctx: ServiceContext, body: unknown): Promise<SlaTarget> {
    const input = objectBody(body);
    const details: ErrorDetail[] = [];
    for (const f of FIELDS) if (input[f] === undefined) details.push({ field: f, issue: 'is required' });
    const fields = await this.validated(ctx, input, details);
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
    await ctx.db.transaction((tx) => new SlaTargetsRepository(tx).insert(target));
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

  async update(ctx: ServiceContext, id: string, body: unknown): Promise<SlaTarget> {
    const { target: existing, hidden } = await this.findVisible(ctx, id);
    const fields = await this.validated(ctx, objectBody(body), []);
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
    await ctx.db.transaction((tx) => new SlaTargetsRepository(tx).update(updated));
    return withoutHidden(updated, hidden);
  }

  async delete(ctx: ServiceContext, id: string): Promise<void> {
    await this.findVisible(ctx, id);
    await ctx.db.transaction(async (tx) => {
      if (!(await new SlaTargetsRepository(tx).delete(ctx.actor.organizationId, id))) throw notFound('SLA target');
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

  private async validated(
    ctx: ServiceContext,
    input: Record<string, unknown>,
    details: ErrorDetail[],
  ): Promise<SlaFields> {
    const out: SlaFields = {};
    for (const key of Object.keys(input)) {
      if (!FIELDS.includes(key)) details.push({ field: key, issue: 'is not a known field of SLA targets' });
    }
    if (input.name !== undefined) {
      const name = typeof input.name === 'string' ? input.name.trim() : '';
      if (name.length === 0 || name.length > SLA_NAME_MAX) {
        details.push({ field: 'name', issue: `must be a non-empty string of at most ${SLA_NAME_MAX} characters` });
      } else out.name = name;
    }
    if (input.target_percent !== undefined) {
      const v = input.target_percent;
      if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0 || v >= 100 || !atMostThreeDecimals(v)) {
        details.push({
          field: 'target_percent',
          issue: 'must be a number strictly between 0 and 100 with at most 3 decimals (e.g. 99.95)',
        });
      } else out.targetPercent = v;
    }
    if (input.period !== undefined) {
      if (typeof input.period !== 'string' || !(SLA_PERIODS as readonly string[]).includes(input.period)) {
        details.push({ field: 'period', issue: `must be one of ${SLA_PERIODS.join(', ')}` });
      } else out.period = input.period as SlaPeriod;
    }
    if (input.monitor_ids !== undefined) {
      out.monitorIds = await this.validMonitorIds(ctx.actor, ctx, input.monitor_ids, details);
    }
    if (details.length > 0) throw validationFailed(details);
    return out;
  }

  private async validMonitorIds(
    actor: Actor,
    ctx: ServiceContext,
    ids: unknown,
    details: ErrorDetail[],
  ): Promise<string[] | undefined> {
    if (!Array.isArray(ids) || ids.length === 0 || ids.length > SLA_MONITORS_MAX) {
      details.push({ field: 'monitor_ids', issue: `must be an array of 1 to ${SLA_MONITORS_MAX} monitor ids` });
      return undefined;
    }
    const strings = ids.filter((v): v is string => typeof v === 'string');
    const found = await new MonitorTimelineRepository(ctx.db).monitorsByIds(actor.organizationId, strings);
    const usable = new Set(
      found.filter((m) => m.deletedAt === null && canSeeEnvironment(actor, m.environment)).map((m) => m.id),
    );
    const seen = new Set<string>();
    ids.forEach((id: unknown, i) => {
      const field = `monitor_ids[${i}]`;
      if (typeof id !== 'string') details.push({ field, issue: 'must be a monitor id' });
      else if (seen.has(id)) details.push({ field, issue: `monitor ${id} is listed twice` });
      else if (!usable.has(id)) details.push({ field, issue: `monitor ${id} does not exist in this organization` });
      if (typeof id === 'string') seen.add(id);
    });
    return strings;
  }
}

function atMostThreeDecimals(v: number): boolean {
  return Math.abs(v * 1000 - Math.round(v * 1000)) < 1e-6;
}

function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) return body as Record<string, unknown>;
  throw validationFailed([{ field: 'body', issue: 'must be a JSON object' }]);
}

function onlyHidden(t: SlaTarget, hidden: ReadonlySet<string>): boolean {
  return t.monitorIds.length > 0 && t.monitorIds.every((m) => hidden.has(m));
}

function withoutHidden(t: SlaTarget, hidden: ReadonlySet<string>): SlaTarget {
  return hidden.size === 0 ? t : { ...t, monitorIds: t.monitorIds.filter((m) => !hidden.has(m)) };
}
