import { VERSION } from './version.ts';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { TocsinConfig } from './config/index.ts';
import { buildApp } from './http/app.ts';
import type { AppServices } from './http/app.deps.ts';
import {
  AlertLinks,
  alertingMigrations,
  createAlerting,
  generateSigningSecret,
  openWebhookUrl,
  privateTargetIssue,
  signWebhook,
} from './modules/alerting/index.ts';
import { AuditLog, auditMigrations } from './modules/audit/index.ts';
import { authMigrations, createApiAccess, createAuth, SessionService } from './modules/auth/index.ts';
import {
  checkEngineMigrations,
  createCheckEngineModule,
  intelligenceAnalytics,
  monitorStatusListener,
  statusFeedListener,
  degradedEventsListener,
  failingRegionsOf,
  type TransitionListener,
} from './modules/checks/index.ts';
import { ExecutionsRetention, ExecutionsStore, executionsMigrations } from './modules/checks/index.ts';
import { heartbeatSignalsMigrations } from './modules/checks/index.ts';
import { DayPrefixesCompactor, rollupsMigrations } from './modules/checks/index.ts';
import { eventsMigrations } from './modules/events/index.ts';
import { IncidentRemindersRole, incidentsMigrations } from './modules/incidents/index.ts';
import { SecurityGradesRole, intelligenceMigrations } from './modules/intelligence/index.ts';
import {
  NoticeDrafts,
  NoticesService,
  StatusPagesService,
  SubscriberDeliveriesRole,
  SubscriberSender,
  SubscribersService,
  noticesMigrations,
  statusPagesMigrations,
  type NoticeListener,
  type StatusPage,
} from './modules/status-pages/index.ts';
import { BadgesService, badgesMigrations } from './modules/badges/index.ts';
import { MaintenanceAlertGate, MaintenanceEventsRole, maintenanceMigrations } from './modules/maintenance/index.ts';
import { createReports, reportsMigrations, StatusAvailability } from './modules/reports/index.ts';
import {
  createReportFiles,
  createScheduledReports,
  ScheduledReportDestinationUsers,
  reportRendering,
  scheduledReportsMigrations,
} from './modules/scheduled-reports/index.ts';
import { monitorsMigrations } from './modules/monitors/index.ts';
import { SilencesService, silencesMigrations } from './modules/silences/index.ts';
import { ConfigDocumentsService, configDocumentsMigrations } from './modules/config-documents/index.ts';
import { configKindPorts } from './config-documents.compose.ts';
import { createCredentials, MembersService, orgsMigrations } from './modules/orgs/index.ts';
import { LiveHub, MonitorPauseFeed } from './modules/live/index.ts';
import { systemClock, type Clock } from './platform/clock.ts';
import { systemTimers, type Timers } from './platform/timers.ts';
import {
  createChangeSignals,
  databaseStartupError,
  migrateToLatest,
  openDatabase,
  type Database,
  type DatabaseOptions,
  type SchemaMigration,
} from './platform/db/index.ts';
import type { BackgroundRole } from './platform/background-role.ts';
import { createLogger, type Logger } from './platform/logger.ts';
import { TocsinMetrics } from './platform/metrics/index.ts';
import { createOutboundConnector, systemResolver } from './platform/net/index.ts';
import { createMailer, type Mailer } from './platform/mail/index.ts';
import type { ReportWorkerSetup } from './report-worker.compose.ts';
import {
  composeMonitorServices,
  composeOrgServices,
  composeReportSourceServices,
  reportSourcesOf,
} from './report-sources.compose.ts';
import { loadMasterKey, SecretBox } from './platform/secrets.ts';
import { hkdfSync } from 'node:crypto';

/** Every module's schema migrations; each module owns its own list. */
export const ALL_MIGRATIONS: SchemaMigration[] = [
  ...orgsMigrations,
  ...authMigrations,
  ...monitorsMigrations,
  ...eventsMigrations,
  ...alertingMigrations,
  ...checkEngineMigrations,
  ...incidentsMigrations,
  ...executionsMigrations,
  ...rollupsMigrations,
  ...statusPagesMigrations,
  ...noticesMigrations,
  ...intelligenceMigrations,
  ...reportsMigrations,
  ...scheduledReportsMigrations,
  ...auditMigrations,
  ...maintenanceMigrations,
  ...silencesMigrations,
  ...badgesMigrations,
  ...configDocumentsMigrations,
  ...heartbeatSignalsMigrations,
];

export { VERSION };

export type { BackgroundRole } from './platform/background-role.ts';

