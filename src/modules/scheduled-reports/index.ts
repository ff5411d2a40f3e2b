export {
  createScheduledReports,
  createReportFiles,
  type ScheduledReports,
  type ScheduledReportsDeps,
} from './scheduled-reports.module.ts';
export { scheduledReportsMigrations } from './scheduled-reports.migrations.ts';
export { ScheduledReportDestinationUsers } from './scheduled-report.destination-users.ts';
export {
  ScheduledReportsService,
  REFUSED_DESTINATION_TYPES,
  type ScheduledReportInput,
  type ScheduledReportPatch,
  type ScheduledReportRunView,
} from './scheduled-report.service.ts';
export type { ReportFilesService } from './report-file.service.ts';
export type { ScheduledReportRunner } from './scheduled-report.runner.ts';
export type { ScheduledReportsRole } from './scheduled-reports.role.ts';
export type { RenderedReport, ReportRendering, ReportDestinations, PlanOf } from './scheduled-report.ports.ts';
export { FREQUENCIES, nextRunAt, type Frequency, type ScheduleRule } from './scheduled-report.schedule.ts';
export { periodBefore, type RunPeriod } from './scheduled-report.period.ts';
export {
  REPORT_TYPES,
  LAST_STATUSES,
  FILE_KINDS,
  type ScheduledReport,
  type ScheduledReportType,
  type LastStatus,
  type FileKind,
  type ReportFile,
} from './scheduled-report.types.ts';
export { reportRendering, type ReportRendererLike, type CustomReportsLike } from './scheduled-report.rendering.ts';
