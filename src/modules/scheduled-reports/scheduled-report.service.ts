import { resourceChange, type AuditChange } from '../audit/index.ts';
import { Temporal } from 'temporal-polyfill';
import { decodeIdCursor, pageOf } from '../../platform/cursor.ts';
import { notFound, validationFailed, type ErrorDetail } from '../../platform/errors.ts';
import { isId, newId } from '../../platform/ids.ts';
import type { ServiceContext } from '../auth/index.ts';
import type { ReportDestinations, ReportPlans, ReportRendering, RunDelivery } from './scheduled-report.ports.ts';
import { FREQUENCIES, nextRunAt, parseTimeOfDay, type Frequency } from './scheduled-report.schedule.ts';
import {
  REPORT_TYPES,
  type ScheduledReport,
  type ScheduledReportRun,
  type ScheduledReportType,
} from './scheduled-report.types.ts';
import { ScheduledReportsRepository } from './scheduled-reports.repository.ts';

/** A create body as the route schema admits it (types, ranges and the HH:MM pattern are checked there). */
export interface ScheduledReportInput {
  report_type: ScheduledReportType;
  custom_report_id?: string | null;
  frequency: Frequency;
  day_of_week?: number | null;
  day_of_month?: number | null;
  time_of_day: string;
  timezone: string;
  destination_ids: string[];
  enabled?: boolean;
}

/** One run as GET /{id}/runs shows it. */
export interface ScheduledReportRunView {
  run: ScheduledReportRun;
  deliveries: RunDelivery[];
  /** Destinations the run was addressed to that no longer existed when it was sent (counted as not delivered). */
  missingDestinations: number;
}

/** A PATCH body: any subset; null clears day_of_week, day_of_month or custom_report_id. */
export type ScheduledReportPatch = Partial<ScheduledReportInput>;

/** Destination types a report never goes to: pagers and incident tools are for alerts (DECISIONS §12). */
export const REFUSED_DESTINATION_TYPES: ReadonlySet<string> = new Set([
  'oncall_pager1',
  'oncall_pager2',
  'incident_tool1',
  'incident_tool2',
]);

export interface ScheduledReportsServiceDeps {
  plans: ReportPlans;
  destinations: ReportDestinations;
  rendering: ReportRendering;
  /** Wakes this process's runner (a run was asked for, or a due time moved earlier). */
  wake: () => void;
}

const SCAN_LIMIT = 200;

/** An IANA zone name (Temporal also takes UTC offsets such as +02:00, which do not follow DST: refused). */
function isTimeZone(zone: string): boolean {
  if (!/^[A-Za-z]/.test(zone)) return false;
  try {
    Temporal.Now.zonedDateTimeISO(zone);
    return true;
  } catch {
    return false;
  }
}

/** Scheduled reports (DECISIONS §8, §12): CRUD, run-now and the validation rules a schema cannot say. */
export class ScheduledReportsService {
  private readonly deps: ScheduledReportsServiceDeps;
  constructor(deps: ScheduledReportsServiceDeps) {
    this.deps = deps;
  }

  async create(ctx: ServiceContext, input: ScheduledReportInput): Promise<ScheduledReport> {
    this.deps.plans.requireReports(ctx.actor.plan);
    const now = ctx.clock.now();
    const draft: ScheduledReport = {
      id: newId('srp', now),
      organizationId: ctx.actor.organizationId,
      reportType: input.report_type,
      customReportId: input.custom_report_id ?? null,
      frequency: input.frequency,
      dayOfWeek: input.day_of_week ?? null,
      dayOfMonth: input.day_of_month ?? null,
      timeOfDay: input.time_of_day,
      timezone: input.timezone,
      destinationIds: input.destination_ids,
      enabled: input.enabled ?? true,
      nextRunAt: 0,
      lastRunAt: null,
      lastStatus: 'never_run',
      runRequests: 0,
      createdByUserId: ctx.actor.userId,
      createdByKeyId: ctx.actor.keyId,
      environments: [...ctx.actor.environments],
      createdAt: now,
      updatedAt: now,
    };
    await this.validate(ctx, draft);
    draft.nextRunAt = nextRunAt(draft, now);
    await ctx.db.transaction(async (tx) => {
      await new ScheduledReportsRepository(tx).insert(draft);
      await ctx.audit?.record(tx, scheduledReportChange('scheduled_report.create', null, draft));
    });
    this.deps.wake();
    return draft;
  }

