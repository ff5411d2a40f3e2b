import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { AppDeps } from './app.deps.ts';
import { installAuth } from './plugins/auth.plugin.ts';
import { installHttpMetrics } from './plugins/http-metrics.plugin.ts';
import { installIdempotency } from './plugins/idempotency.plugin.ts';
import { installInputSafety } from './plugins/input-safety.plugin.ts';
import { installRateLimit } from './plugins/rate-limit.plugin.ts';
import { installUsage } from './plugins/usage.plugin.ts';
import { registerAuditRoutes } from './routes/audit/audit.routes.ts';
import { registerApiKeyRoutes } from './routes/api-keys/api-keys.routes.ts';
import { registerServiceAccountRoutes } from './routes/service-accounts/service-accounts.routes.ts';
import { clientErrorHandler, frameworkErrors, installErrorHandling } from './plugins/errors.plugin.ts';
import { installOpenApi } from './plugins/openapi.plugin.ts';
import { installRequestContext, requestIdFor } from './plugins/request-context.plugin.ts';
import { installSerialization } from './plugins/serialization.plugin.ts';
import { installValidation } from './plugins/validation.plugin.ts';
import { installServiceContext } from './request-context.ts';
import { registerHeartbeatRoutes } from './routes/heartbeats/heartbeats.routes.ts';
import { registerDestinationRoutes } from './routes/destinations/destinations.routes.ts';
import { registerMemberRoutes } from './routes/members/members.routes.ts';
import { registerIncidentRoutes } from './routes/incidents/incidents.routes.ts';
import { registerIntelligenceRoutes } from './routes/intelligence/intelligence.routes.ts';
import { registerExecutionRoutes } from './routes/executions/executions.routes.ts';
import { registerHistoryRoutes } from './routes/history/history.routes.ts';
import { registerMonitorRoutes } from './routes/monitors/monitors.routes.ts';
import { registerOpenApiImportRoutes } from './routes/imports/openapi-import.routes.ts';
import { registerGrpcDiscoverRoutes } from './routes/imports/grpc-discover.routes.ts';
import { GrpcDiscovery, OpenApiParser } from '../modules/imports/index.ts';
import { systemResolver } from '../platform/net/index.ts';
import { registerStatusPageRoutes } from './routes/status-pages/status-pages.routes.ts';
import { registerStatuspageApiRoutes } from './routes/status-pages/statuspage-api.routes.ts';
import { registerBadgeRoutes } from './routes/badges/badges.routes.ts';
import { registerNoticeRoutes } from './routes/status-pages/notices.routes.ts';
import { registerStatusPageFeedRoutes } from './routes/status-pages/status-page-feeds.routes.ts';
import { CustomDomainRouter } from './routes/status-pages/custom-domains.ts';
import { registerStatusPageSubscriberRoutes } from './routes/status-pages/status-page-subscribers.routes.ts';
import { registerMonitorPeriodsRoutes } from './routes/history/periods.routes.ts';
import { registerReportRoutes } from './routes/reports/reports.routes.ts';
import { registerMoreReportRoutes } from './routes/reports/reports-more.routes.ts';
import { registerSilenceRoutes } from './routes/silences/silences.routes.ts';
import { installManagedByConfig } from './plugins/managed-by-config.plugin.ts';
import { registerConfigDocumentRoutes } from './routes/config-documents/config-documents.routes.ts';
import { registerSlaTargetRoutes } from './routes/sla-targets/sla-targets.routes.ts';
import { registerMaintenanceRoutes } from './routes/maintenance/maintenance.routes.ts';
import { registerScheduledReportRoutes } from './routes/scheduled-reports/scheduled-reports.routes.ts';
import { registerCustomReportRoutes } from './routes/custom-reports/custom-reports.routes.ts';
import { registerRunnerRoutes } from './routes/runners/runners.routes.ts';
import { registerMetricsRoute } from './routes/system/metrics.routes.ts';
import { registerSystemRoutes } from './routes/system/system.routes.ts';
import { registerAuthLinkRoutes } from './routes/sessions/auth-links.routes.ts';
import { registerSessionRoutes } from './routes/sessions/sessions.routes.ts';
import { registerMemberRoleRoutes } from './routes/sessions/member-role.routes.ts';
import { registerEventStreamRoutes } from './routes/events/events-stream.routes.ts';
import { loadWebBuild, WEB_DIST_DIR } from './routes/web/web.assets.ts';
import { browserNotFoundPage, registerWebRoutes } from './routes/web/web.routes.ts';
import { installLoopTurnBudget, LoopTurnBudget } from './loop-turn.budget.ts';

type LogMethod = FastifyBaseLogger['info'];
const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * The per-request logger, made only when something logs through it: Fastify otherwise builds a pino
 * child (bindings serialized through the redaction stringifiers) for every request, and most requests
 * never use it (the request line has its own logger). Same bindings, same redaction, when used.
 */
