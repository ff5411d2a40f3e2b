import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/index.ts';
import type { Plans } from '../orgs/index.ts';
import { ReportBuildPool, type ReportBuildPoolOptions } from './report-build.pool.ts';
import { InThreadPdf, type PdfComposer } from './report-pdf.pool.ts';
import type { ReportJobHost } from './report-build.job.ts';
import { ReportRenderer } from './report.render.ts';
import { MonitorTimelineRecorder } from './monitor-timeline.recorder.ts';
import type { ReportAnomalies, ReportIncidents, ReportRollups } from './report.sources.ts';
import { ReportsService } from './reports.service.ts';
import type { ReportMonitorSettings } from './monitor-health.report.ts';
import { SlaTargetsService } from './sla-target.service.ts';
import { CustomReportsService } from './custom-report.service.ts';
import type { CustomReportMembers } from './custom-report.validation.ts';
import type { CustomReportDocument, KindReport } from './custom-report.document.ts';

export interface ReportsModuleDeps {
  clock: Clock;
  plans: Plans;
  rollups: ReportRollups;
  incidents: ReportIncidents;
  anomalies: ReportAnomalies | null;
  /** Monitors' intervals and timeouts (the monitor-health report); MonitorsService fits. */
  monitors?: ReportMonitorSettings | null;
  /** The organization's display name (the first page of a PDF). */
  organizationName: (organizationId: string) => Promise<string>;
  /** The organization's member ids (custom reports shared with users). */
  members: CustomReportMembers;
  /**
   * Report worker threads (ReportBuildPool): every report file of every kind and format is made there (routes,
   * custom reports, scheduled runs), each job with the pool's time limit. null (`reports.workers` 0, and a report
   * worker thread itself): made on this thread.
   */
  isolation?: ReportBuildPoolOptions | null;
  /** Where PDFs are drawn when there is no isolation (a report worker thread passes its parsed fonts' InThreadPdf). */
  pdf?: PdfComposer;
}

/** What a report worker thread's composition gives it (src/report-worker.compose.ts). */
export interface ReportWorkerHost {
  renderer: ReportRenderer;
  /** Custom reports (jobs of type custom); absent in a worker that composes no custom reports (a test's). */
  customReports?: CustomReportsService | null;
  database: Database;
  close(): Promise<void>;
}

export interface Reports {
  reports: ReportsService;
  slaTargets: SlaTargetsService;
  customReports: CustomReportsService;
  /** Register with the monitors service (MonitorListener) and list among the check engine's transition listeners. */
  timeline: MonitorTimelineRecorder;
  /**
   * Every report kind as JSON, CSV or PDF, and documents of several sections (report.render.ts). Its threads start
   * at the first report and stop when idle; close() it at shutdown, after whatever renders reports has stopped.
   */
  renderer: ReportRenderer;
}

export function createReports(deps: ReportsModuleDeps): Reports {
  const slaTargets = new SlaTargetsService();
  const reports = new ReportsService({
    plans: deps.plans,
    rollups: deps.rollups,
    incidents: deps.incidents,
    anomalies: deps.anomalies,
    slaTargets,
    monitors: deps.monitors ?? null,
  });
  const isolation = deps.isolation ? new ReportBuildPool(deps.isolation) : null;
  let customReports: CustomReportsService | null = null;
  const renderer: ReportRenderer = new ReportRenderer({
    pdf: isolation ?? deps.pdf ?? new InThreadPdf(),
    isolation,
    inThread: () => jobHostOf(renderer, customReports),
    organizationName: deps.organizationName,
    // one line per report kind: its generator
    builders: {
      availability: (ctx, input) => reports.availability(ctx, input),
      performance: (ctx, input) => reports.performance(ctx, input),
      sla: (ctx, input) => reports.sla(ctx, input),
      incidents: (ctx, input) => reports.incidents(ctx, input),
      intelligence: (ctx, input) => reports.intelligence(ctx, input),
      monitor_health: (ctx, input) => reports.monitorHealth(ctx, input),
    },
  });
  // Custom reports see the renderer through their own port: any kind's report as a plain document.
  customReports = new CustomReportsService({
    plans: deps.plans,
    members: deps.members,
    slaTargets,
    renderer: {
      build: async (ctx, kind, input) => (await renderer.build(ctx, kind, input)) as unknown as KindReport,
      renderSections: (ctx, doc, format) =>
        renderer.renderSections(ctx, doc as unknown as Parameters<ReportRenderer['renderSections']>[1], format),
      files: (ctx, id, formats, json) => renderer.customFiles(ctx, id, formats, json),
    },
  });
  return {
    reports,
    slaTargets,
    customReports,
    renderer,
    timeline: new MonitorTimelineRecorder(deps.clock),
  };
}

/** A job's builders and encoders over the reports module of this thread (report-build.job.ts). */
export function jobHostOf(renderer: ReportRenderer, customReports: CustomReportsService | null): ReportJobHost {
  return {
    build: (ctx, kind, input) => renderer.build(ctx, kind, input),
    encode: (ctx, kind, report, format) => renderer.encode(ctx, kind, report, format),
    custom: customReports && {
      document: (ctx, id) => customReports.document(ctx, id),
      encode: (ctx, doc, format) => customReports.encode(ctx, doc as CustomReportDocument, format),
    },
  };
}
