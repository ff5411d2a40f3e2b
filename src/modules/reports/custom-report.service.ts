import { resourceChange } from '../audit/index.ts';
import { decodeIdCursor, pageOf } from '../../platform/cursor.ts';
import { DomainError, notFound } from '../../platform/errors.ts';
import { isId, newId } from '../../platform/ids.ts';
import { canSeeEnvironment, type ServiceContext } from '../auth/index.ts';
import type { Page } from '../monitors/index.ts';
import type { Plans } from '../orgs/index.ts';
import { canChange, canSee, ownerIdOf } from './custom-report.access.ts';
import type { CustomReport, CustomReportInput, CustomReportPatch } from './custom-report.types.ts';
import {
  customReportDocument,
  type CustomReportDocument,
  type CustomReportRenderer,
  type RenderableSection,
  type RenderedFile,
} from './custom-report.document.ts';
import { CustomReportsRepository } from './custom-reports.repository.ts';
import { checkConsistent, checkPeriod, validatedFields, type CustomReportMembers } from './custom-report.validation.ts';
import { MonitorTimelineRepository } from './monitor-timeline.repository.ts';
import type { BuiltFiles, JsonSerializerSpec } from './report.kinds.ts';
import type { SlaTargetsService } from './sla-target.service.ts';

export interface CustomReportsServiceDeps {
  plans: Plans;
  members: CustomReportMembers;
  slaTargets: SlaTargetsService;
  /** Each widget kind's JSON report, and sections as one CSV or PDF. */
  renderer: CustomReportRenderer;
}

/**
 * Custom reports (DECISIONS §8): named pages of widgets over a period, seen by whom their visibility allows. A
 * report the actor may not see is `not_found` on every verb; one it sees but may not change is `forbidden`.
 */
export class CustomReportsService {
  private readonly deps: CustomReportsServiceDeps;
  constructor(deps: CustomReportsServiceDeps) {
    this.deps = deps;
  }

  async create(ctx: ServiceContext, input: CustomReportInput): Promise<CustomReport> {
    this.deps.plans.requireReports(ctx.actor.plan);
    const fields = await validatedFields(ctx, input, this.deps);
    const now = ctx.clock.now();
    const report: CustomReport = {
      id: newId('crp', now),
      organizationId: ctx.actor.organizationId,
      ownerId: ownerIdOf(ctx.actor),
      name: fields.name!,
      period: fields.period!,
      timezone: fields.timezone ?? 'UTC',
      widgets: fields.widgets!,
      visibility: fields.visibility ?? (ctx.actor.userId === null ? 'organization' : 'private'),
      sharedWithUserIds: fields.sharedWithUserIds ?? [],
      createdAt: now,
      updatedAt: now,
    };
    checkConsistent(ctx, report);
    await ctx.db.transaction(async (tx) => {
      await new CustomReportsRepository(tx).insert(report);
      await ctx.audit?.record(tx, resourceChange('custom_report.create', 'custom_report', null, report));
    });
    return report;
  }

  /** The report as the actor may see it (monitors of environments its key cannot see left out of the widgets). */
  async get(ctx: ServiceContext, id: string): Promise<CustomReport> {
    this.deps.plans.requireReports(ctx.actor.plan);
    const report = await this.findVisible(ctx, id);
    return (await this.forViewer(ctx, [report]))[0]!;
  }

  /** The reports the actor sees, oldest first. */
  async list(ctx: ServiceContext, page: { limit: number; cursor?: string }): Promise<Page<CustomReport>> {
    this.deps.plans.requireReports(ctx.actor.plan);
    const rows = await new CustomReportsRepository(ctx.db).listVisible(
      ctx.actor.organizationId,
      { userId: ctx.actor.userId },
      decodeIdCursor(page.cursor),
      page.limit + 1,
    );
    const out = pageOf(rows, page.limit, (r) => r.id);
    return { data: await this.forViewer(ctx, out.data), next_cursor: out.next_cursor };
  }

  async update(ctx: ServiceContext, id: string, patch: CustomReportPatch): Promise<CustomReport> {
    this.deps.plans.requireReports(ctx.actor.plan);
    this.mayChange(ctx, await this.findVisible(ctx, id));
    const fields = await validatedFields(ctx, patch, this.deps);
    const updated = await ctx.db.transaction(async (tx) => {
      // Merged with the row as it is now, under its lock: a change committed meanwhile is kept.
      const repo = new CustomReportsRepository(tx);
      const current = await repo.findForUpdate(ctx.actor.organizationId, id);
      if (!current || !canSee(ctx.actor, current)) throw notFound('Custom report');
      this.mayChange(ctx, current);
      const visibility = fields.visibility ?? current.visibility;
      const next: CustomReport = {
        ...current,
        name: fields.name ?? current.name,
        period: fields.period ?? current.period,
        timezone: fields.timezone ?? current.timezone,
        widgets: fields.widgets ?? current.widgets,
        visibility,
        // Leaving `shared` ends the sharing unless the same request gives a list (which is then refused).
        sharedWithUserIds: fields.sharedWithUserIds ?? (visibility === 'shared' ? current.sharedWithUserIds : []),
        updatedAt: ctx.clock.now(),
      };
      checkConsistent(ctx, next);
      if (fields.period !== undefined || fields.timezone !== undefined) checkPeriod(next.period, next.timezone);
      await repo.update(next);
      await ctx.audit?.record(tx, resourceChange('custom_report.update', 'custom_report', current, next));
      return next;
    });
    return (await this.forViewer(ctx, [updated]))[0]!;
  }

