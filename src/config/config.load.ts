import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { redactText } from '../platform/redact.ts';
import type { Static, TSchema } from '@sinclair/typebox';
import { configProblem } from './config.check.ts';
import { DEFAULT_PLANS } from './config.defaults.ts';
import { ConfigFileSchema, flagValue, int, url } from './config.schema.ts';
import {
  PLAN_NAMES,
  type PlanLimits,
  type PlanName,
  type ProviderEndpoint,
  type TocsinConfig,
} from './config.types.ts';

/** A configuration value that cannot be used; the message names the key and what is allowed. */
export class ConfigError extends Error {
  readonly key: string;
  constructor(key: string, allowed: string, got: unknown) {
    // A value may be a URL with a password (DATABASE_URL) or a file error quoting one: never echo credentials.
    super(`configuration ${key}: ${allowed} (got ${redactText(JSON.stringify(got) ?? String(got))})`);
    this.key = key;
  }
}

type Env = Record<string, string | undefined>;
type Json = Record<string, unknown>;
type ConfigFile = Static<typeof ConfigFileSchema>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Refuses with the checker's problem, if any. */
function ensure(schema: TSchema, value: unknown, key?: string): void {
  const problem = configProblem(schema, value, key);
  if (problem) throw new ConfigError(problem.key, problem.allowed, problem.got);
}

/** A checked URL as Tocsin uses it: without trailing slashes. */
const trimmedUrl = (raw: string): string => raw.replace(/\/+$/, '');

/** The variables' schemas: as their file keys' (a variable is named in its errors). */
const ENV_SCHEMAS = {
  PORT: int(0, 65_535),
  DATABASE_URL: url(['postgres:', 'postgresql:']),
  REDIS_URL: url(['redis:', 'rediss:']),
  TOCSIN_PUBLIC_URL: url(['http:', 'https:']),
  SMTP_URL: url(['smtp:', 'smtps:']),
};

/** A variable's URL, checked, without trailing slashes. */
function envUrl(key: 'DATABASE_URL' | 'REDIS_URL' | 'TOCSIN_PUBLIC_URL' | 'SMTP_URL', raw: string): string {
  ensure(ENV_SCHEMAS[key], raw, key);
  return trimmedUrl(raw);
}

/** A variable holding an integer: variables are text, so a numeric one is read as its number, then checked. */
function envPort(raw: string): number {
  const key = 'PORT';
  const n = raw.trim() === '' ? raw : Number(raw);
  const problem = configProblem(ENV_SCHEMAS.PORT, n, key);
  if (problem) throw new ConfigError(key, problem.allowed, raw);
  return n as number;
}

function oneOf<T extends string>(key: string, raw: unknown, allowed: readonly T[]): T {
  if (typeof raw === 'string' && (allowed as readonly string[]).includes(raw)) return raw as T;
  throw new ConfigError(key, `one of ${allowed.join(', ')}`, raw);
}

function limitValue(raw: number | null | 'unlimited'): number | null {
  return raw === 'unlimited' ? null : raw;
}

function plansFrom(raw: ConfigFile['plans']): Record<PlanName, PlanLimits> {
  const plans = structuredClone(DEFAULT_PLANS);
  for (const name of PLAN_NAMES) {
    const given = raw?.[name];
    if (!given) continue;
    const target = plans[name];
    if (given.monitors !== undefined) target.monitors = limitValue(given.monitors);
    if (given.regions !== undefined) target.regions = limitValue(given.regions);
    if (given.status_pages !== undefined) target.status_pages = limitValue(given.status_pages);
    if (given.interval_floor_seconds !== undefined) target.interval_floor_seconds = given.interval_floor_seconds;
    if (given.reports !== undefined) target.reports = flagValue(given.reports);
    if (given.api !== undefined) target.api = flagValue(given.api);
  }
  return plans;
}

function providersFrom(raw: ConfigFile['providers']): TocsinConfig['providers'] {
  const out: TocsinConfig['providers'] = {};
  for (const [type, endpoint] of Object.entries(raw ?? {}) as Array<[string, ProviderEndpoint]>) {
    out[type] = {};
    for (const [field, value] of Object.entries(endpoint) as Array<[keyof ProviderEndpoint, string]>) {
      out[type][field] = field === 'base_url' || field === 'base_url_eu' ? trimmedUrl(value) : value;
    }
  }
  return out;
}

