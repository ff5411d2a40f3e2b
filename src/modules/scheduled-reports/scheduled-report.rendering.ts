import { DomainError } from '../../platform/errors.ts';
import type { ServiceContext } from '../auth/index.ts';
import type { RunPeriod } from './scheduled-report.period.ts';
import type { RenderedReport, RenderedRun, ReportRendering } from './scheduled-report.ports.ts';
import type { FileKind, ScheduledReportType } from './scheduled-report.types.ts';

/** One build of a report in several files, as the reports module answers it (BuiltFiles). */
interface BuiltLike {
  files: Partial<Record<FileKind, RenderedReport>>;
  period: { from: string; to: string; timezone: string };
  summary: Record<string, unknown>;
}

/** The reports module's ReportRenderer as this module uses it. */
export interface ReportRendererLike {
  files(
    ctx: ServiceContext,
    kind: Exclude<ScheduledReportType, 'custom'>,
    input: { from: string; to: string; timezone: string },
    formats: readonly FileKind[],
  ): Promise<BuiltLike>;
}

/** Custom reports as this module uses them: read one (visibility applies) and build it over its own period. */
export interface CustomReportsLike {
  get(ctx: ServiceContext, id: string): Promise<unknown>;
  files(ctx: ServiceContext, id: string, formats: readonly FileKind[]): Promise<BuiltLike>;
  /** Which of the ids are existing reports the actor may not see. */
  hiddenFrom(ctx: ServiceContext, ids: readonly string[]): Promise<Set<string>>;
}

function runOf(built: BuiltLike, kinds: readonly FileKind[]): RenderedRun {
  const files = {} as Record<FileKind, RenderedReport>;
  for (const kind of kinds) {
    const file = built.files[kind];
    if (!file) throw new Error(`the report came back without its ${kind} file`);
    files[kind] = file;
  }
  const period = {
    from: Date.parse(built.period.from),
    to: Date.parse(built.period.to),
    timezone: built.period.timezone,
  };
  return { files, period, summary: built.summary };
}

/** ReportRendering over the reports module's renderer and custom reports (null until custom reports exist). */
export function reportRendering(
  renderer: ReportRendererLike,
  customReports: CustomReportsLike | null,
): ReportRendering {
  const notFound = (err: unknown) => err instanceof DomainError && err.code === 'not_found';
  return {
    async render(ctx, type, period: RunPeriod, kinds) {
      const input = {
        from: new Date(period.from).toISOString(),
        to: new Date(period.to).toISOString(),
        timezone: period.timezone,
      };
      // The run's period is the schedule's (the report states the same instants).
      return { ...runOf(await renderer.files(ctx, type, input, kinds), kinds), period };
    },
    async renderCustom(ctx, id, kinds) {
      if (!customReports) return null;
      try {
        return runOf(await customReports.files(ctx, id, kinds), kinds);
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
