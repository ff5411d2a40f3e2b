import { isIP } from 'node:net';
import type { ErrorDetail } from '../../platform/errors.ts';
import { caCertificateIssue } from './ca-certificate.validation.ts';
import { heartbeatConfig } from './heartbeat.validation.ts';
import { defaultName, parseHostPort, targetIssue } from './monitor.targets.ts';
import {
  DATABASE_TLS_MODES,
  HTTP_METHODS,
  SMTP_TLS_MODES,
  type CommonConfig,
  type MonitorConfig,
  type MonitorInput,
  type MonitorType,
} from './monitor.types.ts';

/** Validates one assertion and returns its problems; supplied by the checks module (it owns assertion kinds). */
export type AssertionValidator = (assertion: unknown, field: string) => ErrorDetail[];

export interface ValidationContext {
  regions: readonly string[];
  defaultRegion: string;
  /** Interval used when none is given: the plan floor. */
  defaultIntervalSeconds: number;
  defaultEnvironment: string;
  validateAssertion: AssertionValidator;
  /** The clock's now (epoch ms): where a heartbeat cron's fires are sampled from. */
  now?: () => number;
}

export interface ValidMonitorFields {
  name: string;
  type: MonitorType;
  target: string;
  interval_seconds: number;
  region_codes: string[];
  tags: string[];
  environment: string;
  config: MonitorConfig & Record<string, unknown>;
  paused: boolean;
}

const COMMON_KEYS = [
  'timeout_ms',
  'failure_threshold',
  'success_threshold',
  'confirm_regions',
  'alert_destination_ids',
  'alert_latency_ms',
  'reminder_interval_minutes',
  'intelligence_incidents',
  'depends_on',
  'degraded_latency_ms',
] as const;

/** postgres, mysql and redis (DECISIONS §20): login, TLS, an optional query and the value it must return. */
const DATABASE_KEYS = [
  'username',
  'password',
  'database',
  'tls_mode',
  'ca_certificate',
  'query',
  'expected_value',
  'assertions',
] as const;

/** The config keys of each type besides the common ones (the route schemas list the same keys per type). */
const TYPE_KEYS: Record<MonitorType, readonly string[]> = {
  http: [
    'method',
    'headers',
    'body',
    'follow_redirects',
    'verify_tls',
    'ca_certificate',
    'assertions',
    'content_ignore_patterns',
  ],
  tls: ['alert_days_before_expiry', 'verify_tls', 'ca_certificate'],
  tcp: [],
  dns: ['record_type', 'resolver', 'expected'],
  grpc: ['tls', 'service', 'method', 'request', 'metadata', 'expected_status', 'assertions'],
  heartbeat: ['grace_seconds', 'schedule', 'max_run_seconds', 'slug'],
  icmp: ['count', 'max_loss_percent', 'assertions'],
  udp: ['send', 'send_encoding', 'expect', 'assertions'],
  domain: ['alert_days_before_expiry', 'rdap_base_url'],
  smtp: ['tls_mode', 'verify_tls', 'ca_certificate', 'alert_days_before_expiry', 'assertions'],
  websocket: ['headers', 'send', 'expect', 'verify_tls', 'ca_certificate', 'assertions'],
  postgres: DATABASE_KEYS,
  mysql: DATABASE_KEYS,
  redis: DATABASE_KEYS,
};

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/;

/** `null` in a config field means "back to the default". */
function valueOr<T>(config: Record<string, unknown>, key: string, fallback: T): T {
  const value = config[key];
  return value === undefined || value === null ? fallback : (value as T);
}

function given(config: Record<string, unknown>, key: string): boolean {
  return config[key] !== undefined && config[key] !== null;
}

/** Keys kept only when given, so monitors created before the key existed keep their exact config. */
function optionalKeys(config: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => given(config, k)).map((k) => [k, config[k]]));
}