  async get(ctx: ServiceContext, id: string): Promise<ScheduledReport> {
    this.deps.plans.requireReports(ctx.actor.plan);
    return this.find(ctx, id);
  }

  async list(
    ctx: ServiceContext,
    page: { limit: number; cursor?: string },
  ): Promise<{ data: ScheduledReport[]; next_cursor: string | null }> {
    this.deps.plans.requireReports(ctx.actor.plan);
    const after = decodeIdCursor(page.cursor) ?? null;
    const rows = await new ScheduledReportsRepository(ctx.db).list(
      ctx.actor.organizationId,
      after,
      Math.min(page.limit, SCAN_LIMIT) + 1,
    );
    // Hidden ones are skipped: the cursor still moves past them (a page may then hold fewer than `limit`).
    const page1 = pageOf(rows, page.limit, (s) => s.id);
    const ofHiddenReports = await this.deps.rendering.customReportsHiddenFrom(
      ctx,
      page1.data.flatMap((s) => (s.customReportId === null ? [] : [s.customReportId])),
    );
    return {
      data: page1.data.filter(
        (s) => visibleTo(ctx, s) && (s.customReportId === null || !ofHiddenReports.has(s.customReportId)),
      ),
      next_cursor: page1.next_cursor,
    };
  }

  /**
   * Validates the merged record before the transaction, then writes it inside one on the row read again under a
   * lock, so a run finishing meanwhile keeps its last_run_at and last_status. next_run_at is recomputed from now when
   * the frequency, a day, the time, the zone change, or when a paused schedule is enabled again (a pause does not
   * leave a backlog to catch up).
   */
  async update(ctx: ServiceContext, id: string, patch: ScheduledReportPatch): Promise<ScheduledReport> {
    this.deps.plans.requireReports(ctx.actor.plan);
    const existing = await this.find(ctx, id);
    const merged = merge(existing, patch);
    // What the patch does not touch is not checked again: a destination or custom report deleted since does not block
    // pausing or moving the schedule (its run then counts that destination as not delivered).
    await this.validate(ctx, merged, {
      destinations: patch.destination_ids !== undefined,
      customReport: patch.custom_report_id !== undefined || patch.report_type !== undefined,
    });
    const now = ctx.clock.now();
    const updated = await ctx.db.transaction(async (tx) => {
      const repo = new ScheduledReportsRepository(tx);
      const current = await repo.findForUpdate(ctx.actor.organizationId, id);
      if (!current) throw notFound('Scheduled report');
      const next = merge(current, patch);
      // Another change may have committed since the checks above: the rules hold for what is written.
      const issues = ruleIssues(next);
      if (issues.length > 0) throw validationFailed(issues);
      next.updatedAt = now;
      const reschedule =
        next.frequency !== current.frequency ||
        next.dayOfWeek !== current.dayOfWeek ||
        next.dayOfMonth !== current.dayOfMonth ||
        next.timeOfDay !== current.timeOfDay ||
        next.timezone !== current.timezone ||
        (next.enabled && !current.enabled);
      if (reschedule) next.nextRunAt = nextRunAt(next, now);
      await repo.update(next);
      await ctx.audit?.record(tx, scheduledReportChange('scheduled_report.update', current, next));
      return next;
    });
    this.deps.wake();
    return updated;
  }

  async delete(ctx: ServiceContext, id: string): Promise<void> {
    this.deps.plans.requireReports(ctx.actor.plan);
    // Environments are fixed at creation: checking them before the transaction cannot race.
    const existing = await this.find(ctx, id);
    await ctx.db.transaction(async (tx) => {
      const ok = isId(id, 'srp') && (await new ScheduledReportsRepository(tx).delete(ctx.actor.organizationId, id));
      if (!ok) throw notFound('Scheduled report');
      await ctx.audit?.record(tx, scheduledReportChange('scheduled_report.delete', existing, null));
    });
  }