function readConfigFile(path: string | undefined, read: (p: string) => string): ConfigFile {
  if (!path) return {};
  let text: string;
  try {
    text = read(path);
  } catch (err) {
    throw new ConfigError('TOCSIN_CONFIG', 'a readable JSON file', `${path}: ${(err as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new ConfigError('TOCSIN_CONFIG', 'a file holding a JSON object', `${path}: ${(err as Error).message}`);
  }
  if (!isObject(parsed)) throw new ConfigError('TOCSIN_CONFIG', 'a file holding a JSON object', parsed);
  ensure(ConfigFileSchema, parsed);
  return parsed as ConfigFile;
}

export interface LoadConfigOptions {
  env?: Env;
  readFile?: (path: string) => string;
  isTty?: boolean;
}

/** Builds the one configuration object from the environment and the optional TOCSIN_CONFIG JSON file. */
export function loadConfig(options: LoadConfigOptions = {}): TocsinConfig {
  const env = options.env ?? process.env;
  const file = readConfigFile(env.TOCSIN_CONFIG, options.readFile ?? ((p) => readFileSync(p, 'utf8')));
  const port = env.PORT === undefined ? 3000 : envPort(env.PORT);
  const host = env.HOST === undefined || env.HOST === '' ? '0.0.0.0' : env.HOST;
  const dataDir = resolve(env.TOCSIN_DATA_DIR ?? './data');
  const databaseUrl = env.DATABASE_URL ? envUrl('DATABASE_URL', env.DATABASE_URL) : null;
  const redisUrl = env.REDIS_URL
    ? envUrl('REDIS_URL', env.REDIS_URL)
    : file.redis_url
      ? trimmedUrl(file.redis_url)
      : null;
  // A container is configured by its environment: the public URL and the mail relay have variables too.
  const publicUrl = env.TOCSIN_PUBLIC_URL
    ? envUrl('TOCSIN_PUBLIC_URL', env.TOCSIN_PUBLIC_URL)
    : file.public_url !== undefined
      ? trimmedUrl(file.public_url)
      : `http://${host === '0.0.0.0' || host === '::' ? 'localhost' : host}:${port}`;
  const plans = plansFrom(file.plans);
  const defaultPlan = file.default_plan ?? 'free';

  const regions = file.regions === undefined ? ['local'] : [...new Set(file.regions)];
  const defaultRegion =
    file.default_region === undefined ? regions[0]! : oneOf('default_region', file.default_region, regions);

  const scheduler = file.scheduler ?? {};
  let localRegions = [defaultRegion];
  if (scheduler.local_regions !== undefined) {
    const lr = scheduler.local_regions;
    if (!lr.every((r) => regions.includes(r))) {
      throw new ConfigError('scheduler.local_regions', `an array of configured regions (${regions.join(', ')})`, lr);
    }
    localRegions = [...new Set(lr)];
  }
  const smtp = env.SMTP_URL
    ? envUrl('SMTP_URL', env.SMTP_URL)
    : file.smtp === undefined || file.smtp === null
      ? null
      : trimmedUrl(file.smtp);
  const smtpFrom = env.SMTP_FROM || file.smtp_from || 'Tocsin <tocsin@localhost>';
  const logFormat = env.LOG_FORMAT ? oneOf('LOG_FORMAT', env.LOG_FORMAT, ['json', 'pretty'] as const) : null;
  const logLevel = env.LOG_LEVEL ?? file.log_level ?? 'info';
  ensure(ConfigFileSchema.properties.log_level, logLevel);

  // Empty means unset, as compose files pass `TOCSIN_MASTER_KEY: ${TOCSIN_MASTER_KEY:-}` when none is given.
  const masterKey = env.TOCSIN_MASTER_KEY || file.master_key;
  if (masterKey !== undefined && Buffer.from(masterKey, 'base64').length !== 32) {
    throw new ConfigError('master_key', 'a base64 string of 32 bytes', '<redacted>');
  }
  const alerting = file.alerting ?? {};
  const reports = file.reports ?? {};
  const imports = file.imports ?? {};
  const flagOr = (raw: boolean | string | undefined, fallback: boolean) =>
    raw === undefined ? fallback : flagValue(raw);

  return {
    port,
    host,
    dataDir,
    databaseUrl,
    redisUrl,
    publicUrl,
    logLevel: logLevel as TocsinConfig['logLevel'],
    logPretty: logFormat ? logFormat === 'pretty' : (options.isTty ?? Boolean(process.stdout.isTTY)),
    plans,
    defaultPlan,
    regions,
    defaultRegion,
    providers: providersFrom(file.providers),
    smtp,
    smtpFrom,
    network: { allowPrivateTargets: flagOr(file.network?.allow_private_targets, true) },
    masterKey: masterKey ?? null,
    retention: { executionsDays: file.retention?.executions_days ?? 30 },
    scheduler: {
      enabled: flagOr(scheduler.enabled, true),
      leaseSeconds: scheduler.lease_seconds ?? 30,
      concurrency: scheduler.concurrency ?? 200,
      localRegions,
    },
    runnerToken: env.TOCSIN_RUNNER_TOKEN || null,
    alerting: {
      leaseSeconds: alerting.lease_seconds ?? 60,
      sendTimeoutMs: alerting.send_timeout_ms ?? 15_000,
      pollMs: alerting.poll_ms ?? 100,
    },
    http: httpFrom(file.http),
    metrics: {
      enabled: flagOr(file.metrics?.enabled, false),
      bearerToken: file.metrics?.bearer_token ?? null,
    },
    intelligence: { enabled: flagOr(file.intelligence?.enabled, true) },
    securityGrading: { pollSeconds: file.intelligence?.grading_poll_seconds ?? 60 },
    scheduledReports: { leaseSeconds: file.scheduled_reports?.lease_seconds ?? 300 },
    reports: {
      workers: reports.workers ?? 1,
      timeoutSeconds: reports.timeout_seconds ?? 120,
      workerIdleSeconds: reports.worker_idle_seconds ?? 300,
    },
    imports: {
      openapiMaxOperations: imports.openapi_max_operations ?? 10_000,
      openapiTimeoutMs: imports.openapi_timeout_ms ?? 30_000,
      openapiThreads: imports.openapi_threads ?? 2,
    },
  };
}

/** Names proxy-addr knows for address ranges (loopback 127.0.0.1/8 and ::1, link-local, unique-local). */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** An address, an address/prefix, or one of the range names: what proxy-addr accepts in a trust list. */
function isProxyAddress(entry: unknown): boolean {
  if (typeof entry !== 'string') return false;
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * `http.trust_proxy`: false (the peer's address is the client's; forwarded headers are ignored), a hop count (that
 * many proxies in front, the nearest first), or the proxies' addresses and CIDRs. Never `true`: trusting every peer
 * lets any client choose the address that sign-in slow-down, sessions and the audit log record.
 */
function trustProxyFrom(raw: unknown): false | number | string[] {
  if (raw === undefined || raw === false || raw === 'false') return false;
  if (typeof raw === 'number') return raw;
  if (typeof raw === 'string' && /^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops >= 1 && hops <= 10) return hops;
  }
  const list = typeof raw === 'string' ? raw.split(',').map((x) => x.trim()) : raw;
  if (Array.isArray(list) && list.length > 0 && list.every(isProxyAddress)) return [...new Set(list as string[])];
  throw new ConfigError(
    'http.trust_proxy',
    'false, a hop count from 1 to 10, or a list of proxy addresses or CIDRs (or loopback, linklocal, uniquelocal)',
    raw,
  );
}

function httpFrom(http: ConfigFile['http'] = {}): TocsinConfig['http'] {
  const requestTimeoutMs = http.request_timeout_ms ?? 60_000;
  const headersTimeoutMs = http.headers_timeout_ms ?? Math.min(10_000, requestTimeoutMs);
  // Node refuses headers that may take longer than the whole request.
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ConfigError(
      'http.headers_timeout_ms',
      `at most http.request_timeout_ms (${requestTimeoutMs})`,
      headersTimeoutMs,
    );
  }
  return {
    bodyLimitBytes: 1024 * 1024,
    openapiParseBodyLimitBytes: 10 * 1024 * 1024,
    trustProxy: trustProxyFrom(http.trust_proxy),
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs: http.keep_alive_timeout_ms ?? 72_000,
  };
}
