export const PLAN_NAMES = ['free', 'pro', 'team', 'enterprise'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

/** Limits of one plan; `null` means unlimited. */
export interface PlanLimits {
  monitors: number | null;
  interval_floor_seconds: number;
  regions: number | null;
  status_pages: number | null;
  reports: boolean;
  api: boolean;
}

export interface ProviderEndpoint {
  base_url?: string;
  base_url_eu?: string;
  /** chatapp1_channel (Slack app) OAuth client credentials. */
  client_id?: string;
  client_secret?: string;
}

export interface TocsinConfig {
  port: number;
  host: string;
  dataDir: string;
  /** postgres://… when set; otherwise SQLite at `${dataDir}/tocsin.db`. */
  databaseUrl: string | null;
  redisUrl: string | null;
  publicUrl: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Pretty logs for humans on a TTY; JSON otherwise. */
  logPretty: boolean;
  plans: Record<PlanName, PlanLimits>;
  defaultPlan: PlanName;
  regions: string[];
  defaultRegion: string;
  providers: Record<string, ProviderEndpoint>;
  smtp: string | null;
  smtpFrom: string;
  network: { allowPrivateTargets: boolean };
  /** 32-byte key (base64) for sealing secrets at rest; generated into the data dir when absent. */
  masterKey: string | null;
  retention: { executionsDays: number };
  /** `localRegions`: regions the in-process runner serves (default: the default region; [] = remote runners only). */
  scheduler: { enabled: boolean; leaseSeconds: number; concurrency: number; localRegions: string[] };
  /** Alert delivery: worker lease, per-request send timeout, idle poll interval. */
  alerting: { leaseSeconds: number; sendTimeoutMs: number; pollMs: number };
  /** How long a process holds a scheduled report's run (rendering it) before another may take it over. */
  scheduledReports: { leaseSeconds: number };
  /**
   * Report worker threads (0: reports are built on the main thread), how long one report may take there before
   * it is stopped (503), and how long a thread without a report is kept before it is stopped (0: until shutdown).
   */
  reports: { workers: number; timeoutSeconds: number; workerIdleSeconds: number };
  /**
   * OpenAPI parse and import: operations a description may have, how long its parse may run on its thread, and how
   * many parse threads run at once (docs/imports.md).
   */
  imports: { openapiMaxOperations: number; openapiTimeoutMs: number; openapiThreads: number };
  /** `tocsin runner`: the runner token when --token is not given (TOCSIN_RUNNER_TOKEN). */
  runnerToken: string | null;
  /**
   * `trustProxy`: whose X-Forwarded-For / -Proto / -Host are believed (false: nobody's; a hop count; proxy addresses
   * and CIDRs). Time-outs close slow and idle connections: all headers of a request, the whole request (not the
   * answer: event streams stay open), and an idle kept-alive connection.
   */
  http: {
    bodyLimitBytes: number;
    openapiParseBodyLimitBytes: number;
    trustProxy: false | number | string[];
    headersTimeoutMs: number;
    requestTimeoutMs: number;
    keepAliveTimeoutMs: number;
  };
  /** GET /metrics (Prometheus): off unless enabled; with a bearer token, scrapes must present it. */
  metrics: { enabled: boolean; bearerToken: string | null };
  /** Intelligence on checks (observations, baselines, changes, correlations): on unless disabled. */
  intelligence: { enabled: boolean };
  /**
   * Security grading (part of intelligence, off with it; file key `intelligence.grading_poll_seconds`): how often it
   * looks for https and tls monitors due a grading; its first look is this long after the start.
   */
  securityGrading: { pollSeconds: number };
}
