import { toIso } from '../../platform/clock.ts';
import { canSeeEnvironment, type ServiceContext } from '../auth/index.ts';
import type { CustomReport, CustomReportWidget, WidgetKind } from './custom-report.types.ts';
import { MonitorTimelineRepository } from './monitor-timeline.repository.ts';
import { resolvePeriod, type ReportInput, type ResolvedPeriod } from './report.request.ts';
import type { ReportPeriod, SlaReport } from './report.types.ts';
import type { BuiltFiles, JsonSerializerSpec } from './report.kinds.ts';
import { slaSummary } from './sla.evaluation.ts';

/** A report of one kind as its own endpoint answers it in JSON (`report`, `period`, `generated_at`, …). */
export type KindReport = { report: string; period: ReportPeriod; generated_at: string } & Record<string, unknown>;

/** A rendered file: what the API sends, a mail attaches or a link serves. */
export interface RenderedFile {
  contentType: string;
  filename: string;
  body: Buffer;
}

/** A section that has a report, as the renderer draws it. */
export interface RenderableSection {
  title: string;
  kind: WidgetKind;
  report: KindReport;
}

/** What a custom report needs of the report renderer (report.render.ts's ReportRenderer, adapted in the module). */
export interface CustomReportRenderer {
  /** The kind's JSON report, as its own endpoint answers it. */
  build(ctx: ServiceContext, kind: WidgetKind, input: ReportInput): Promise<KindReport>;
  /** Several reports as one CSV (a leading `section` column) or one PDF (a section each). */
  renderSections(
    ctx: ServiceContext,
    doc: { title: string; period: ReportPeriod; generatedAt: string; sections: RenderableSection[] },
    format: 'csv' | 'pdf',
  ): Promise<RenderedFile>;
  /** The report's document built once (where report files are made) and encoded in each of `formats`. */
  files(
    ctx: ServiceContext,
    id: string,
    formats: readonly ('json' | 'csv' | 'pdf')[],
    json?: () => JsonSerializerSpec,
  ): Promise<BuiltFiles>;
}

export interface CustomReportSection {
  title: string;
  kind: WidgetKind;
  /** That kind's JSON report over the widget's monitors and tags; null when none of its monitors can be shown. */
  report: KindReport | null;
  /** Why `report` is null. */
  notice: string | null;
}

export interface CustomReportDocument {
  report: 'custom';
  id: string;
  name: string;
  period: ReportPeriod;
  generated_at: string;
  sections: CustomReportSection[];
}

/**
 * Renders every widget of the report over the report's period (resolved once, so every section covers the same
 * instants), as the viewer `ctx.actor` may see it: a widget's monitors of environments the key cannot see, and those
 * deleted before the period began, are left out; a widget that named monitors and has none left says so instead
 * of widening to every monitor.
 */
export async function customReportDocument(
  ctx: ServiceContext,
  report: CustomReport,
  renderer: CustomReportRenderer,
): Promise<CustomReportDocument> {
  const now = ctx.clock.now();
  const period = resolvePeriod(
    typeof report.period === 'string'
      ? { period: report.period, timezone: report.timezone }
      : { from: report.period.from, to: report.period.to, timezone: report.timezone },
    now,
  );
  const shown = await shownMonitorIds(ctx, report.widgets, period);
  const sections: CustomReportSection[] = [];
  for (const w of report.widgets) {
    const named = w.monitor_ids ?? [];
    const ids = named.filter((id) => shown.has(id));
    if (named.length > 0 && ids.length === 0) {
      sections.push({
        title: w.title,
        kind: w.kind,
        report: null,
        notice:
          'None of this widget’s monitors can be shown: deleted before the period, or outside the key’s environments.',
      });
      continue;
    }
    const input: ReportInput = {
      from: toIso(period.from),
      to: toIso(period.to),
      timezone: period.timezone,
      ...(ids.length > 0 && { monitorIds: ids }),
      ...(w.tags !== undefined && w.tags.length > 0 && { tags: w.tags }),
    };
    let section = await renderer.build(ctx, w.kind, input);
    const targetIds = w.options?.sla_target_ids;
    if (w.kind === 'sla' && targetIds !== undefined && targetIds.length > 0) {
      section = onlyTargets(section as unknown as SlaReport, new Set(targetIds)) as unknown as KindReport;
    }
    // The section covers the report's period; its own `period` says so with the preset the report was asked for.
    sections.push({
      title: w.title,
      kind: w.kind,
      report: { ...section, period: { ...section.period, preset: period.preset } },
      notice: null,
    });
  }
  return {
    report: 'custom',
    id: report.id,
    name: report.name,
    period: { from: toIso(period.from), to: toIso(period.to), timezone: period.timezone, preset: period.preset },
    generated_at: toIso(now),
    sections,
  };
}

/** Of the widgets' monitors, those the viewer may see that still existed when the period began. */
async function shownMonitorIds(
  ctx: ServiceContext,
  widgets: readonly CustomReportWidget[],
  period: ResolvedPeriod,
): Promise<Set<string>> {
  const ids = [...new Set(widgets.flatMap((w) => w.monitor_ids ?? []))];
  if (ids.length === 0) return new Set();
  const found = await new MonitorTimelineRepository(ctx.db).monitorsByIds(ctx.actor.organizationId, ids);
  return new Set(
    found
      .filter((m) => canSeeEnvironment(ctx.actor, m.environment))
      .filter((m) => m.deletedAt === null || m.deletedAt > period.from)
      .map((m) => m.id),
  );
}

/** The SLA report narrowed to the widget's targets, its summary counted again over them. */
function onlyTargets(r: SlaReport, ids: ReadonlySet<string>): SlaReport {
  const targets = r.targets.filter((t) => ids.has(t.sla_target_id));
  return {
    ...r,
    summary: slaSummary(targets),
    targets,
  };
}
