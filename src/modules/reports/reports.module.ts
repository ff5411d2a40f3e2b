import type { Clock } from '../../platform/clock.ts';
import type { Plans } from '../orgs/index.ts';
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
}

export interface Reports {
  reports: ReportsService;
  slaTargets: SlaTargetsService;
  /** Register with the monitors service (MonitorListener) and give to the check engine as its transition handler. */
  timeline: MonitorTimelineRecorder;
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
  return { reports, slaTargets, timeline: new MonitorTimelineRecorder(deps.clock, deps.transitionsNext) };
}
