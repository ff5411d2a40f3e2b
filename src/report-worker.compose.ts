/**
 * Composition root of a report worker thread (ReportBuildPool, src/modules/reports/report-build.worker.ts): the
 * services every report reads (and custom reports), composed by the same functions as main.ts's buildServices
 * (report-sources.compose.ts) but on a database handle of the thread's own and without anything that runs in the
 * background, sends or listens. main.ts hands the pool this module's URL and the setup below.
 */
import type { TocsinConfig } from './config/index.ts';
import { AlertLinks } from './modules/alerting/index.ts';
import { createReports, InThreadPdf, type ReportFonts, type ReportWorkerHost } from './modules/reports/index.ts';
import { systemClock } from './platform/clock.ts';
import { openDatabase, type DatabaseOptions } from './platform/db/index.ts';
import {
  composeMonitorServices,
  composeOrgServices,
  composeReportSourceServices,
  reportSourcesOf,
} from './report-sources.compose.ts';

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
  const base = { config, database, clock };
  // The same composition functions as main.ts's buildServices, without signals (this thread records no events).
  const { plans, orgs } = composeOrgServices(base);
  const { monitors, monitorLookup, events } = composeMonitorServices({
    ...base,
    plans,
    orgs,
    alertLinks: new AlertLinks(clock),
  });
  const sources = composeReportSourceServices({ ...base, events, monitors, monitorLookup, orgs });
  const reports = createReports({
    clock,
    plans,
    ...reportSourcesOf({ ...sources, monitors, orgs }),
    // Already on a worker thread: jobs run here, PDFs drawn with the thread's fonts.
    pdf: new InThreadPdf(fonts),
    isolation: null,
  });
  return {
    renderer: reports.renderer,
    customReports: reports.customReports,
    database,
    close: () => database.close(),
  };
}