  /** POST /{id}/run: a run now, made by whichever process's runner takes it first; next_run_at stays. */
  async requestRun(ctx: ServiceContext, id: string): Promise<ScheduledReport> {
    this.deps.plans.requireReports(ctx.actor.plan);
    const existing = await this.find(ctx, id);
    await ctx.db.transaction(async (tx) => {
      const ok = isId(id, 'srp') && (await new ScheduledReportsRepository(tx).requestRun(ctx.actor.organizationId, id));
      if (!ok) throw notFound('Scheduled report');
      await ctx.audit?.record(tx, { ...scheduledReportChange('scheduled_report.run', existing, null), before: null });
    });
    this.deps.wake();
    return this.find(ctx, id);
  }

  /**
   * The latest runs, newest first, each with its deliveries. A run fanned out to fewer deliveries than it was
   * addressed to lost destinations deleted before it was sent: `missing_destinations` counts them (not delivered).
   */
  async runs(ctx: ServiceContext, id: string, limit: number): Promise<ScheduledReportRunView[]> {
    this.deps.plans.requireReports(ctx.actor.plan);
    const schedule = await this.find(ctx, id);
    const runs = await new ScheduledReportsRepository(ctx.db).recentRuns(schedule.id, limit);
    const out: ScheduledReportRunView[] = [];
    for (const run of runs) {
      const deliveries = await this.deps.destinations.deliveries(ctx.db, ctx.actor.organizationId, run.eventId);
      const { fannedOut } = await this.deps.destinations.outcome(ctx.db, run.eventId);
      out.push({
        run,
        deliveries,
        missingDestinations: fannedOut ? Math.max(0, run.destinationCount - deliveries.length) : 0,
      });
    }
    return out;
  }

  private async find(ctx: ServiceContext, id: string): Promise<ScheduledReport> {
    const found = isId(id, 'srp')
      ? await new ScheduledReportsRepository(ctx.db).find(ctx.actor.organizationId, id)
      : null;
    if (!found || !visibleTo(ctx, found)) throw notFound('Scheduled report');
    // The schedule of a custom report is seen by those who see the report (a private one: its owner alone).
    if (
      found.customReportId !== null &&
      (await this.deps.rendering.customReportsHiddenFrom(ctx, [found.customReportId])).size > 0
    )
      throw notFound('Scheduled report');
    return found;
  }

  /** DECISIONS §8 and §12: each frequency's days, the custom pairing, the zone, the destinations. */
  private async validate(
    ctx: ServiceContext,
    s: ScheduledReport,
    check: { destinations: boolean; customReport: boolean } = { destinations: true, customReport: true },
  ): Promise<void> {
    const details = [
      ...ruleIssues(s),
      ...(await this.lookupIssues(ctx, {
        reportType: s.reportType,
        customReportId: check.customReport ? s.customReportId : undefined,
        destinationIds: check.destinations ? s.destinationIds : undefined,
      })),
    ];
    if (details.length > 0) throw validationFailed(details);
  }

  /**
   * The problems of a body the route schema refused, beyond the schema's own: its fields of the right type meet the
   * rules and lookups a valid body meets (a PATCH's, on the record it would make), so one 422 names every problem.
   * Fields of the wrong type are left to the schema. Writes nothing.
   */
  async bodyIssues(ctx: ServiceContext, body: Record<string, unknown>, id?: string): Promise<ErrorDetail[]> {
    this.deps.plans.requireReports(ctx.actor.plan);
    const { typed, broken } = wellTyped(body);
    let fields: Partial<RuleFields> & { destinationIds?: string[] | undefined };
    if (id === undefined) {
      const optional = <T>(key: keyof ScheduledReportInput, value: T | undefined): T | null | undefined =>
        key in body ? value : null;
      fields = {
        reportType: typed.report_type,
        customReportId: optional('custom_report_id', typed.custom_report_id),
        frequency: typed.frequency,
        dayOfWeek: optional('day_of_week', typed.day_of_week),
        dayOfMonth: optional('day_of_month', typed.day_of_month),
        timeOfDay: typed.time_of_day,
        timezone: typed.timezone,
        destinationIds: typed.destination_ids,
      };
    } else {
      // A schedule the caller may not see (another environment's, a private custom report's) is the route's 404.
      const existing = await this.find(ctx, id).catch(() => null);
      if (!existing) return [];
      const merged: Partial<ScheduledReport> = merge(existing, typed);
      // A field sent with the wrong type is the schema's to name: it is not checked against the stored ones.
      for (const key of broken) delete merged[FIELD_OF[key]];
      fields = { ...merged, destinationIds: typed.destination_ids };
    }
    const details = ruleIssues(fields);
    // As in update: what the patch does not touch is not looked up again.
    const lookupCustom = id === undefined || 'custom_report_id' in typed || 'report_type' in typed;
    const lookups = await this.lookupIssues(ctx, {
      ...fields,
      customReportId: lookupCustom ? fields.customReportId : undefined,
    });
    return [...details, ...lookups.filter((d) => !details.some((o) => o.field === d.field))];
  }