class LazyRequestLogger implements FastifyBaseLogger {
  private readonly parent: FastifyBaseLogger;
  private readonly bindings: Record<string, unknown>;
  private made: FastifyBaseLogger | undefined;
  declare fatal: LogMethod;
  declare error: LogMethod;
  declare warn: LogMethod;
  declare info: LogMethod;
  declare debug: LogMethod;
  declare trace: LogMethod;
  declare silent: LogMethod;
  constructor(parent: FastifyBaseLogger, bindings: Record<string, unknown>) {
    this.parent = parent;
    this.bindings = bindings;
  }
  real(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings));
  }
  get level(): string {
    return this.made ? this.made.level : this.parent.level;
  }
  set level(level: string) {
    this.real().level = level;
  }
  child(bindings: Record<string, unknown>, options?: Parameters<FastifyBaseLogger['child']>[1]): FastifyBaseLogger {
    return this.real().child(bindings, options);
  }
}
// The level methods live on the prototype: nothing is allocated per request but the instance.
for (const level of LEVELS) {
  LazyRequestLogger.prototype[level] = function (this: LazyRequestLogger, ...args: Parameters<LogMethod>) {
    this.real()[level](...args);
  } as LogMethod;
}

/**
 * Fastify reads a hop count as "trust nobody" (it cannot tell a proxy from a client); here it means what the
 * configuration says: the server is reached only through that many proxies, the nearest being the peer.
 */
function trustedProxies(
  trust: false | number | string[],
): false | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

/**
 * New requests start in an event-loop turn only while it has run less than this (loop-turn.budget.ts): the timers and
 * sockets of the check engine wait at most about this long behind the API at each step of a check.
 */
export const LOOP_TURN_BUDGET_MS = 10;
/** Requests waiting for a turn beyond this many are answered 503 with Retry-After (50 connections queue at most 50). */
export const LOOP_TURN_MAX_QUEUED = 1_000;

