import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/index.ts';
import type { Logger } from '../../platform/logger.ts';
import type { EventsService } from '../events/index.ts';
import { ReportFilesService } from './report-file.service.ts';
import type { PlanOf, ReportDestinations, ReportPlans, ReportRendering } from './scheduled-report.ports.ts';
import { ScheduledReportRunner } from './scheduled-report.runner.ts';
import { ScheduledReportsService } from './scheduled-report.service.ts';
import { ScheduledReportsRole } from './scheduled-reports.role.ts';

export interface ScheduledReportsDeps {
  database: Database;
  clock: Clock;
  logger: Logger;
  events: Pick<EventsService, 'record'>;
  plans: ReportPlans;
  planOf: PlanOf;
  destinations: ReportDestinations;
  rendering: ReportRendering;
  publicUrl: string;
  leaseMs: number;
  files: ReportFilesService;
}

export interface ScheduledReports {
  service: ScheduledReportsService;
  files: ReportFilesService;
  runner: ScheduledReportRunner;
  role: ScheduledReportsRole;
  /** Give to the alert pipeline's onDeliveryEnded: settles a run as soon as its last delivery ends. */
  deliveryEnded(ended: { eventId: string; eventType: string }): void;
}

/** Builds the module. The file service is made first (`createReportFiles`) because the alert pipeline reads it. */
export function createScheduledReports(deps: ScheduledReportsDeps): ScheduledReports {
  const runner = new ScheduledReportRunner({
    database: deps.database,
    clock: deps.clock,
    logger: deps.logger,
    events: deps.events,
    rendering: deps.rendering,
    destinations: deps.destinations,
    planOf: deps.planOf,
    publicUrl: deps.publicUrl,
    leaseMs: deps.leaseMs,
  });
  const role = new ScheduledReportsRole({
    database: deps.database,
    clock: deps.clock,
    logger: deps.logger,
    runner,
    files: deps.files,
  });
  const service = new ScheduledReportsService({
    plans: deps.plans,
    destinations: deps.destinations,
    rendering: deps.rendering,
    wake: () => role.wake(),
  });
  return {
    service,
    files: deps.files,
    runner,
    role,
    deliveryEnded(ended) {
      if (ended.eventType !== 'scheduled_report') return;
      runner.settle(ended.eventId).catch((err: unknown) => {
        deps.logger.warn({ err, event: ended.eventId }, 'scheduled reports: settling a run failed; the sweep retries');
      });
    },
  };
}

export function createReportFiles(deps: { database: Database; clock: Clock }): ReportFilesService {
  return new ReportFilesService(deps);
}