  /** The checks that read the database: the custom report exists, each destination exists and may get reports. */
  private async lookupIssues(
    ctx: ServiceContext,
    s: {
      reportType?: ScheduledReportType | undefined;
      customReportId?: string | null | undefined;
      destinationIds?: string[] | undefined;
    },
  ): Promise<ErrorDetail[]> {
    const details: ErrorDetail[] = [];
    if (
      s.reportType === 'custom' &&
      typeof s.customReportId === 'string' &&
      !(await this.deps.rendering.customReportExists(ctx, s.customReportId))
    )
      details.push({
        field: 'custom_report_id',
        issue: `custom report ${s.customReportId} does not exist in this organization`,
      });
    if (s.destinationIds !== undefined) {
      const types = await this.deps.destinations.destinationTypes(ctx, s.destinationIds);
      s.destinationIds.forEach((id, i) => {
        const type = types.get(id);
        if (type === undefined)
          details.push({
            field: `destination_ids[${i}]`,
            issue: `destination ${id} does not exist in this organization`,
          });
        else if (REFUSED_DESTINATION_TYPES.has(type))
          details.push({
            field: `destination_ids[${i}]`,
            issue: `a ${type} destination cannot receive reports (pagers and incident tools are for alerts)`,
          });
      });
    }
    return details;
  }
}

type RuleFields = Pick<
  ScheduledReport,
  'reportType' | 'customReportId' | 'frequency' | 'dayOfWeek' | 'dayOfMonth' | 'timeOfDay' | 'timezone'
>;

/** Body field → record field, for the fields a PATCH may send with the wrong type. */
const FIELD_OF = {
  report_type: 'reportType',
  custom_report_id: 'customReportId',
  frequency: 'frequency',
  day_of_week: 'dayOfWeek',
  day_of_month: 'dayOfMonth',
  time_of_day: 'timeOfDay',
  timezone: 'timezone',
  destination_ids: 'destinationIds',
  enabled: 'enabled',
} as const satisfies Record<keyof ScheduledReportInput, keyof ScheduledReport>;

const isDayNumber = (v: unknown): v is number | null => v === null || (typeof v === 'number' && Number.isInteger(v));
const isIdList = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((x) => typeof x === 'string' && isId(x, 'dst'));

/** The fields of a raw body that have the type a valid body has, and the names of those that do not. */
function wellTyped(body: Record<string, unknown>): {
  typed: ScheduledReportPatch;
  broken: Array<keyof ScheduledReportInput>;
} {
  const typed: ScheduledReportPatch = {};
  const broken: Array<keyof ScheduledReportInput> = [];
  const take = <K extends keyof ScheduledReportInput>(key: K, ok: (v: unknown) => boolean) => {
    if (!(key in body)) return;
    if (ok(body[key])) typed[key] = body[key] as ScheduledReportInput[K];
    else broken.push(key);
  };
  take('report_type', (v) => (REPORT_TYPES as readonly unknown[]).includes(v));
  take('custom_report_id', (v) => v === null || (typeof v === 'string' && isId(v, 'crp')));
  take('frequency', (v) => (FREQUENCIES as readonly unknown[]).includes(v));
  take('day_of_week', isDayNumber);
  take('day_of_month', isDayNumber);
  take('time_of_day', (v) => typeof v === 'string');
  take('timezone', (v) => typeof v === 'string');
  take('destination_ids', isIdList);
  take('enabled', (v) => typeof v === 'boolean');
  return { typed, broken };
}

/**
 * The rules that need no lookup: each frequency's days, their ranges, the time, the zone, the custom pairing. A field
 * left undefined is not checked (a refused body's field of the wrong type); null is a day or custom report not given.
 */
