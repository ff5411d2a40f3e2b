/**
 * Composition root of a report worker thread (ReportBuildPool, src/modules/reports/report-build.worker.ts): the
 * services the availability, performance and SLA reports read, wired as in main.ts's buildServices but on a database
 * handle of the thread's own and without anything that runs in the background, sends or listens. main.ts hands the
 * pool this module's URL and the setup below.
 */
import type { TocsinConfig } from './config/index.ts';
import { AlertLinks } from './modules/alerting/index.ts';
import { ExecutionsService, RollupsService, validateAssertion } from './modules/checks/index.ts';
import { EventsService } from './modules/events/index.ts';
import { IncidentsService } from './modules/incidents/index.ts';
import { IntelligenceService } from './modules/intelligence/index.ts';
import { MonitorsService, createMonitorTargetGuard } from './modules/monitors/index.ts';
import { createOrgs, Plans } from './modules/orgs/index.ts';
import { createReports, InThreadPdf, type ReportFonts, type ReportWorkerHost } from './modules/reports/index.ts';
import { systemClock } from './platform/clock.ts';
import { openDatabase, type DatabaseOptions } from './platform/db/index.ts';
import type { Actor } from './modules/auth/index.ts';
import { systemResolver } from './platform/net/index.ts';
import { reportSourcesOf } from './report-sources.compose.ts';

export interface ReportWorkerSetup {
  config: TocsinConfig;
  /** The process's database, with the thread's own pool size (PostgreSQL). */
  database: DatabaseOptions;
}

export async function composeReportWorker(setup: ReportWorkerSetup, fonts: ReportFonts): Promise<ReportWorkerHost> {
  const { config } = setup;
  const database = openDatabase(setup.database);
  // Reports read each request's instant from its context; this clock only stands in for background timing, which
  // this thread never runs.
  const clock = systemClock;
  const plans = new Plans(config.plans);
  const orgs = createOrgs({ database, clock, defaultPlan: config.defaultPlan, defaultRegion: config.defaultRegion });
  const monitors = new MonitorsService({
    database,
    clock,
    plans,
    regions: config.regions,
    publicUrl: config.publicUrl,
    defaultRegionOf: async (organizationId) => (await orgs.getOrganization(organizationId)).defaultRegion,
    validateAssertion,
    alertLinks: new AlertLinks(clock),
    lockOrganization: (tx, organizationId) => orgs.lockOrganization(tx, organizationId),
    targetGuard: createMonitorTargetGuard({
      allowPrivateTargets: config.network.allowPrivateTargets,
      resolver: systemResolver,
    }),
  });
  const monitorLookup = { get: (actor: Actor, id: string) => monitors.get({ actor, db: database, clock }, id) };
  const events = new EventsService({ database, clock });
  const incidents = new IncidentsService({ database, clock, events, monitors });
  const intelligence = new IntelligenceService({ database, clock, events, monitors, incidents });
  const executions = new ExecutionsService({ database, monitors: monitorLookup });
  const rollups = new RollupsService({
    database,
    clock,
    retentionDays: config.retention.executionsDays,
    monitors: monitorLookup,
    executions,
  });
  const reports = createReports({
    clock,
    plans,
    ...reportSourcesOf({ executions, rollups, incidents, intelligence, monitors, orgs }),
    transitionsNext: null,
    // Already on a worker thread: PDFs are drawn here, with the thread's fonts.
    pdf: new InThreadPdf(fonts),
    isolation: null,
  });
  return { renderer: reports.renderer, database, close: () => database.close() };
}