function commonConfig(c: Record<string, unknown>, regionCount: number, details: ErrorDetail[]): CommonConfig {
  const confirm = valueOr<number | null>(c, 'confirm_regions', null);
  if (confirm !== null && confirm > regionCount) {
    details.push({
      field: 'config.confirm_regions',
      issue: `must not exceed the number of regions (${regionCount})`,
    });
  }
  const timeout = valueOr(c, 'timeout_ms', 10_000);
  const degradedLatency = valueOr<number | null>(c, 'degraded_latency_ms', null);
  if (degradedLatency !== null && degradedLatency >= timeout) {
    // A check that takes the whole timeout fails: a latency at or over it could never be merely slow.
    details.push({
      field: 'config.degraded_latency_ms',
      issue: `must be less than config.timeout_ms (${timeout})`,
    });
  }
  return {
    timeout_ms: timeout,
    failure_threshold: valueOr(c, 'failure_threshold', 2),
    success_threshold: valueOr(c, 'success_threshold', 1),
    confirm_regions: confirm,
    alert_destination_ids: valueOr<string[]>(c, 'alert_destination_ids', []),
    alert_latency_ms: valueOr(c, 'alert_latency_ms', null),
    reminder_interval_minutes: valueOr(c, 'reminder_interval_minutes', null),
    ...optionalKeys(c, ['intelligence_incidents', 'depends_on', 'degraded_latency_ms']),
  };
}

/** http and tls: a given `ca_certificate` must be PEM certificates that parse as X.509 (no key, ≤ 64 KiB). */
function checkCaCertificate(c: Record<string, unknown>, details: ErrorDetail[]): void {
  const issue = given(c, 'ca_certificate') ? caCertificateIssue(c.ca_certificate) : null;
  if (issue !== null) details.push({ field: 'config.ca_certificate', issue });
}

/** A pattern intelligence can compile (with the g flag). */
function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern, 'g');
    return true;
  } catch {
    return false;
  }
}

const GRPC_METHOD = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*\/[A-Za-z_][A-Za-z0-9_]*$/;

function httpConfig(c: Record<string, unknown>, ctx: ValidationContext, details: ErrorDetail[]) {
  // A PATCH's schema takes either type's `method` (the key is shared with grpc): the type decides here.
  if (given(c, 'method') && !(HTTP_METHODS as readonly unknown[]).includes(c.method)) {
    details.push({ field: 'config.method', issue: `must be one of ${HTTP_METHODS.join(', ')}` });
  }
  const headers = valueOr<Record<string, string>>(c, 'headers', {});
  for (const name of Object.keys(headers)) {
    if (!HEADER_NAME.test(name)) details.push({ field: `config.headers.${name}`, issue: 'is not a valid header name' });
  }
  checkCaCertificate(c, details);
  const assertions = valueOr<unknown[]>(c, 'assertions', []);
  assertions.forEach((a, i) => details.push(...ctx.validateAssertion(a, `config.assertions[${i}]`)));
  valueOr<string[]>(c, 'content_ignore_patterns', []).forEach((pattern, i) => {
    if (!compiles(pattern)) {
      details.push({
        field: `config.content_ignore_patterns[${i}]`,
        issue: 'must be a regular expression of 1 to 200 characters',
      });
    }
  });
  return {
    method: valueOr(c, 'method', 'GET'),
    headers,
    body: valueOr(c, 'body', null),
    follow_redirects: valueOr(c, 'follow_redirects', true),
    verify_tls: valueOr(c, 'verify_tls', true),
    assertions,
    ...optionalKeys(c, ['content_ignore_patterns', 'ca_certificate']),
  };
}

/** gRPC metadata keys: lower case (HTTP/2), not binary (`-bin`), not the protocol's own. */
const METADATA_KEY = /^[0-9a-z_.-]{1,128}$/;
const RESERVED_METADATA = /^(grpc-|:)|^(content-type|te|user-agent|host|authority)$|-bin$/;
const REQUEST_MAX_CHARS = 65_536;
/** Assertions a method's response can answer (no HTTP status, headers or raw body). */
const GRPC_ASSERTION_TYPES = new Set(['json', 'response_time']);

