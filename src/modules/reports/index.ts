export { ReportsService, METHODOLOGY, type ReportsServiceDeps, type ReportMaintenance } from './reports.service.ts';
export {
  SlaTargetsService,
  SLA_NAME_MAX,
  SLA_MONITORS_MAX,
  type SlaTargetInput,
  type SlaTargetPatch,
} from './sla-target.service.ts';
export type { SlaTarget } from './sla-targets.repository.ts';
export { CustomReportsService } from './custom-report.service.ts';
export type { CustomReportMembers } from './custom-report.validation.ts';
export type { CustomReportDocument, CustomReportSection } from './custom-report.document.ts';
export * from './custom-report.types.ts';
export { MonitorTimelineRecorder } from './monitor-timeline.recorder.ts';
export type { MonitorPeriods, MonitorStatePeriod, PeriodState } from './monitor-periods.ts';
export { reportsMigrations } from './reports.migrations.ts';
export { PERIOD_PRESETS, SLA_PERIODS, type PeriodPreset, type SlaPeriod } from './report.period.ts';
export type { ReportInput } from './report.request.ts';
export type { ReportRollups, ReportIncidents, ReportAnomalies, ReportRollupRow } from './report.sources.ts';
export {
  availabilityCsv,
  performanceCsv,
  slaCsv,
  AVAILABILITY_CSV_COLUMNS,
  PERFORMANCE_CSV_COLUMNS,
  SLA_CSV_COLUMNS,
} from './report.csv.ts';
export type * from './report.types.ts';
export { ReportRenderer } from './report.render.ts';
export {
  REPORT_KINDS,
  type ReportKind,
  type ReportFormat,
  type ReportOf,
  type ReportBuilders,
  type ReportSection,
  type RenderedReport,
  type CsvTable,
  type PdfLayout,
  type JsonSerializerSpec,
  type BuiltFiles,
} from './report.kinds.ts';
export type {
  IncidentsReportShape,
  IntelligenceReportShape,
  MonitorHealthReportShape,
  IntelligenceEventShape,
} from './report.shapes.ts';
export { createReports, type Reports, type ReportsModuleDeps, type ReportWorkerHost } from './reports.module.ts';
export { ReportBuildPool, type ReportBuildPoolOptions } from './report-build.pool.ts';
export { InThreadPdf } from './report-pdf.pool.ts';
export type { ReportFonts } from './report-pdf.fonts.ts';
export { incidentsCsv, incidentsRows, INCIDENTS_CSV_COLUMNS } from './incidents.export.ts';
export {
  intelligenceCsv,
  intelligenceRows,
  monitorHealthCsv,
  monitorHealthRows,
  INTELLIGENCE_CSV_COLUMNS,
  MONITOR_HEALTH_CSV_COLUMNS,
} from './insight.csv.ts';
export type { IncidentsReport, IncidentReportRow } from './incidents.report.types.ts';
export type { IntelligenceReport, IntelligenceReportEvent } from './intelligence.report.types.ts';
export { HEALTH_FINDING_KINDS, type MonitorHealthReport, type MonitorHealthFinding } from './monitor-health.types.ts';
export {
  StatusAvailability,
  STATUS_WINDOWS,
  type StatusWindow,
  type StatusDay,
  type StatusMonitorAvailability,
  type StatusSlaAchievement,
} from './status-availability.ts';
