import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { redactText } from '../platform/redact.ts';
import { DEFAULT_PLANS } from './config.defaults.ts';
import { PLAN_NAMES, type PlanLimits, type PlanName, type TocsinConfig } from './config.types.ts';

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

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const FILE_KEYS = [
  'public_url',
  'plans',
  'default_plan',
  'regions',
  'default_region',
  'providers',
  'smtp',
  'smtp_from',
  'network',
  'log_level',
  'master_key',
  'retention',
  'scheduler',
  'redis_url',
  'alerting',
  'metrics',
  'intelligence',
  'scheduled_reports',
  'reports',
  'imports',
  'http',
];

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function intFrom(key: string, raw: unknown, min: number, max: number): number {
  const n = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) {
    throw new ConfigError(key, `an integer from ${min} to ${max}`, raw);
  }
  return n;
}

function boolFrom(key: string, raw: unknown): boolean {
  if (typeof raw === 'boolean') return raw;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(key, 'true or false', raw);
}

function urlFrom(key: string, raw: unknown, protocols: string[]): string {
  if (typeof raw === 'string') {
    try {
      const u = new URL(raw);
      if (protocols.includes(u.protocol)) return raw.replace(/\/+$/, '');
    } catch {
      // reported below
    }
  }
  throw new ConfigError(
    key,
    `a URL with scheme ${protocols.map((p) => p.replace(':', '')).join(' or ')}`,
    withoutUserinfo(raw),
  );
}