function grpcConfig(c: Record<string, unknown>, ctx: ValidationContext, details: ErrorDetail[]) {
  const method = valueOr<string | null>(c, 'method', null);
  if (method !== null && !GRPC_METHOD.test(method)) {
    details.push({ field: 'config.method', issue: 'must be package.Service/Method' });
  }
  for (const key of ['request', 'expected_status', 'assertions']) {
    if (given(c, key) && method === null) details.push({ field: `config.${key}`, issue: 'needs config.method' });
  }
  const metadata = valueOr<Record<string, string>>(c, 'metadata', {});
  for (const key of Object.keys(metadata)) {
    if (!METADATA_KEY.test(key)) {
      details.push({ field: `config.metadata.${key}`, issue: 'must be a lower-case metadata key (a-z 0-9 _ . -)' });
    } else if (RESERVED_METADATA.test(key)) {
      details.push({ field: `config.metadata.${key}`, issue: 'is set by the gRPC protocol, or binary' });
    }
  }
  const request = valueOr<Record<string, unknown>>(c, 'request', {});
  if (JSON.stringify(request).length > REQUEST_MAX_CHARS) {
    details.push({ field: 'config.request', issue: `must be at most ${REQUEST_MAX_CHARS} characters as JSON` });
  }
  const assertions = valueOr<Array<Record<string, unknown>>>(c, 'assertions', []);
  assertions.forEach((a, i) => {
    const field = `config.assertions[${i}]`;
    if (!GRPC_ASSERTION_TYPES.has(String(a.type))) {
      details.push({ field: `${field}.type`, issue: 'must be json or response_time for a gRPC method' });
    } else details.push(...ctx.validateAssertion(a, field));
  });
  return {
    tls: valueOr(c, 'tls', false),
    service: valueOr(c, 'service', ''),
    ...(method !== null && {
      method,
      request,
      expected_status: valueOr(c, 'expected_status', 'OK'),
      assertions,
    }),
    ...optionalKeys(c, ['metadata']),
  };
}

/**
 * Assertions an smtp, websocket or database check can answer: its time, and its text (the banner, the first message,
 * the value read).
 */
const TEXT_ASSERTION_TYPES = new Set(['response_time', 'body']);

function textAssertions(c: Record<string, unknown>, ctx: ValidationContext, what: string, details: ErrorDetail[]) {
  const assertions = valueOr<Array<Record<string, unknown>>>(c, 'assertions', []);
  assertions.forEach((a, i) => {
    const field = `config.assertions[${i}]`;
    if (!TEXT_ASSERTION_TYPES.has(String(a.type))) {
      details.push({ field: `${field}.type`, issue: `must be body or response_time for ${what}` });
    } else details.push(...ctx.validateAssertion(a, field));
  });
  return assertions;
}

function smtpConfig(c: Record<string, unknown>, ctx: ValidationContext, details: ErrorDetail[]) {
  // A PATCH's schema takes the database types' tls_mode values too: the type decides here.
  if (given(c, 'tls_mode') && !(SMTP_TLS_MODES as readonly unknown[]).includes(c.tls_mode))
    details.push({ field: 'config.tls_mode', issue: `must be one of ${SMTP_TLS_MODES.join(', ')}` });
  checkCaCertificate(c, details);
  return {
    tls_mode: valueOr(c, 'tls_mode', 'none'),
    alert_days_before_expiry: valueOr(c, 'alert_days_before_expiry', 14),
    assertions: textAssertions(c, ctx, 'an smtp monitor (body reads the banner)', details),
    ...optionalKeys(c, ['verify_tls', 'ca_certificate']),
  };
}

/** Headers the WebSocket handshake sets itself. */
const WEBSOCKET_OWN_HEADERS = new Set([
  'host',
  'upgrade',
  'connection',
  'sec-websocket-key',
  'sec-websocket-version',
  'sec-websocket-extensions',
  'content-length',
  'transfer-encoding',
]);

function websocketConfig(c: Record<string, unknown>, ctx: ValidationContext, details: ErrorDetail[]) {
  const headers = valueOr<Record<string, string>>(c, 'headers', {});
  for (const name of Object.keys(headers)) {
    if (!HEADER_NAME.test(name)) details.push({ field: `config.headers.${name}`, issue: 'is not a valid header name' });
    else if (WEBSOCKET_OWN_HEADERS.has(name.toLowerCase()))
      details.push({ field: `config.headers.${name}`, issue: 'is set by the WebSocket handshake' });
  }
  checkCaCertificate(c, details);
  return {
    headers,
    send: valueOr(c, 'send', null),
    expect: valueOr(c, 'expect', null),
    verify_tls: valueOr(c, 'verify_tls', true),
    assertions: textAssertions(c, ctx, 'a websocket monitor (body reads the first message)', details),
    ...optionalKeys(c, ['ca_certificate']),
  };
}