export interface TocsinOptions {
  logger?: Logger;
  clock?: Clock;
  /** One-shot timers (time limits); tests inject ManualTimers to fire them without waiting. */
  timers?: Timers;
  /** Run migrations at start (default true). */
  migrate?: boolean;
  /** Start background roles (scheduler, workers); tests that drive them by hand pass false. */
  background?: boolean;
}

export interface Tocsin {
  config: TocsinConfig;
  logger: Logger;
  clock: Clock;
  database: Database;
  services: AppServices;
  app: FastifyInstance;
  /** Starts background roles. */
  startBackground(): Promise<void>;
  /** Stops background roles, finishes in-flight work and closes the database. */
  close(): Promise<void>;
}

function databaseOptionsOf(config: TocsinConfig): DatabaseOptions {
  return { url: config.databaseUrl, sqlitePath: join(config.dataDir, 'tocsin.db') };
}

export function openConfiguredDatabase(config: TocsinConfig): Database {
  return openDatabase(databaseOptionsOf(config));
}

/**
 * Opens the configured database and (unless `migrate` is false) brings its schema up to date. A failure is a
 * DatabaseStartupError saying what failed (unreachable, no such database, authentication, a migration) and where,
 * without the password.
 */
export async function openMigratedDatabase(
  config: TocsinConfig,
  migrate = true,
): Promise<{ database: Database; applied: string[] }> {
  const target = databaseOptionsOf(config);
  let database: Database;
  try {
    database = openDatabase(target);
  } catch (err) {
    throw databaseStartupError(err, target);
  }
  try {
    return { database, applied: migrate ? await migrateToLatest(database, ALL_MIGRATIONS) : [] };
  } catch (err) {
    await database.close();
    throw databaseStartupError(err, target);
  }
}

export interface Built {
  services: AppServices;
  /** Started by startBackground() in this order, stopped in reverse. */
  roles: BackgroundRole[];
  /** The process's one metrics registry; null when `metrics.enabled` is off. */
  metrics: TocsinMetrics | null;
  /**
   * The process's one mailer. Its owner closes it after the roles stop (the alert workers send with it), whether or not
   * they were started: requests and in-process calls send with it too, and its pooled SMTP connections stay open until
   * closed.
   */
  mailer: Mailer;
}