/** An unusable URL may still carry a password before its `@`, even where it does not parse as a URL. */
function withoutUserinfo(raw: unknown): unknown {
  if (typeof raw !== 'string' || !raw.includes('@')) return raw;
  const scheme = /^[a-z][a-z0-9+.-]*:\/*/i.exec(raw)?.[0] ?? '';
  return `${scheme}[redacted]@${raw.slice(raw.lastIndexOf('@') + 1)}`;
}

function oneOf<T extends string>(key: string, raw: unknown, allowed: readonly T[]): T {
  if (typeof raw === 'string' && (allowed as readonly string[]).includes(raw)) return raw as T;
  throw new ConfigError(key, `one of ${allowed.join(', ')}`, raw);
}

function limitFrom(key: string, raw: unknown): number | null {
  if (raw === null || raw === 'unlimited') return null;
  return intFrom(key, raw, 0, 10_000_000);
}

function plansFrom(raw: unknown): Record<PlanName, PlanLimits> {
  const plans = structuredClone(DEFAULT_PLANS);
  if (raw === undefined) return plans;
  if (!isObject(raw)) throw new ConfigError('plans', 'an object keyed by plan name', raw);
  for (const [name, value] of Object.entries(raw)) {
    const plan = oneOf(`plans.${name}`, name, PLAN_NAMES);
    if (!isObject(value)) throw new ConfigError(`plans.${name}`, 'an object of plan limits', value);
    const target = plans[plan];
    for (const [field, v] of Object.entries(value)) {
      const key = `plans.${name}.${field}`;
      switch (field) {
        case 'monitors':
        case 'regions':
        case 'status_pages':
          target[field] = limitFrom(key, v);
          break;
        case 'interval_floor_seconds':
          target.interval_floor_seconds = intFrom(key, v, 1, 86_400);
          break;
        case 'reports':
        case 'api':
          target[field] = boolFrom(key, v);
          break;
        default:
          throw new ConfigError(
            key,
            'one of monitors, interval_floor_seconds, regions, status_pages, reports, api',
            field,
          );
      }
    }
  }
  return plans;
}

function providersFrom(raw: unknown): TocsinConfig['providers'] {
  if (raw === undefined) return {};
  if (!isObject(raw)) throw new ConfigError('providers', 'an object keyed by destination type', raw);
  const out: TocsinConfig['providers'] = {};
  for (const [type, value] of Object.entries(raw)) {
    if (!isObject(value)) throw new ConfigError(`providers.${type}`, 'an object with base_url', value);
    out[type] = {};
    for (const [field, v] of Object.entries(value)) {
      if (type === 'chatapp1_channel' && (field === 'client_id' || field === 'client_secret')) {
        if (typeof v !== 'string' || v.trim() === '') {
          throw new ConfigError(
            `providers.${type}.${field}`,
            'a non-empty string',
            field === 'client_secret' ? '<redacted>' : v,
          );
        }
        out[type][field] = v;
        continue;
      }
      if (field !== 'base_url' && field !== 'base_url_eu') {
        const allowed =
          type === 'chatapp1_channel' ? 'base_url, client_id or client_secret' : 'base_url or base_url_eu';
        throw new ConfigError(`providers.${type}.${field}`, allowed, field);
      }
      out[type][field] = urlFrom(`providers.${type}.${field}`, v, ['http:', 'https:']);
    }
  }
  return out;
}

function rejectUnknownKeys(prefix: string, value: Json, known: readonly string[]): void {
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) throw new ConfigError(`${prefix}.${key}`, `a known key (${known.join(', ')})`, key);
  }
}

function readConfigFile(path: string | undefined, read: (p: string) => string): Json {
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
  for (const key of Object.keys(parsed)) {
    if (!FILE_KEYS.includes(key)) throw new ConfigError(key, `a known key (${FILE_KEYS.join(', ')})`, key);
  }
  return parsed;
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
  const port = intFrom('PORT', env.PORT ?? 3000, 0, 65_535);
  const host = env.HOST === undefined || env.HOST === '' ? '0.0.0.0' : env.HOST;
  const dataDir = resolve(env.TOCSIN_DATA_DIR ?? './data');
  const databaseUrl = env.DATABASE_URL ? urlFrom('DATABASE_URL', env.DATABASE_URL, ['postgres:', 'postgresql:']) : null;
  const redisRaw = env.REDIS_URL ?? file.redis_url;
  const redisUrl =
    redisRaw === undefined || redisRaw === ''
      ? null
      : urlFrom(env.REDIS_URL ? 'REDIS_URL' : 'redis_url', redisRaw, ['redis:', 'rediss:']);
  // A container is configured by its environment: the public URL and the mail relay have variables too.
  const publicUrl = env.TOCSIN_PUBLIC_URL
    ? urlFrom('TOCSIN_PUBLIC_URL', env.TOCSIN_PUBLIC_URL, ['http:', 'https:'])
    : file.public_url !== undefined
      ? urlFrom('public_url', file.public_url, ['http:', 'https:'])
      : `http://${host === '0.0.0.0' || host === '::' ? 'localhost' : host}:${port}`;
  const plans = plansFrom(file.plans);
  const defaultPlan = oneOf('default_plan', file.default_plan ?? 'free', PLAN_NAMES);

  let regions = ['local'];
  if (file.regions !== undefined) {
    const ok =
      Array.isArray(file.regions) &&
      file.regions.length > 0 &&
      file.regions.every((r) => typeof r === 'string' && /^[a-z0-9][a-z0-9-]{0,31}$/.test(r));
    if (!ok) throw new ConfigError('regions', 'a non-empty array of region codes like "eu-west"', file.regions);
    regions = [...new Set(file.regions as string[])];
  }
  const defaultRegion =
    file.default_region === undefined ? regions[0]! : oneOf('default_region', file.default_region, regions);

  const network = file.network ?? {};
  if (!isObject(network)) throw new ConfigError('network', 'an object', network);
  rejectUnknownKeys('network', network, ['allow_private_targets']);
  const allowPrivateTargets =
    network.allow_private_targets === undefined
      ? true
      : boolFrom('network.allow_private_targets', network.allow_private_targets);

  const retention = file.retention ?? {};
  if (!isObject(retention)) throw new ConfigError('retention', 'an object', retention);
  rejectUnknownKeys('retention', retention, ['executions_days']);
  const scheduler = file.scheduler ?? {};
  if (!isObject(scheduler)) throw new ConfigError('scheduler', 'an object', scheduler);
  rejectUnknownKeys('scheduler', scheduler, ['enabled', 'lease_seconds', 'concurrency', 'local_regions']);
  let localRegions = [defaultRegion];
  if (scheduler.local_regions !== undefined) {
    const lr = scheduler.local_regions;
    if (!Array.isArray(lr) || !lr.every((r) => typeof r === 'string' && regions.includes(r))) {
      throw new ConfigError('scheduler.local_regions', `an array of configured regions (${regions.join(', ')})`, lr);
    }
    localRegions = [...new Set(lr as string[])];
  }
  const alerting = file.alerting ?? {};
  if (!isObject(alerting)) throw new ConfigError('alerting', 'an object', alerting);
  rejectUnknownKeys('alerting', alerting, ['lease_seconds', 'send_timeout_ms', 'poll_ms']);
  if (file.smtp_from !== undefined && (typeof file.smtp_from !== 'string' || file.smtp_from.trim() === '')) {
    throw new ConfigError('smtp_from', 'a non-empty string such as "Tocsin <alerts@example.com>"', file.smtp_from);
  }
  const smtp = env.SMTP_URL
    ? urlFrom('SMTP_URL', env.SMTP_URL, ['smtp:', 'smtps:'])
    : file.smtp === undefined || file.smtp === null
      ? null
      : urlFrom('smtp', file.smtp, ['smtp:', 'smtps:']);
  const smtpFrom = env.SMTP_FROM || (typeof file.smtp_from === 'string' ? file.smtp_from : 'Tocsin <tocsin@localhost>');
  const metrics = metricsFrom(file.metrics);
  const intelligence = file.intelligence ?? {};
  if (!isObject(intelligence)) throw new ConfigError('intelligence', 'an object', intelligence);
  rejectUnknownKeys('intelligence', intelligence, ['enabled']);
  const scheduledReports = file.scheduled_reports ?? {};
  if (!isObject(scheduledReports)) throw new ConfigError('scheduled_reports', 'an object', scheduledReports);
  rejectUnknownKeys('scheduled_reports', scheduledReports, ['lease_seconds']);
  const reports = file.reports ?? {};
  if (!isObject(reports)) throw new ConfigError('reports', 'an object', reports);
  rejectUnknownKeys('reports', reports, ['workers', 'timeout_seconds', 'worker_idle_seconds']);
  const imports = file.imports ?? {};
  if (!isObject(imports)) throw new ConfigError('imports', 'an object', imports);
  rejectUnknownKeys('imports', imports, ['openapi_max_operations', 'openapi_timeout_ms', 'openapi_threads']);
  const logFormat = env.LOG_FORMAT ? oneOf('LOG_FORMAT', env.LOG_FORMAT, ['json', 'pretty'] as const) : null;

  // Empty means unset, as compose files pass `TOCSIN_MASTER_KEY: ${TOCSIN_MASTER_KEY:-}` when none is given.
  const masterKey = env.TOCSIN_MASTER_KEY || file.master_key;
  if (masterKey !== undefined && (typeof masterKey !== 'string' || Buffer.from(masterKey, 'base64').length !== 32)) {
    throw new ConfigError('master_key', 'a base64 string of 32 bytes', '<redacted>');
  }

  return {
    port,
    host,
    dataDir,
    databaseUrl,
    redisUrl,
    publicUrl,
    logLevel: oneOf('LOG_LEVEL', env.LOG_LEVEL ?? file.log_level ?? 'info', LOG_LEVELS),
    logPretty: logFormat ? logFormat === 'pretty' : (options.isTty ?? Boolean(process.stdout.isTTY)),
    plans,
    defaultPlan,
    regions,
    defaultRegion,
    providers: providersFrom(file.providers),
    smtp,
    smtpFrom,
    network: { allowPrivateTargets },
    masterKey: masterKey ?? null,
    retention: {
      executionsDays:
        retention.executions_days === undefined
          ? 30
          : intFrom('retention.executions_days', retention.executions_days, 1, 3650),
    },
    scheduler: {
      enabled: scheduler.enabled === undefined ? true : boolFrom('scheduler.enabled', scheduler.enabled),
      leaseSeconds:
        scheduler.lease_seconds === undefined
          ? 30
          : intFrom('scheduler.lease_seconds', scheduler.lease_seconds, 2, 3600),
      concurrency:
        scheduler.concurrency === undefined ? 200 : intFrom('scheduler.concurrency', scheduler.concurrency, 1, 10_000),
      localRegions,
    },
    runnerToken: env.TOCSIN_RUNNER_TOKEN || null,
    alerting: {
      leaseSeconds:
        alerting.lease_seconds === undefined ? 60 : intFrom('alerting.lease_seconds', alerting.lease_seconds, 2, 3600),
      sendTimeoutMs:
        alerting.send_timeout_ms === undefined
          ? 15_000
          : intFrom('alerting.send_timeout_ms', alerting.send_timeout_ms, 100, 120_000),
      pollMs: alerting.poll_ms === undefined ? 100 : intFrom('alerting.poll_ms', alerting.poll_ms, 10, 60_000),
    },
    http: httpFrom(file.http),
    metrics,
    intelligence: {
      enabled: intelligence.enabled === undefined ? true : boolFrom('intelligence.enabled', intelligence.enabled),
    },
    scheduledReports: {
      leaseSeconds:
        scheduledReports.lease_seconds === undefined
          ? 300
          : intFrom('scheduled_reports.lease_seconds', scheduledReports.lease_seconds, 2, 86_400),
    },
    reports: {
      workers: reports.workers === undefined ? 1 : intFrom('reports.workers', reports.workers, 0, 16),
      timeoutSeconds:
        reports.timeout_seconds === undefined
          ? 120
          : intFrom('reports.timeout_seconds', reports.timeout_seconds, 5, 3600),
      workerIdleSeconds:
        reports.worker_idle_seconds === undefined
          ? 300
          : intFrom('reports.worker_idle_seconds', reports.worker_idle_seconds, 0, 86_400),
    },
    imports: {
      openapiMaxOperations:
        imports.openapi_max_operations === undefined
          ? 10_000
          : intFrom('imports.openapi_max_operations', imports.openapi_max_operations, 1, 20_000),
      openapiTimeoutMs:
        imports.openapi_timeout_ms === undefined
          ? 30_000
          : intFrom('imports.openapi_timeout_ms', imports.openapi_timeout_ms, 10, 600_000),
      openapiThreads:
        imports.openapi_threads === undefined ? 2 : intFrom('imports.openapi_threads', imports.openapi_threads, 1, 16),
    },
  };
}

function metricsFrom(raw: unknown): TocsinConfig['metrics'] {
  const metrics = raw ?? {};
  if (!isObject(metrics)) throw new ConfigError('metrics', 'an object', metrics);
  rejectUnknownKeys('metrics', metrics, ['enabled', 'bearer_token']);
  const token = metrics.bearer_token;
  // Sent in an Authorization header: visible ASCII only; long enough not to be guessed.
  if (token !== undefined && (typeof token !== 'string' || !/^[\x21-\x7e]{16,512}$/.test(token))) {
    throw new ConfigError('metrics.bearer_token', 'a string of 16 to 512 visible ASCII characters', '<redacted>');
  }
  return {
    enabled: metrics.enabled === undefined ? false : boolFrom('metrics.enabled', metrics.enabled),
    bearerToken: token ?? null,
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
  if (typeof raw === 'number' || (typeof raw === 'string' && /^\d+$/.test(raw))) {
    return intFrom('http.trust_proxy', raw, 1, 10);
  }
  const list = typeof raw === 'string' ? raw.split(',').map((x) => x.trim()) : raw;
  if (Array.isArray(list) && list.length > 0 && list.every(isProxyAddress)) return [...new Set(list as string[])];
  throw new ConfigError(
    'http.trust_proxy',
    'false, a hop count from 1 to 10, or a list of proxy addresses or CIDRs (or loopback, linklocal, uniquelocal)',
    raw,
  );
}

function httpFrom(raw: unknown): TocsinConfig['http'] {
  const http = raw ?? {};
  if (!isObject(http)) throw new ConfigError('http', 'an object', http);
  rejectUnknownKeys('http', http, ['trust_proxy', 'headers_timeout_ms', 'request_timeout_ms', 'keep_alive_timeout_ms']);
  const ms = (key: string, fallback: number, min: number): number =>
    http[key] === undefined ? fallback : intFrom(`http.${key}`, http[key], min, 3_600_000);
  const requestTimeoutMs = ms('request_timeout_ms', 60_000, 100);
  const headersTimeoutMs = ms('headers_timeout_ms', Math.min(10_000, requestTimeoutMs), 100);
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
    keepAliveTimeoutMs: ms('keep_alive_timeout_ms', 72_000, 100),
  };
}