function databaseConfig(
  type: 'postgres' | 'mysql' | 'redis',
  c: Record<string, unknown>,
  ctx: ValidationContext,
  details: ErrorDetail[],
) {
  // A PATCH's schema takes any type's values for shared keys: the type decides here.
  if (given(c, 'tls_mode') && !(DATABASE_TLS_MODES as readonly unknown[]).includes(c.tls_mode))
    details.push({ field: 'config.tls_mode', issue: `must be one of ${DATABASE_TLS_MODES.join(', ')}` });
  checkCaCertificate(c, details);
  if (type !== 'redis' && given(c, 'expected_value') && !given(c, 'query'))
    details.push({ field: 'config.expected_value', issue: 'needs config.query' });
  if (type === 'redis' && given(c, 'database') && !/^\d{1,5}$/.test(String(c.database)))
    details.push({ field: 'config.database', issue: 'must be a database index (0, 1, …) for redis' });
  if (given(c, 'query') && String(c.query).trim() === '')
    details.push({ field: 'config.query', issue: 'must not be blank' });
  const assertions = textAssertions(c, ctx, `a ${type} monitor`, details);
  return {
    tls_mode: valueOr(c, 'tls_mode', 'disable'),
    ...optionalKeys(c, ['username', 'password', 'database', 'ca_certificate', 'query', 'expected_value']),
    ...(assertions.length > 0 && { assertions }),
  };
}

function typeConfig(
  type: MonitorType,
  c: Record<string, unknown>,
  ctx: ValidationContext,
  interval: number,
  details: ErrorDetail[],
): Record<string, unknown> {
  switch (type) {
    case 'http':
      return httpConfig(c, ctx, details);
    case 'tls':
      checkCaCertificate(c, details);
      return {
        alert_days_before_expiry: valueOr(c, 'alert_days_before_expiry', 14),
        ...optionalKeys(c, ['verify_tls', 'ca_certificate']),
      };
    case 'tcp':
      return {};
    case 'dns': {
      const resolver = valueOr<string | null>(c, 'resolver', null);
      if (resolver !== null && isIP(resolver) === 0 && !parseHostPort(resolver)) {
        details.push({ field: 'config.resolver', issue: 'must be an IP address, optionally with :port' });
      }
      return { record_type: valueOr(c, 'record_type', 'A'), resolver, expected: valueOr(c, 'expected', []) };
    }
    case 'grpc':
      return grpcConfig(c, ctx, details);
    case 'heartbeat':
      return heartbeatConfig(c, interval, ctx.defaultIntervalSeconds, ctx.now?.() ?? Date.now(), details);
    case 'icmp':
      return icmpConfig(c, ctx, details);
    case 'udp':
      return udpConfig(c, ctx, details);
    case 'domain':
      return domainConfig(c, details);
    case 'smtp':
      return smtpConfig(c, ctx, details);
    case 'websocket':
      return websocketConfig(c, ctx, details);
    case 'postgres':
    case 'mysql':
    case 'redis':
      return databaseConfig(type, c, ctx, details);
  }
}

/** Only the assertion kinds a type's answer can be judged by (an icmp reply has no status, headers or body). */
function typedAssertions(
  c: Record<string, unknown>,
  ctx: ValidationContext,
  details: ErrorDetail[],
  allowed: readonly string[],
  type: string,
): Array<Record<string, unknown>> {
  const assertions = valueOr<Array<Record<string, unknown>>>(c, 'assertions', []);
  assertions.forEach((a, i) => {
    const field = `config.assertions[${i}]`;
    if (!allowed.includes(String(a.type))) {
      details.push({ field: `${field}.type`, issue: `must be ${allowed.join(' or ')} for ${type} monitors` });
    } else details.push(...ctx.validateAssertion(a, field));
  });
  return assertions;
}

const ICMP_INTERVAL_MS = 200;

function icmpConfig(c: Record<string, unknown>, ctx: ValidationContext, details: ErrorDetail[]) {
  const count = valueOr(c, 'count', 3);
  const timeout = valueOr(c, 'timeout_ms', 10_000);
  // The requests go out 200 ms apart and the last one needs time to come back (a second at least).
  if ((count - 1) * ICMP_INTERVAL_MS + 1000 > timeout) {
    details.push({
      field: 'config.count',
      issue: `needs config.timeout_ms of at least ${(count - 1) * ICMP_INTERVAL_MS + 1000} (requests go 200 ms apart)`,
    });
  }
  return {
    count,
    max_loss_percent: valueOr(c, 'max_loss_percent', 50),
    assertions: typedAssertions(c, ctx, details, ['response_time'], 'icmp'),
  };
}