/** Builds the Fastify app for `tocsin serve` and for tests (which use app.inject or a real port). */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const customDomains = new CustomDomainRouter({
    load: () => deps.services.statusPages.customDomains(),
    clock: deps.clock,
    onError: (err) => deps.logger.warn({ err }, 'status pages: reading the custom domains failed'),
  });
  await customDomains.refresh();
  const app: FastifyInstance = Fastify({
    // A status page's custom domain (by Host) is served at its root: rewritten onto /status/{slug} before routing.
    rewriteUrl: (request) => customDomains.rewrite(request),
    loggerInstance: deps.logger as FastifyBaseLogger,
    // One line per request is written by the request-context plugin instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'reqId' }),
    genReqId: requestIdFor,
    childLoggerFactory: (logger, bindings, options) =>
      Object.keys(options).length === 0 ? new LazyRequestLogger(logger, bindings) : logger.child(bindings, options),
    bodyLimit: deps.config.http.bodyLimitBytes,
    // Fastify gives up on a plugin that has not loaded in 10 s: on a host saturated by other work (load 28 on 2 cores)
    // swagger-ui's did not, and the server failed to start. A slow start is better than none; a hang still ends.
    pluginTimeout: 120_000,
    // Forwarded headers only from the configured proxies (none by default): request.ip is what sign-in slow-down,
    // sessions and the audit log record.
    trustProxy: trustedProxies(deps.config.http.trustProxy),
    routerOptions: { ignoreTrailingSlash: true },
    forceCloseConnections: 'idle',
    keepAliveTimeout: deps.config.http.keepAliveTimeoutMs,
    requestTimeout: deps.config.http.requestTimeoutMs,
    http: {
      // Node answers an HTTP/1.1 request without Host by itself (bare 400); the request-context plugin refuses it
      // in the envelope instead.
      requireHostHeader: false,
      // A client slow to send its headers or its request is answered 408 and closed; Node checks open connections
      // every connectionsCheckingInterval, so a quarter of the shortest time-out keeps the overshoot small.
      headersTimeout: deps.config.http.headersTimeoutMs,
      requestTimeout: deps.config.http.requestTimeoutMs,
      connectionsCheckingInterval: Math.max(
        25,
        Math.min(1000, Math.floor(Math.min(deps.config.http.headersTimeoutMs, deps.config.http.requestTimeoutMs) / 4)),
      ),
    },
    // Errors written before routing or by Node's HTTP parser use the envelope and carry a request id too.
    frameworkErrors,
    clientErrorHandler,
    // The request-context plugin answers requests that arrive while closing (503 in the envelope).
    return503OnClosing: false,
  });

  // Each event-loop turn serves at most LOOP_TURN_BUDGET_MS of new requests: the checks share the loop.
  installLoopTurnBudget(
    app.server,
    new LoopTurnBudget({ budgetMs: LOOP_TURN_BUDGET_MS, maxQueued: LOOP_TURN_MAX_QUEUED }),
  );
  installInputSafety(app);
  installValidation(app);
  installSerialization(app);
  const webBuild = loadWebBuild(WEB_DIST_DIR);
  installErrorHandling(app, { browserNotFound: browserNotFoundPage(webBuild) });
  installRequestContext(app);
  installServiceContext(app, { database: deps.database, clock: deps.clock, audit: deps.services.audit });
  await installOpenApi(app, { version: deps.version, publicUrl: deps.config.publicUrl });
  installAuth(app, {
    auth: deps.services.auth,
    sessions: deps.services.sessions,
    plans: deps.services.plans,
    rateLimit: installRateLimit(app, {
      limiter: deps.services.apiAccess.rateLimiter,
      metrics: deps.metrics,
    }),
  });
  installIdempotency(app, {
    idempotency: deps.services.apiAccess.idempotency,
    metrics: deps.metrics,
  });
  installUsage(app, { usage: deps.services.apiAccess.usage, metrics: deps.metrics });
  installManagedByConfig(app, { configDocuments: deps.services.configDocuments });
  if (deps.metrics) {
    installHttpMetrics(app, deps.metrics);
    registerMetricsRoute(app, { metrics: deps.metrics, bearerToken: deps.config.metrics.bearerToken });
  }

  registerSystemRoutes(app, deps);
  registerMonitorRoutes(app, { monitors: deps.services.monitors, maintenance: deps.services.maintenance });
  const openApiParser = new OpenApiParser({
    maxOperations: deps.config.imports.openapiMaxOperations,
    timeoutMs: deps.config.imports.openapiTimeoutMs,
    threads: deps.config.imports.openapiThreads,
  });
  app.addHook('onClose', () => openApiParser.close());
  registerOpenApiImportRoutes(app, {
    monitors: deps.services.monitors,
    parser: openApiParser,
    bodyLimitBytes: deps.config.http.openapiParseBodyLimitBytes,
  });
  registerGrpcDiscoverRoutes(app, {
    discovery: new GrpcDiscovery({
      allowPrivateTargets: deps.config.network.allowPrivateTargets,
      resolver: systemResolver,
    }),
  });
  registerExecutionRoutes(app, deps.services);
  registerHistoryRoutes(app, deps.services);
  registerMonitorPeriodsRoutes(app, { reports: deps.services.reports });
  registerIncidentRoutes(app, deps.services);
  registerStatusPageRoutes(app, {
    statusPages: deps.services.statusPages,
    publicUrl: deps.config.publicUrl,
    customDomains,
  });
  registerStatuspageApiRoutes(app, { statusPages: deps.services.statusPages, publicUrl: deps.config.publicUrl });
  registerBadgeRoutes(app, { badges: deps.services.badges, publicUrl: deps.config.publicUrl });
  registerNoticeRoutes(app, { notices: deps.services.notices });
  registerStatusPageFeedRoutes(app, {
    statusPages: deps.services.statusPages,
    notices: deps.services.notices,
    publicUrl: deps.config.publicUrl,
  });
  registerStatusPageSubscriberRoutes(app, { subscribers: deps.services.statusSubscribers });
  registerReportRoutes(app, { renderer: deps.services.reportRenderer });
  registerMoreReportRoutes(app, { reports: deps.services.reports, renderer: deps.services.reportRenderer });
  registerSlaTargetRoutes(app, { slaTargets: deps.services.slaTargets });
  registerMaintenanceRoutes(app, { maintenance: deps.services.maintenance, monitors: deps.services.monitors });
  registerScheduledReportRoutes(app, {
    scheduledReports: deps.services.scheduledReports.service,
    reportFiles: deps.services.scheduledReports.files,
  });
  registerCustomReportRoutes(app, { customReports: deps.services.customReports });
  registerApiKeyRoutes(app, { apiKeys: deps.services.apiAccess.apiKeys, clock: deps.clock });
  registerServiceAccountRoutes(app, deps.services.apiAccess);
  registerDestinationRoutes(app, deps.services);
  registerMemberRoutes(app, deps.services);
  registerAuditRoutes(app, { audit: deps.services.audit });
  registerSilenceRoutes(app, { silences: deps.services.silences, clock: deps.clock });
  registerConfigDocumentRoutes(app, { configDocuments: deps.services.configDocuments });
  const sessionRoutes = { sessions: deps.services.sessions, clock: deps.clock, publicUrl: deps.config.publicUrl };
  registerSessionRoutes(app, sessionRoutes);
  registerAuthLinkRoutes(app, sessionRoutes);
  registerMemberRoleRoutes(app, sessionRoutes);
  registerEventStreamRoutes(app, { live: deps.services.live });
  registerRunnerRoutes(app, { checks: deps.services.checks, clock: deps.clock });
  registerHeartbeatRoutes(app, deps.services);
  registerIntelligenceRoutes(app, deps.services);
  registerWebRoutes(app, webBuild);

  await app.ready();
  return app;
}