export function buildServices(
  config: TocsinConfig,
  database: Database,
  clock: Clock,
  logger: Logger,
  timers: Timers = systemTimers,
): Built {
  const roles: BackgroundRole[] = [];
  // Committed changes that idle loops wait on (schedule, outbox, deliveries); on PostgreSQL also other processes'
  // (LISTEN/NOTIFY). Started first and stopped last, so every loop hears of changes while it runs.
  const signals = createChangeSignals(database, config.databaseUrl, logger);
  roles.push({ name: 'change-signals', start: () => signals.start(), stop: () => signals.stop() });
  const metrics = config.metrics.enabled
    ? new TocsinMetrics({
        onCollectError: (source, err) => logger.warn({ err, source }, 'metrics: a scrape-time read failed'),
      })
    : null;
  // Organizations, monitors and the report sources: composed as the report worker composes them.
  const { plans, orgs } = composeOrgServices({ config, database, clock });
  const auth = createAuth({ database, clock });
  const masterKey = loadMasterKey({
    configured: config.masterKey,
    dataDir: config.dataDir,
    warn: (m) => logger.warn(m),
  });
  const apiAccess = createApiAccess({
    database,
    clock,
    logger,
    auth,
    redisUrl: config.redisUrl,
    metrics,
    secrets: new SecretBox(masterKey),
  });
  roles.push(...apiAccess.roles);
  const alertLinks = new AlertLinks(clock);
  const { monitors, monitorLookup, events } = composeMonitorServices({
    config,
    database,
    clock,
    plans,
    orgs,
    alertLinks,
    signals,
  });
  // Stored files of scheduled report runs: mails attach them, GET /report-files serves them.
  const reportFiles = createReportFiles({ database, clock });
  // One mailer for every mail of the process (alert emails, invitations, verification and reset links); closed by
  // Tocsin's close() after the roles stop, started or not (Built.mailer).
  const mailer = createMailer({ smtpUrl: config.smtp, from: config.smtpFrom, logger });
  // Silences check destination ids through alerting, which reads silences at fan-out: the port is called later.
  const silences = new SilencesService({
    monitors,
    destinationIdsIn: (db, organizationId, ids) => alerting.destinationIdsIn(db, organizationId, ids),
  });
  const alerting = createAlerting({
    silences,
    mailer,
    reportFiles,
    destinationUsers: new ScheduledReportDestinationUsers(),
    config,
    database,
    clock,
    logger: logger,
    events,
    orgs,
    monitors,
    version: VERSION,
    masterKey,
    metrics,
    signals,
  });
  const members = new MembersService({
    orgs,
    mailer,
    clock,
    logger,
    publicUrl: config.publicUrl,
    regions: config.regions,
  });
  const audit = new AuditLog({ database, clock });
  const sessions = new SessionService({
    database,
    clock,
    audit,
    logger,
    orgs,
    credentials: createCredentials({
      database,
      clock,
      defaultPlan: config.defaultPlan,
      defaultRegion: config.defaultRegion,
    }),
    mailer,
    publicUrl: config.publicUrl,
  });
  const { incidents, intelligence, executions, rollups, maintenance } = composeReportSourceServices({
    config,
    database,
    clock,
    events,
    monitors,
    monitorLookup,
    orgs,
    // Status pages are built further down; a window's status_page_ids are checked against them when it is saved.
    statusPages: { get: (ctx, id) => statusPages.get(ctx, id) },
  });
  monitors.addListener(incidents);
  // Reports: each monitor's timeline (lifecycle and verdicts) is written in the transaction of the change.
  const reports = createReports({
    clock,
    plans,
    ...reportSourcesOf({ executions, rollups, incidents, intelligence, monitors, orgs, maintenance }),
    // Every report file is built and encoded on worker threads with database handles of their own.
    isolation:
      config.reports.workers > 0
        ? {
            workers: config.reports.workers,
            timeoutMs: config.reports.timeoutSeconds * 1000,
            idleMs: config.reports.workerIdleSeconds * 1000,
            compose: new URL('./report-worker.compose.ts', import.meta.url),
            setup: { config, database: { ...databaseOptionsOf(config), poolSize: 4 } } satisfies ReportWorkerSetup,
          }
        : null,
  });
  monitors.addListener(reports.timeline);
  roles.push(
    new IncidentRemindersRole({
      incidents,
      monitors,
      clock,
      logger,
      maintenance: new MaintenanceAlertGate({ windows: maintenance, monitors, database }),
    }),
  );
  // maintenance_started / maintenance_ended once per occurrence; outages held by a window judged at its end.
  roles.push(new MaintenanceEventsRole({ database, clock, logger, events, incidents, monitors, windows: maintenance }));
  // TLS and domain security grades of https/tls monitors, about once a day each (not with intelligence disabled).
  if (config.intelligence.enabled)
    roles.push(
      new SecurityGradesRole({
        database,
        clock,
        logger,
        intelligence,
        monitors,
        intervalMs: 86_400_000,
        tickMs: config.securityGrading.pollSeconds * 1000,
        timeoutMs: 10_000,
        connector: createOutboundConnector({
          allowPrivateTargets: config.network.allowPrivateTargets,
          resolver: systemResolver,
        }),
      }),
    );
  // Notices on status pages (DECISIONS §18). Every publication and every update of a published notice goes to these
  // listeners inside its transaction (subscriber fan-out belongs here).
  const noticeListeners: NoticeListener[] = [];
  const notices: NoticesService = new NoticesService({
    database,
    clock,
    // Status pages are built further down; a notice's page is read through them (404 for pages the actor cannot see).
    pages: { get: (ctx, id): Promise<StatusPage> => statusPages.get(ctx, id) },
    monitors,
    incidents,
    listeners: noticeListeners,
  });
  // From a check to an alert (docs/architecture.md): every status change of a result batch goes through these, in
  // this order, inside the batch's transaction, so the check result, the status, the timeline, the incident and its
  // outbox events commit together (the alert dispatcher is woken after the commit and delivers from the outbox).
  const transitionListeners: TransitionListener[] = [
    // 1. monitor.status / status_changed_at: what the API and status pages show and the next batch starts from.
    monitorStatusListener(monitors),
    // 2. `monitor_status_changed` in the outbox: the live feed (every change, pending → up included).
    statusFeedListener(events),
    // 3. the monitor's timeline (reports): the verdict, a down one with the first failure of the outage.
    reports.timeline,
    // 4. incidents: down opens the monitor's incident, up resolves it; `incident_opened`/`down`/`recovered` to the
    //    outbox, which the alert pipeline fans out to destinations.
    { name: 'incidents', onTransition: (tx, t) => incidents.handleMonitorTransition(tx, t) },
    // 4b. degraded (DECISIONS §20, not an outage): `degraded` / `degraded_recovered` to the outbox, none inside a
    //     maintenance window that suppresses alerts; after the incidents, so down → degraded says `recovered` first.
    degradedEventsListener({
      events,
      maintenance: new MaintenanceAlertGate({ windows: maintenance, monitors, database }),
    }),
    // 5. status pages with auto_notices: an incident opened by this verdict (and alerting) drafts a notice on each
    //    page that shows the monitor, with the monitor, since when and the regions that saw it.
    new NoticeDrafts({
      notices,
      incidents,
      failingRegions: failingRegionsOf,
      audit: audit.trail({ actor: { type: 'system', id: null, name: 'auto notices' }, ip: null, requestId: null }),
    }),
  ];
  const checks = createCheckEngineModule({
    database,
    clock,
    logger,
    monitors,
    events,
    executions: new ExecutionsStore(),
    transitions: transitionListeners,
    // After the commit, off the check path, each in a transaction of its own with a time budget; a failure is logged
    // and counted (tocsin_check_analytics_failures_total), never rolls back or holds up the batch.
    analytics: config.intelligence.enabled ? [intelligenceAnalytics(intelligence)] : [],
    timers,
    regions: config.regions,
    scheduler: config.scheduler,
    allowPrivateTargets: config.network.allowPrivateTargets,
    metrics,
    signals,
  });
  roles.push(...checks.roles);
  roles.push(...alerting.roles);
  const scheduledReports = createScheduledReports({
    database,
    clock,
    logger,
    events,
    plans,
    planOf: async (organizationId) => (await orgs.findOrganization(organizationId))?.plan ?? null,
    destinations: alerting.reportDeliveryFacts,
    rendering: reportRendering(reports.renderer, reports.customReports),
    publicUrl: config.publicUrl,
    leaseMs: config.scheduledReports.leaseSeconds * 1000,
    files: reportFiles,
  });
  alerting.pipeline.onDeliveryEnded((ended) => scheduledReports.deliveryEnded(ended));
  roles.push(scheduledReports.role);
  // The live feed: one poller per process, woken after every local commit that recorded outbox events.
  const live = new LiveHub({
    logger,
    sources: {
      latestSeq: () => events.latestSeq(),
      outboxAfter: (seq, limit) => events.readAfter(seq, limit),
      latestExecutionKey: () => executions.latestKey(),
      executionsAfter: (key, limit) => executions.recordedAfter(key, limit),
      incident: (organizationId, id) => incidents.findAnywhere(organizationId, id),
      monitorEnvironments: async (ids) =>
        new Map((await monitors.findManyAnywhere(ids)).map((m) => [m.id, m.environment])),
    },
  });
  events.onRecorded(() => live.nudge());
  monitors.addListener(new MonitorPauseFeed({ events }));
  const statusPages = new StatusPagesService({
    database,
    clock,
    plans,
    monitors,
    incidents,
    uptime: rollups,
    availability: new StatusAvailability({ database, maintenance }),
    lockOrganization: (tx, organizationId) => orgs.lockOrganization(tx, organizationId),
    maintenance,
    notices,
    // Page sessions are signed with a key of their own, derived from the master key (the same in every process).
    pageSessionKey: Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'tocsin status page sessions', 32)),
    reservedHosts: [new URL(config.publicUrl).hostname.toLowerCase()],
  });
  monitors.addListener(statusPages);
  const statusAvailability = new StatusAvailability({ database });
  const badges = new BadgesService({
    database,
    clock,
    monitors,
    metrics: {
      uptimePercent: (monitorId, from, to) => statusAvailability.uptimeOver(monitorId, from, to),
      medianResponseMs: (monitorId, from, to) => rollups.medianResponseMs(monitorId, from, to),
      inMaintenance: async (db, organizationId, monitor, t) =>
        (await maintenance.inMaintenance(db, organizationId, [monitor], t)).has(monitor.id),
    },
  });
  // Subscribers of status pages (DECISIONS §18): sign-up, and the role that tells them from the outbox.
  const secrets = new SecretBox(masterKey);
  const allowPrivate = config.network.allowPrivateTargets;
  const statusSubscribers = new SubscribersService({
    database,
    clock,
    secrets,
    pages: statusPages,
    checkWebhookUrl: (url) => privateTargetIssue(url, allowPrivate, systemResolver),
    newSigningSecret: generateSigningSecret,
  });
  const statusSubscriberDeliveries = new SubscriberDeliveriesRole({
    database,
    clock,
    logger,
    subscribers: statusSubscribers,
    // The outbox delivery settings of alerts: how long one attempt holds its delivery, the idle poll (at least 1 s).
    leaseMs: config.alerting.leaseSeconds * 1000,
    everyMs: Math.max(config.alerting.pollMs, 1_000),
    outbox: events,
    maintenance,
    timers,
    sender: new SubscriberSender({
      mailer,
      secrets,
      webhooks: {
        sign: (input) => ({ ...signWebhook(input) }),
        open: (url) => openWebhookUrl(url, allowPrivate, systemResolver),
      },
      publicUrl: config.publicUrl,
      userAgent: `Tocsin/${VERSION}`,
      sendTimeoutMs: config.alerting.sendTimeoutMs,
      now: () => clock.now(),
    }),
  });
  roles.push(statusSubscriberDeliveries);
  // Published notices and their updates reach subscribers through the outbox, in the publishing transaction.
  noticeListeners.push(statusSubscribers.noticePublished);
  roles.push(new ExecutionsRetention({ database, clock, logger, retentionDays: config.retention.executionsDays }));
  // Closed UTC days get their prefix sums: reports in any zone then read one prefix per day, not its edge hours.
  roles.push(new DayPrefixesCompactor({ database, clock, logger }));
  // Read when Prometheus scrapes, not kept up to date in between.
  metrics?.observeOpenIncidents(() => incidents.countOpenByStatus());
  // Every configured region appears, with 0 when nothing is waiting there (an absent series would hide recovery).
  metrics?.observeCheckBacklog(async () => {
    const { regions } = await checks.engine.pressure();
    const known = new Map(regions.map((r) => [r.regionCode, r]));
    return [...new Set([...config.regions, ...known.keys()])].map((region) => ({
      region,
      count: known.get(region)?.backlog ?? 0,
      oldestDueAgeSeconds: (known.get(region)?.oldestDueAgeMs ?? 0) / 1000,
    }));
  });
  metrics?.observeOutboxLag(async () =>
    (await events.consumerLags()).map((c) => ({ consumer: c.consumer, lagSeconds: c.lagMs / 1000 })),
  );
  const services = {
    orgs,
    members,
    auth,
    sessions,
    live,
    apiAccess: apiAccess.services,
    plans,
    monitors,
    events,
    alerting,
    checks,
    incidents,
    intelligence,
    executions,
    rollups,
    statusPages,
    notices,
    statusSubscribers,
    statusSubscriberDeliveries,
    badges,
    maintenance,
    reports: reports.reports,
    slaTargets: reports.slaTargets,
    scheduledReports,
    reportRenderer: reports.renderer,
    customReports: reports.customReports,
    audit,
    silences,
  };
  return {
    services: { ...services, configDocuments: new ConfigDocumentsService(configKindPorts(services)) },
    roles,
    metrics,
    mailer,
  };
}

