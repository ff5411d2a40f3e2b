import type { ConfigDocumentsService } from '../modules/config-documents/index.ts';
import type { TocsinConfig } from '../config/index.ts';
import type { Alerting } from '../modules/alerting/index.ts';
import type { AuditLog } from '../modules/audit/index.ts';
import type { ApiAccessServices, AuthService, SessionService } from '../modules/auth/index.ts';
import type { CheckEngineModule } from '../modules/checks/index.ts';
import type { ExecutionsService } from '../modules/checks/index.ts';
import type { RollupsService } from '../modules/checks/index.ts';
import type { EventsService } from '../modules/events/index.ts';
import type { IncidentsService } from '../modules/incidents/index.ts';
import type { IntelligenceService } from '../modules/intelligence/index.ts';
import type { LiveHub } from '../modules/live/index.ts';
import type { MaintenanceService } from '../modules/maintenance/index.ts';
import type { MonitorsService } from '../modules/monitors/index.ts';
import type { MembersService, OrgsService, Plans } from '../modules/orgs/index.ts';
import type {
  CustomReportsService,
  ReportRenderer,
  ReportsService,
  SlaTargetsService,
} from '../modules/reports/index.ts';
import type { ScheduledReports } from '../modules/scheduled-reports/index.ts';
import type { SilencesService } from '../modules/silences/index.ts';
import type {
  NoticesService,
  StatusPagesService,
  SubscriberDeliveriesRole,
  SubscribersService,
} from '../modules/status-pages/index.ts';
import type { BadgesService } from '../modules/badges/index.ts';
import type { Clock } from '../platform/clock.ts';
import type { Database } from '../platform/db/index.ts';
import type { Logger } from '../platform/logger.ts';
import type { TocsinMetrics } from '../platform/metrics/index.ts';

/** The services the HTTP layer calls; built by src/main.ts. */
export interface AppServices {
  orgs: OrgsService;
  /** Members, invitations, email verification and the organization's settings. */
  members: MembersService;
  auth: AuthService;
  /** People in the web app: first run, sign-in, sessions, password reset and invitation links. */
  sessions: SessionService;
  /** The live feed of this process (GET /api/v1/events/stream): one shared poller. */
  live: LiveHub;
  /** API access: key management, service accounts, rate limits, idempotency, usage. */
  apiAccess: ApiAccessServices;
  plans: Plans;
  monitors: MonitorsService;
  events: EventsService;
  /** Destinations, the alert pipeline and the deliveries. */
  alerting: Alerting;
  /** Check engine: schedule, runners, heartbeats. */
  checks: CheckEngineModule;
  /** Incidents: monitor outages, API incidents, reminders. */
  incidents: IncidentsService;
  /** Intelligence events (changes, anomalies, grades) and the monitors' grades. */
  intelligence: IntelligenceService;
  /** Status pages: CRUD and the public pages. */
  statusPages: StatusPagesService;
  /** Monitor badges (DECISIONS §18): tokens and what their public URLs show. */
  badges: BadgesService;
  notices: NoticesService;
  /** Subscribers of status pages: sign-up with double opt-in, unsubscribe, the owner's list (DECISIONS §18). */
  statusSubscribers: SubscribersService;
  /** The role that tells subscribers (fan-out and sends from the outbox); tests run its passes by hand. */
  statusSubscriberDeliveries: SubscriberDeliveriesRole;
  /** Maintenance windows (DECISIONS §16): CRUD, previews, who is in maintenance. */
  maintenance: MaintenanceService;
  /** Stored executions (listing, one execution). */
  executions: ExecutionsService;
  /** History from rollups / raw executions; daily uptime for status pages. */
  rollups: RollupsService;
  /** Availability, performance and SLA reports (JSON; CSV rendered by the routes). */
  reports: ReportsService;
  /** SLA targets CRUD. */
  slaTargets: SlaTargetsService;
  /** Scheduled reports: CRUD and run-now (service), the files of runs (files), the runner and its role. */
  scheduledReports: ScheduledReports;
  /** Every report kind as JSON, CSV or PDF. */
  reportRenderer: ReportRenderer;
  /** Custom reports CRUD and render. */
  customReports: CustomReportsService;
  /** The audit log (DECISIONS §21): recorders for ServiceContexts, the list and the CSV export. */
  audit: AuditLog;
  /** Silences (DECISIONS §16): CRUD, end early, mute a monitor. */
  silences: SilencesService;
  /** Configuration as code (DECISIONS §19): plan and apply a document. */
  configDocuments: ConfigDocumentsService;
}

export interface AppDeps {
  config: TocsinConfig;
  logger: Logger;
  clock: Clock;
  database: Database;
  services: AppServices;
  /** The process's metrics registry; null when `metrics.enabled` is off (then GET /metrics is 404). */
  metrics: TocsinMetrics | null;
  version: string;
}
