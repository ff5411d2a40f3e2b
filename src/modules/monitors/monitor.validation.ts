import { isIP } from 'node:net';
import type { ErrorDetail } from '../../platform/errors.ts';
import { caCertificateIssue } from './ca-certificate.validation.ts';
import { defaultName, parseHostPort, targetIssue } from './monitor.targets.ts';
import type { CommonConfig, MonitorConfig, MonitorInput, MonitorType } from './monitor.types.ts';

/** Validates one assertion and returns its problems; supplied by the checks module (it owns assertion kinds). */
export type AssertionValidator = (assertion: unknown, field: string) => ErrorDetail[];

export interface ValidationContext {
  regions: readonly string[];
  defaultRegion: string;
  /** Interval used when none is given: the plan floor. */
  defaultIntervalSeconds: number;
  defaultEnvironment: string;
  validateAssertion: AssertionValidator;
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
  heartbeat: ['grace_seconds'],
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
  return {
    timeout_ms: valueOr(c, 'timeout_ms', 10_000),
    failure_threshold: valueOr(c, 'failure_threshold', 2),
    success_threshold: valueOr(c, 'success_threshold', 1),
    confirm_regions: confirm,
    alert_destination_ids: valueOr<string[]>(c, 'alert_destination_ids', []),
    alert_latency_ms: valueOr(c, 'alert_latency_ms', null),
    reminder_interval_minutes: valueOr(c, 'reminder_interval_minutes', null),
    ...optionalKeys(c, ['intelligence_incidents', 'depends_on']),
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

function httpConfig(c: Record<string, unknown>, ctx: ValidationContext, details: ErrorDetail[]) {
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
      return { grace_seconds: valueOr(c, 'grace_seconds', Math.max(60, Math.round(interval * 0.2))) };
  }
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