function ruleIssues(s: { [K in keyof RuleFields]?: RuleFields[K] | undefined }): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const needs = (field: string, value: number | null | undefined, usedBy: readonly Frequency[], what: string) => {
    if (s.frequency === undefined || value === undefined) return;
    const wanted = usedBy.includes(s.frequency);
    if (wanted && value === null) details.push({ field, issue: `is required with frequency ${s.frequency} (${what})` });
    if (!wanted && value !== null)
      details.push({ field, issue: `is not used with frequency ${s.frequency}; leave it out` });
  };
  needs('day_of_week', s.dayOfWeek, ['weekly'], '0 = Sunday … 6 = Saturday');
  needs('day_of_month', s.dayOfMonth, ['monthly', 'quarterly'], '1 to 28');
  if (typeof s.dayOfWeek === 'number' && (!Number.isInteger(s.dayOfWeek) || s.dayOfWeek < 0 || s.dayOfWeek > 6))
    details.push({ field: 'day_of_week', issue: 'must be an integer from 0 (Sunday) to 6 (Saturday)' });
  if (typeof s.dayOfMonth === 'number' && (!Number.isInteger(s.dayOfMonth) || s.dayOfMonth < 1 || s.dayOfMonth > 28))
    details.push({ field: 'day_of_month', issue: 'must be an integer from 1 to 28' });
  if (s.timeOfDay !== undefined && !parseTimeOfDay(s.timeOfDay))
    details.push({ field: 'time_of_day', issue: 'must be a local time HH:MM from 00:00 to 23:59' });
  if (s.timezone !== undefined && !isTimeZone(s.timezone))
    details.push({ field: 'timezone', issue: 'must be an IANA time zone such as Europe/Berlin' });
  if (s.reportType === 'custom' && s.customReportId === null)
    details.push({ field: 'custom_report_id', issue: 'is required with report_type custom' });
  if (s.reportType !== undefined && s.reportType !== 'custom' && typeof s.customReportId === 'string')
    details.push({ field: 'custom_report_id', issue: 'is only used with report_type custom; leave it out' });
  return details;
}

/**
 * A run reports on the monitors of the environments of the key that created the schedule: a key sees (and may change
 * or run) only schedules whose environments are all among its own, as it sees only those monitors in reports.
 */
function visibleTo(ctx: ServiceContext, s: ScheduledReport): boolean {
  return s.environments.every((e) => ctx.actor.environments.includes(e));
}

/**
 * The record with the patch applied. A day that the new frequency does not use is dropped when the patch changes
 * the frequency without naming the day; a day the patch names explicitly is validated as given.
 */
function merge(current: ScheduledReport, patch: ScheduledReportPatch): ScheduledReport {
  const frequency = patch.frequency ?? current.frequency;
  const changedFrequency = frequency !== current.frequency;
  const keepDay = (value: number | null, usedBy: readonly Frequency[]) =>
    changedFrequency && !usedBy.includes(frequency) ? null : value;
  const reportType = patch.report_type ?? current.reportType;
  return {
    ...current,
    reportType,
    customReportId:
      patch.custom_report_id !== undefined
        ? patch.custom_report_id
        : reportType === 'custom'
          ? current.customReportId
          : null,
    frequency,
    dayOfWeek: patch.day_of_week !== undefined ? patch.day_of_week : keepDay(current.dayOfWeek, ['weekly']),
    dayOfMonth:
      patch.day_of_month !== undefined ? patch.day_of_month : keepDay(current.dayOfMonth, ['monthly', 'quarterly']),
    timeOfDay: patch.time_of_day ?? current.timeOfDay,
    timezone: patch.timezone ?? current.timezone,
    destinationIds: patch.destination_ids ?? current.destinationIds,
    enabled: patch.enabled ?? current.enabled,
  };
}

/** The audit entry of a scheduled report's change; run times are the runner's bookkeeping. */
function scheduledReportChange(
  action: string,
  before: ScheduledReport | null,
  after: ScheduledReport | null,
): AuditChange {
  return resourceChange(action, 'scheduled_report', before, after, {
    omit: ['nextRunAt', 'lastRunAt', 'createdAt'],
  });
}