function udpConfig(c: Record<string, unknown>, ctx: ValidationContext, details: ErrorDetail[]) {
  const send = valueOr(c, 'send', '');
  const encoding = valueOr<string>(c, 'send_encoding', 'text');
  if (encoding === 'hex' && !/^([0-9a-fA-F]{2}|\s)*$/.test(send))
    details.push({ field: 'config.send', issue: 'must be pairs of hex digits (send_encoding hex)' });
  if (encoding === 'base64' && !/^[A-Za-z0-9+/]*={0,2}$/.test(send.replace(/\s+/g, '')))
    details.push({ field: 'config.send', issue: 'must be base64 (send_encoding base64)' });
  return {
    send,
    send_encoding: encoding,
    expect: valueOr<string | null>(c, 'expect', null),
    assertions: typedAssertions(c, ctx, details, ['body', 'response_time'], 'udp'),
  };
}

function domainConfig(c: Record<string, unknown>, details: ErrorDetail[]) {
  if (given(c, 'rdap_base_url')) {
    let ok: boolean;
    try {
      const u = new URL(String(c.rdap_base_url));
      ok = (u.protocol === 'https:' || u.protocol === 'http:') && u.hostname !== '' && !u.search && !u.hash;
    } catch {
      ok = false;
    }
    if (!ok) details.push({ field: 'config.rdap_base_url', issue: 'must be an http:// or https:// URL (no query)' });
  }
  return {
    alert_days_before_expiry: valueOr(c, 'alert_days_before_expiry', 30),
    ...optionalKeys(c, ['rdap_base_url']),
  };
}

/**
 * A monitor (a create body, or an existing monitor with a patch applied) whose shape the route's schema checked:
 * applies the documented defaults and the rules a schema cannot say (the target for its type, known regions,
 * confirm_regions against them, the config keys of its type after a merge, header names, regular expressions,
 * resolvers, assertions). Throws nothing: returns either the fields or the list of problems.
 */
export function validateMonitor(
  input: MonitorInput,
  ctx: ValidationContext,
): { ok: true; value: ValidMonitorFields } | { ok: false; details: ErrorDetail[] } {
  const details: ErrorDetail[] = [];
  const type = input.type ?? 'http';

  let target: string;
  if (type === 'heartbeat') {
    // The push URL is made by Tocsin; a given target is ignored rather than trusted.
    target = input.target ?? '';
  } else if (input.target === undefined) {
    details.push({ field: 'target', issue: 'is required' });
    target = '';
  } else {
    target = input.target.trim();
    const issue = targetIssue(type, target);
    if (issue) details.push({ field: 'target', issue });
  }

  const interval = input.interval_seconds ?? ctx.defaultIntervalSeconds;
  const regions = input.region_codes ?? [ctx.defaultRegion];
  regions.forEach((code, i) => {
    if (!ctx.regions.includes(code)) {
      details.push({ field: `region_codes[${i}]`, issue: `must be one of the regions ${ctx.regions.join(', ')}` });
    }
  });

  const rawConfig = input.config ?? {};
  const known: readonly string[] = [...COMMON_KEYS, ...TYPE_KEYS[type]];
  for (const key of Object.keys(rawConfig)) {
    // Only a PATCH can get here with another type's key: the create schema has one config per type.
    if (!known.includes(key))
      details.push({ field: `config.${key}`, issue: `is not a known field for ${type} monitors` });
  }
  const config = {
    ...commonConfig(rawConfig, regions.length, details),
    ...typeConfig(type, rawConfig, ctx, interval, details),
  };

  const name = input.name?.trim();
  if (name === '') details.push({ field: 'name', issue: 'must not be blank' });

  if (details.length > 0) return { ok: false, details };
  return {
    ok: true,
    value: {
      name: name ?? defaultName(type, target),
      type,
      target,
      interval_seconds: interval,
      region_codes: regions,
      tags: input.tags ?? [],
      environment: input.environment ?? ctx.defaultEnvironment,
      config: config as MonitorConfig & Record<string, unknown>,
      paused: input.paused ?? false,
    },
  };
}

/** The regions that must agree for a monitor to go down (DECISIONS §4). */
export function confirmRegionsOf(config: Pick<CommonConfig, 'confirm_regions'>, regionCount: number): number {
  return config.confirm_regions ?? (regionCount <= 1 ? 1 : Math.floor(regionCount / 2) + 1);
}
