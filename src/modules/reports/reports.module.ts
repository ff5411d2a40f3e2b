import type { Clock } from '../../platform/clock.ts';
import type { Plans } from '../orgs/index.ts';
import { ReportFonts } from './report-pdf.fonts.ts';
import { ReportRenderer } from './report.render.ts';
import { MonitorTimelineRecorder, type TransitionHandlerLike } from './monitor-timeline.recorder.ts';
import type { ReportAnomalies, ReportIncidents, ReportRollups } from './report.sources.ts';
import { ReportsService } from './reports.service.ts';
import { SlaTargetsService } from './sla-target.service.ts';

export interface ReportsModuleDeps {
  clock: Clock;
  plans: Plans;
  rollups: ReportRollups;
  incidents: ReportIncidents;
  anomalies: ReportAnomalies | null;
  /** Where the check engine's transitions go once the timeline has them (the incidents module). */
  transitionsNext: TransitionHandlerLike | null;
  /** The organization's display name (the first page of a PDF). */
  organizationName: (organizationId: string) => Promise<string>;
}

export interface Reports {
  reports: ReportsService;
  slaTargets: SlaTargetsService;
  /** Register with the monitors service (MonitorListener) and give to the check engine as its transition handler. */
  timeline: MonitorTimelineRecorder;
  /** Every report kind as JSON, CSV or PDF, and documents of several sections (report.render.ts). */
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
  });
  return {
    reports,
    slaTargets,
    renderer: new ReportRenderer({
      fonts: new ReportFonts(),
      organizationName: deps.organizationName,
      // one line per report kind: its generator
      builders: {
        availability: (ctx, input) => reports.availability(ctx, input),
        performance: (ctx, input) => reports.performance(ctx, input),
        sla: (ctx, input) => reports.sla(ctx, input),
      },
    }),
    timeline: new MonitorTimelineRecorder(deps.clock, deps.transitionsNext),
  };
}
