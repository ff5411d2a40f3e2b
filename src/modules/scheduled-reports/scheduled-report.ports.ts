import type { Database } from '../../platform/db/index.ts';
import type { PlanName } from '../../config/index.ts';
import type { ServiceContext } from '../auth/index.ts';
import type { RunPeriod } from './scheduled-report.period.ts';
import type { FileKind, ScheduledReportType } from './scheduled-report.types.ts';

/** One rendered report file (the reports module's renderer answers in this shape). */
export interface RenderedReport {
  contentType: string;
  filename: string;
  body: Buffer;
}

/** A run's report built once and encoded in every file kind, with its period and headline figures. */
export interface RenderedRun {
  files: Record<FileKind, RenderedReport>;
  period: RunPeriod;
  summary: Record<string, unknown>;
}

/**
 * Renders the reports a schedule delivers (the reports module's ReportRenderer and custom reports, wired in main):
 * each run's report is built once, off the main thread, and encoded in every kind of file from that one build.
 */
export interface ReportRendering {
  render(
    ctx: ServiceContext,
    type: Exclude<ScheduledReportType, 'custom'>,
    period: RunPeriod,
    kinds: readonly FileKind[],
  ): Promise<RenderedRun>;
  /** A custom report over its own period; null when it does not exist or the actor cannot see it. */
  renderCustom(ctx: ServiceContext, customReportId: string, kinds: readonly FileKind[]): Promise<RenderedRun | null>;
  /**
   * Which of the ids are existing custom reports the actor may not see: their schedules are hidden from it (a private
   * report's schedule is its owner's alone, admins included). A deleted report hides nothing.
   */
  customReportsHiddenFrom(ctx: ServiceContext, ids: readonly string[]): Promise<Set<string>>;
  /** Whether the actor can see the custom report (checked when a schedule names it). */
  customReportExists(ctx: ServiceContext, customReportId: string): Promise<boolean>;
}

/** The destination facts the module needs from alerting. */
export interface ReportDestinations {
  /** The types of those of `ids` that are destinations the actor may see (others are absent). */
  destinationTypes(ctx: ServiceContext, ids: readonly string[]): Promise<Map<string, string>>;
  outcome(db: Database, eventId: string): Promise<{ fannedOut: boolean; statuses: string[] }>;
  /** Each delivery the event made, with its destination and how it went (the runs a schedule shows). */
  deliveries(db: Database, organizationId: string, eventId: string): Promise<RunDelivery[]>;
}

/** One delivery of a run, as alerting reports it. */
export interface RunDelivery {
  destinationId: string;
  destinationName: string | null;
  destinationType: string | null;
  status: string;
  attempts: number;
  lastError: string | null;
  deliveredAt: number | null;
}

export interface ReportPlans {
  requireReports(plan: PlanName): void;
}

/** The organization's current plan (a run reports with the plan the organization has at run time). */
export type PlanOf = (organizationId: string) => Promise<PlanName | null>;