/** Composition root: config → database → migrations → services → HTTP app and background roles. */
export async function createTocsin(config: TocsinConfig, options: TocsinOptions = {}): Promise<Tocsin> {
  const logger = options.logger ?? createLogger({ level: config.logLevel, pretty: config.logPretty });
  const clock = options.clock ?? systemClock;
  const { database } = await openMigratedDatabase(config, options.migrate !== false);
  const { services, roles, metrics, mailer } = buildServices(config, database, clock, logger, options.timers);
  const app = await buildApp({ config, logger, clock, database, services, metrics, version: VERSION });
  const started: BackgroundRole[] = [];
  let startedBackground = false;

  return {
    config,
    logger,
    clock,
    database,
    services,
    app,
    async startBackground() {
      if (startedBackground || options.background === false) return;
      startedBackground = true;
      for (const role of roles) {
        await role.start();
        started.push(role);
        logger.debug({ role: role.name }, 'background role started');
      }
    },
    async close() {
      await app.close();
      for (const role of started.reverse()) {
        try {
          await role.stop();
        } catch (err) {
          logger.error({ err, role: role.name }, 'background role failed to stop cleanly');
        }
      }
      // After the roles (the runner submits its last results): the analytics of committed batches still queued.
      await services.checks.engine.analyticsSettled();
      // After the roles (scheduled reports render there): the report threads close their own database handles.
      await services.reportRenderer.close();
      // Also when no role was started (background: false, the CLI's commands, tests): a mail sent by a request or an
      // in-process call left a pooled SMTP connection open, which kept the SMTP server's close waiting (30 s).
      mailer.close();
      await database.close();
    },
  };
}
