import type { TocsinConfig } from '../../config/index.ts';
import type { BackgroundRole } from '../../platform/background-role.ts';
import type { Clock } from '../../platform/clock.ts';
import type { ChangeSignals, Database } from '../../platform/db/index.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Mailer } from '../../platform/mail/index.ts';
import type { TocsinMetrics } from '../../platform/metrics/index.ts';
import { SecretBox } from '../../platform/secrets.ts';
import type { Timers } from '../../platform/timers.ts';
import type { EventsService } from '../events/index.ts';
import type { MonitorsService } from '../monitors/index.ts';
import type { OrgsService } from '../orgs/index.ts';
import { Chatapp1ChannelInstall } from './destinations/chatapp1_channel/chatapp1_channel.install.ts';
import { createProviderContext, createProviderRegistry, type ReportFileSource } from './destinations/index.ts';
import { Chatapp1InstallRecords } from './chatapp1-install.store.ts';
import { DestinationChecks } from './destination.checks.ts';
import type { DestinationUsers, MonitorFactsOf } from './destination.inputs.ts';
import { DestinationSecrets } from './destination.secrets.ts';
import { DestinationsService } from './destination.service.ts';
import { DestinationTestSend } from './destination.test-send.ts';
import { DestinationViews } from './destination.view.ts';
import { IncidentDeliveries } from './incident-deliveries.ts';
import { ReportDeliveryFacts } from './report-delivery.facts.ts';
import type { HostResolver } from './network.guard.ts';
import { AlertPipeline, DELIVERIES_CHANGED } from './pipeline/pipeline.ts';
import type { SilenceSource } from './pipeline/fan-out.ts';
import { DestinationsRepository } from './destinations.repository.ts';

export interface AlertingDeps {
  config: TocsinConfig;
  database: Database;
  clock: Clock;
  logger: Logger;
  events: EventsService;
  orgs: OrgsService;
  monitors: MonitorsService;
  version: string;
  /** The 32-byte key that seals destination secrets (read at the composition root). */
  masterKey: Buffer;
  /** Counts delivery attempts; null or absent when metrics are off. */
  metrics?: TocsinMetrics | null;
  /** Scheduled reports sending to destinations (the scheduled-reports module): their environments hide destinations. */
  destinationUsers?: DestinationUsers;
  /** The stored report files mails attach (the scheduled-reports module's files). */
  reportFiles?: ReportFileSource;
  /** Change signals (new outbox events and deliveries of other processes wake the idle loops); absent in some tests. */
  signals?: ChangeSignals;
  /** The silences that hold deliveries back (the silences module, DECISIONS §16); absent: none. */
  silences?: SilenceSource;
  /** Sends the email destination's mails (platform/mail; made and closed by the composition root). */
  mailer: Mailer;
  /** The timers of the dispatcher and worker loops (tests pass a fake); the system's by default. */
  timers?: Timers;
  /** Overrides for tests. */
  resolveHost?: HostResolver;
  random?: () => number;
}

export interface Alerting {
  pipeline: AlertPipeline;
  destinations: DestinationsService;
  /** POST /webhooks/{id}/test. */
  testSend: DestinationTestSend;
  /** The Slack app (chatapp1_channel) install flow. */
  chatapp1Install: Chatapp1ChannelInstall;
  /** GET /incidents/{id}/deliveries. */
  incidentDeliveries: IncidentDeliveries;
  /** What the scheduled reports need to know about destinations and deliveries. */
  reportDeliveryFacts: ReportDeliveryFacts;
  /** The mailer it was given (the composition root's). */
  mailer: Mailer;
  /** Which of these ids are destinations of the organization (the silences module's check of its matchers). */
  destinationIdsIn(db: Database, organizationId: string, ids: readonly string[]): Promise<Set<string>>;
  /** Background roles for main.ts: fan-out and delivery. */
  roles: BackgroundRole[];
}

/** Builds the alerting module: secrets, providers, pipeline, services and roles. */
export function createAlerting(deps: AlertingDeps): Alerting {
  const { config, logger } = deps;
  const secrets = new DestinationSecrets(new SecretBox(deps.masterKey));
  const registry = createProviderRegistry();
  const mailer = deps.mailer;
  const providerContext = createProviderContext({
    providers: config.providers,
    publicUrl: config.publicUrl,
    version: deps.version,
    now: () => deps.clock.now(),
    mailer,
    ...(deps.reportFiles && { reportFiles: deps.reportFiles }),
    timeoutMs: config.alerting.sendTimeoutMs,
  });
  const pipeline = new AlertPipeline({
    database: deps.database,
    clock: deps.clock,
    logger,
    events: deps.events,
    orgs: deps.orgs,
    monitors: deps.monitors,
    registry,
    secrets,
    providerContext,
    publicUrl: config.publicUrl,
    allowPrivateTargets: config.network.allowPrivateTargets,
    leaseMs: config.alerting.leaseSeconds * 1000,
    pollMs: config.alerting.pollMs,
    ...(deps.resolveHost && { resolveHost: deps.resolveHost }),
    ...(deps.random && { random: deps.random }),
    metrics: deps.metrics ?? null,
    ...(deps.signals && { signals: deps.signals }),
    ...(deps.silences && { silences: deps.silences }),
    ...(deps.timers && { timers: deps.timers }),
  });
  // Events committed by any module of this process (and, with change signals on PostgreSQL, of any process) wake
  // the dispatcher at once instead of at the next poll; so do new deliveries the workers.
  deps.events.onRecorded(() => pipeline.nudge());
  deps.signals?.on(DELIVERIES_CHANGED, () => pipeline.nudgeWorkers());
  const monitorFacts: MonitorFactsOf = async (ids, db) =>
    (await deps.monitors.findManyAnywhere(ids, db)).map((m) => ({
      id: m.id,
      organizationId: m.organizationId,
      environment: m.environment,
    }));
  const views = new DestinationViews({
    registry,
    secrets,
    monitorFacts,
    ...(deps.destinationUsers && { users: deps.destinationUsers }),
  });
  const checks = new DestinationChecks({
    registry,
    views,
    allowPrivateTargets: config.network.allowPrivateTargets,
    ...(deps.resolveHost && { resolveHost: deps.resolveHost }),
  });
  const installRecords = new Chatapp1InstallRecords({ database: deps.database, secrets, clock: deps.clock });
  const slack = config.providers.chatapp1_channel;
  const chatapp1Install = new Chatapp1ChannelInstall({
    clientId: slack?.client_id ?? null,
    clientSecret: slack?.client_secret ?? null,
    publicUrl: config.publicUrl,
    baseUrl: providerContext.baseUrl('chatapp1_channel'),
    fetch: providerContext.fetch,
    clock: deps.clock,
    store: installRecords,
  });
  const destinations = new DestinationsService({
    registry,
    secrets,
    views,
    checks,
    installationSecret: (ctx, installationId) =>
      installRecords.installationSecret(ctx.db, ctx.actor.organizationId, installationId),
  });
  const testSend = new DestinationTestSend({ destinations, views, events: deps.events, pipeline });
  const roles: BackgroundRole[] = [pipeline.dispatcher, pipeline.workers];
  const incidentDeliveries = new IncidentDeliveries({ views });
  const reportDeliveryFacts = new ReportDeliveryFacts({ events: deps.events, views });
  return {
    pipeline,
    destinations,
    testSend,
    chatapp1Install,
    incidentDeliveries,
    reportDeliveryFacts,
    mailer,
    destinationIdsIn: (db, organizationId, ids) => new DestinationsRepository(db).existingIds(organizationId, ids),
    roles,
  };
}