  async delete(ctx: ServiceContext, id: string): Promise<void> {
    this.deps.plans.requireReports(ctx.actor.plan);
    await ctx.db.transaction(async (tx) => {
      const repo = new CustomReportsRepository(tx);
      const current = isId(id, 'crp') ? await repo.findForUpdate(ctx.actor.organizationId, id) : null;
      if (!current || !canSee(ctx.actor, current)) throw notFound('Custom report');
      this.mayChange(ctx, current);
      await repo.delete(ctx.actor.organizationId, id);
      await ctx.audit?.record(tx, resourceChange('custom_report.delete', 'custom_report', current, null));
    });
  }

  /** Every widget's report over the report's own period, as the actor may see them. */
  async document(ctx: ServiceContext, id: string): Promise<CustomReportDocument> {
    this.deps.plans.requireReports(ctx.actor.plan);
    return customReportDocument(ctx, await this.findVisible(ctx, id), this.deps.renderer);
  }

  /**
   * The report over its own period as a file: the JSON document, or its sections as one CSV (a leading `section`
   * column: the widget's title) or one PDF (a section per widget). Made where every report file is (a report worker
   * thread, with its time limit): `files` with one format.
   */
  async render(ctx: ServiceContext, id: string, format: 'json' | 'csv' | 'pdf'): Promise<RenderedFile> {
    return (await this.files(ctx, id, [format])).files[format]!;
  }

  /**
   * The report's document built once and encoded in each of `formats` (a scheduled run wants all three), where every
   * report file is made; JSON with `json`'s schema when given (the route's serializer).
   */
  files(
    ctx: ServiceContext,
    id: string,
    formats: readonly ('json' | 'csv' | 'pdf')[],
    json?: () => JsonSerializerSpec,
  ): Promise<BuiltFiles> {
    return this.deps.renderer.files(ctx, id, formats, json);
  }

  /**
   * A built document's sections as one CSV or one PDF (the job's encoder, on the thread that built it). Sections
   * without a report (none of their monitors can be shown to this actor) have no rows and no pages.
   */
  encode(ctx: ServiceContext, doc: CustomReportDocument, format: 'csv' | 'pdf'): Promise<RenderedFile> {
    const sections = doc.sections.flatMap((s): RenderableSection[] =>
      s.report === null ? [] : [{ title: s.title, kind: s.kind, report: s.report }],
    );
    return this.deps.renderer.renderSections(
      ctx,
      { title: doc.name, period: doc.period, generatedAt: doc.generated_at, sections },
      format,
    );
  }

  /** The stored report if the actor may see it (nothing left out), else not_found. */
  async findVisible(ctx: ServiceContext, id: string): Promise<CustomReport> {
    const report = isId(id, 'crp')
      ? await new CustomReportsRepository(ctx.db).find(ctx.actor.organizationId, id)
      : null;
    if (!report || !canSee(ctx.actor, report)) throw notFound('Custom report');
    return report;
  }

  /**
   * Which of `ids` are reports of the organization that the actor may not see: what is made of them (a scheduled
   * report's runs) belongs to those who see them. A report that no longer exists is not among them.
   */
  async hiddenFrom(ctx: ServiceContext, ids: readonly string[]): Promise<Set<string>> {
    const repository = new CustomReportsRepository(ctx.db);
    const hidden = new Set<string>();
    for (const id of new Set(ids)) {
      const report = isId(id, 'crp') ? await repository.find(ctx.actor.organizationId, id) : null;
      if (report && !canSee(ctx.actor, report)) hidden.add(id);
    }
    return hidden;
  }

  private mayChange(ctx: ServiceContext, report: CustomReport): void {
    if (!canChange(ctx.actor, report)) {
      throw new DomainError(
        'forbidden',
        'Only the report’s owner or an owner or admin of the organization may change or delete it.',
      );
    }
  }

  /** The widgets without monitors of environments the actor's key cannot see. */
  private async forViewer(ctx: ServiceContext, reports: CustomReport[]): Promise<CustomReport[]> {
    const ids = [...new Set(reports.flatMap((r) => r.widgets.flatMap((w) => w.monitor_ids ?? [])))];
    if (ids.length === 0) return reports;
    const found = await new MonitorTimelineRepository(ctx.db).monitorsByIds(ctx.actor.organizationId, ids);
    const hidden = new Set(found.filter((m) => !canSeeEnvironment(ctx.actor, m.environment)).map((m) => m.id));
    if (hidden.size === 0) return reports;
    return reports.map((r) => ({
      ...r,
      widgets: r.widgets.map((w) =>
        w.monitor_ids === undefined ? w : { ...w, monitor_ids: w.monitor_ids.filter((m) => !hidden.has(m)) },
      ),
    }));
  }
}
