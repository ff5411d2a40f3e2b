import { DomainError } from '../../platform/errors.ts';
import type { ServiceContext } from '../auth/index.ts';
import type { RunPeriod } from './scheduled-report.period.ts';
import type { RenderedReport, ReportRendering } from './scheduled-report.ports.ts';
import type { FileKind, ScheduledReportType } from './scheduled-report.types.ts';

/** The reports module's ReportRenderer as this module uses it. */
export interface ReportRendererLike {
  render(
    ctx: ServiceContext,
    kind: Exclude<ScheduledReportType, 'custom'>,
    input: { from: string; to: string; timezone: string },
    format: FileKind,
  ): Promise<RenderedReport>;
}

/** Custom reports as this module uses them: read one (visibility applies) and render it over its own period. */
export interface CustomReportsLike {
  get(ctx: ServiceContext, id: string): Promise<unknown>;
  render(ctx: ServiceContext, id: string, format: FileKind): Promise<RenderedReport>;
  /** Which of the ids are existing reports the actor may not see. */
  hiddenFrom(ctx: ServiceContext, ids: readonly string[]): Promise<Set<string>>;
}

/** ReportRendering over the reports module's renderer and custom reports (null until custom reports exist). */
export function reportRendering(
  renderer: ReportRendererLike,
  customReports: CustomReportsLike | null,
): ReportRendering {
  const notFound = (err: unknown) => err instanceof DomainError && err.code === 'not_found';
  return {
    render: (ctx, type, period: RunPeriod, format) =>
      renderer.render(
        ctx,
        type,
        { from: new Date(period.from).toISOString(), to: new Date(period.to).toISOString(), timezone: period.timezone },
        format,
      ),
    async renderCustom(ctx, id, format) {
      if (!customReports) return null;
      try {
        return await customReports.render(ctx, id, format);
      } catch (err) {
        if (notFound(err)) return null;
        throw err;
      }
    },
    customReportsHiddenFrom: async (ctx, ids) => (customReports ? customReports.hiddenFrom(ctx, ids) : new Set()),
    async customReportExists(ctx, id) {
      if (!customReports) return false;
      try {
        await customReports.get(ctx, id);
        return true;
      } catch (err) {
        if (notFound(err)) return false;
        throw err;
      }
    },
  };
}
