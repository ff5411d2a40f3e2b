import { isIP } from 'node:net';
import type { ErrorDetail } from '../../platform/errors.ts';
import { FieldReader } from './field.reader.ts';
import { defaultName, parseHostPort, targetIssue } from './monitor.targets.ts';
import {
  DNS_RECORD_TYPES,
  HTTP_METHODS,
  MONITOR_TYPES,
  type CommonConfig,
  type MonitorConfig,
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
] as const;

const TYPE_KEYS: Record<MonitorType, readonly string[]> = {
  http: ['method', 'headers', 'body', 'follow_redirects', 'verify_tls', 'assertions', 'content_ignore_patterns'],
  tls: ['alert_days_before_expiry'],
  tcp: [],
  dns: ['record_type', 'resolver', 'expected'],
  grpc: ['tls', 'service'],
  heartbeat: ['grace_seconds'],
};

const TOP_KEYS = [
  'name',
  'type',
  'target',
  'interval_seconds',
  'region_codes',
  'tags',
  'environment',
  'config',
  'paused',
];
// Control characters (NUL above all, which PostgreSQL text cannot hold) never belong in a name or target.
// eslint-disable-next-line no-control-regex
const NO_CONTROL = /^[^\u0000-\u001f\u007f]*$/;
const TAG = /^[A-Za-z0-9][A-Za-z0-9 _.:/=-]{0,63}$/;
const ENVIRONMENT = /^[a-z0-9][a-z0-9_-]{0,31}$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/;
const DESTINATION_ID = /^dst_[0-9a-z]{26}$/;

function present(obj: Record<string, unknown>, key: string): boolean {
  return obj[key] !== undefined;
}

/** `null` in a config field means "back to the default". */
function given(obj: Record<string, unknown>, key: string): boolean {
  return obj[key] !== undefined && obj[key] !== null;
}

function readCommon(r: FieldReader, c: Record<string, unknown>, regionCount: number): CommonConfig {
  const p = 'config';
  const timeout = given(c, 'timeout_ms') ? r.integer(`${p}.timeout_ms`, c.timeout_ms, 100, 60_000) : 10_000;
  const failure = given(c, 'failure_threshold') ? r.integer(`${p}.failure_threshold`, c.failure_threshold, 1, 100) : 2;
  const success = given(c, 'success_threshold') ? r.integer(`${p}.success_threshold`, c.success_threshold, 1, 100) : 1;
  let confirm: number | null | undefined = null;
  if (given(c, 'confirm_regions')) {
    confirm = r.integer(`${p}.confirm_regions`, c.confirm_regions, 1, 1000);
    if (confirm !== undefined && confirm > regionCount) {
      confirm = r.fail(`${p}.confirm_regions`, `must not exceed the number of regions (${regionCount})`);
    }
  }
  const destinations = given(c, 'alert_destination_ids')
    ? r.stringArray(
        `${p}.alert_destination_ids`,
        c.alert_destination_ids,
        100,
        (_f, v) => DESTINATION_ID.test(v),
        'must be a destination id (dst_…)',
      )
    : [];
  const latency = given(c, 'alert_latency_ms')
    ? r.integer(`${p}.alert_latency_ms`, c.alert_latency_ms, 1, 600_000)
    : null;
  const reminder = given(c, 'reminder_interval_minutes')
    ? r.integer(`${p}.reminder_interval_minutes`, c.reminder_interval_minutes, 1, 10_080)
    : null;
  return {
    timeout_ms: timeout ?? 10_000,
    failure_threshold: failure ?? 2,
    success_threshold: success ?? 1,
    confirm_regions: confirm ?? null,
    alert_destination_ids: destinations ?? [],
    alert_latency_ms: latency ?? null,
    reminder_interval_minutes: reminder ?? null,
    // Only stored when given, so existing monitors keep their exact config.
    ...(given(c, 'intelligence_incidents') && {
      intelligence_incidents: r.boolean(`${p}.intelligence_incidents`, c.intelligence_incidents) ?? false,
    }),
  };
}

/** A pattern intelligence can compile (with the g flag) and that is short enough to be cheap. */
function isIgnorePattern(_field: string, pattern: string): boolean {
  if (pattern.length === 0 || pattern.length > 200) return false;
  try {
    new RegExp(pattern, 'g');
    return true;
  } catch {
    return false;
  }
}

function readHttp(r: FieldReader, c: Record<string, unknown>, ctx: ValidationContext): Record<string, unknown> {
  const p = 'config';
  const method = given(c, 'method') ? r.oneOf(`${p}.method`, c.method, HTTP_METHODS) : 'GET';
  const headers: Record<string, string> = {};
  if (given(c, 'headers')) {
    const h = r.object(`${p}.headers`, c.headers);
    if (h) {
      const entries = Object.entries(h);
      if (entries.length > 50) r.fail(`${p}.headers`, 'must have at most 50 headers');
      for (const [name, value] of entries) {
        if (!HEADER_NAME.test(name)) r.fail(`${p}.headers.${name}`, 'is not a valid header name');
        else if (typeof value !== 'string') r.fail(`${p}.headers.${name}`, 'must be a string');
        else if (/[\r\n\0]/.test(value) || value.length > 8192)
          r.fail(`${p}.headers.${name}`, 'must be one line of at most 8192 characters');
        else headers[name] = value;
      }
    }
  }
  const body = given(c, 'body') ? r.string(`${p}.body`, c.body, { max: 65_536 }) : null;
  const follow = given(c, 'follow_redirects') ? r.boolean(`${p}.follow_redirects`, c.follow_redirects) : true;
  const verify = given(c, 'verify_tls') ? r.boolean(`${p}.verify_tls`, c.verify_tls) : true;
  const assertions: Array<Record<string, unknown>> = [];
  if (given(c, 'assertions')) {
    const list = r.array(`${p}.assertions`, c.assertions, 20);
    list?.forEach((a, i) => {
      const problems = ctx.validateAssertion(a, `${p}.assertions[${i}]`);
      if (problems.length > 0) r.details.push(...problems);
      else assertions.push(a as Record<string, unknown>);
    });
  }
  const ignore = given(c, 'content_ignore_patterns')
    ? r.stringArray(
        `${p}.content_ignore_patterns`,
        c.content_ignore_patterns,
        20,
        isIgnorePattern,
        'must be a regular expression of 1 to 200 characters',
      )
    : undefined;
  return {
    method,
    headers,
    body: body ?? null,
    follow_redirects: follow,
    verify_tls: verify,
    assertions,
    ...(ignore !== undefined && { content_ignore_patterns: ignore }),
  };
}

function readTypeConfig(
  r: FieldReader,
  type: MonitorType,
  c: Record<string, unknown>,
  ctx: ValidationContext,
  interval: number,
): Record<string, unknown> {
  const p = 'config';
  switch (type) {
    case 'http':
      return readHttp(r, c, ctx);
    case 'tls':
      return {
        alert_days_before_expiry: given(c, 'alert_days_before_expiry')
          ? r.integer(`${p}.alert_days_before_expiry`, c.alert_days_before_expiry, 1, 365)
          : 14,
      };
    case 'tcp':
      return {};
    case 'dns': {
      let resolver: string | null | undefined = null;
      if (given(c, 'resolver')) {
        resolver = r.string(`${p}.resolver`, c.resolver, { min: 1, max: 64 });
        if (resolver !== undefined && isIP(resolver) === 0 && !parseHostPort(resolver)) {
          resolver = r.fail(`${p}.resolver`, 'must be an IP address, optionally with :port');
        }
      }
      return {
        record_type: given(c, 'record_type') ? r.oneOf(`${p}.record_type`, c.record_type, DNS_RECORD_TYPES) : 'A',
        resolver: resolver ?? null,
        expected: given(c, 'expected')
          ? (r.stringArray(
              `${p}.expected`,
              c.expected,
              50,
              (_f, v) => v.length > 0 && v.length <= 1024,
              'must be a non-empty answer',
            ) ?? [])
          : [],
      };
    }
    case 'grpc':
      return {
        tls: given(c, 'tls') ? r.boolean(`${p}.tls`, c.tls) : false,
        service: given(c, 'service') ? r.string(`${p}.service`, c.service, { max: 255 }) : '',
      };
    case 'heartbeat':
      return {
        grace_seconds: given(c, 'grace_seconds')
          ? r.integer(`${p}.grace_seconds`, c.grace_seconds, 0, 86_400)
          : Math.max(60, Math.round(interval * 0.2)),
      };
  }
}

/**
 * Validates a full monitor (a create body, or an existing monitor with a patch applied) and applies
 * the documented defaults. Throws nothing: returns either the fields or the list of problems.
 */
export function validateMonitor(
  input: Record<string, unknown>,
  ctx: ValidationContext,
): { ok: true; value: ValidMonitorFields } | { ok: false; details: ErrorDetail[] } {
  const r = new FieldReader();
  r.rejectUnknown('', input, TOP_KEYS, 'monitors');

  const type = present(input, 'type') ? r.oneOf('type', input.type, MONITOR_TYPES) : 'http';
  let target: string | undefined;
  if (type === 'heartbeat') {
    // The push URL is made by Tocsin; a given target is ignored rather than trusted.
    target = typeof input.target === 'string' ? input.target : '';
  } else if (!present(input, 'target')) {
    r.fail('target', 'is required');
  } else {
    target = r.string('target', input.target, {
      min: 1,
      max: 2048,
      pattern: NO_CONTROL,
      patternIssue: 'must not contain control characters',
    });
    if (target !== undefined && type !== undefined) {
      const issue = targetIssue(type, target.trim());
      if (issue) target = r.fail('target', issue);
      else target = target.trim();
    }
  }

  const interval = present(input, 'interval_seconds')
    ? r.integer('interval_seconds', input.interval_seconds, 1, 86_400)
    : ctx.defaultIntervalSeconds;

  const regions = present(input, 'region_codes')
    ? r.stringArray(
        'region_codes',
        input.region_codes,
        100,
        (_f, v) => ctx.regions.includes(v),
        `must be one of the regions ${ctx.regions.join(', ')}`,
      )
    : [ctx.defaultRegion];
  if (regions && regions.length === 0) r.fail('region_codes', 'must list at least one region');

  const tags = present(input, 'tags')
    ? r.stringArray(
        'tags',
        input.tags,
        50,
        (_f, v) => TAG.test(v),
        'must be 1-64 letters, digits, spaces or _ . : / = -',
      )
    : [];
  const environment = present(input, 'environment')
    ? r.string('environment', input.environment, {
        min: 1,
        max: 32,
        pattern: ENVIRONMENT,
        patternIssue: 'must be lower-case letters, digits, _ or -',
      })
    : ctx.defaultEnvironment;
  const paused = present(input, 'paused') ? r.boolean('paused', input.paused) : false;

  let config: Record<string, unknown> | undefined;
  const rawConfig = present(input, 'config') ? r.object('config', input.config) : {};
  if (rawConfig && type) {
    r.rejectUnknown('config', rawConfig, [...COMMON_KEYS, ...TYPE_KEYS[type]], `${type} monitors`);
    const common = readCommon(r, rawConfig, regions?.length ?? 1);
    config = { ...common, ...readTypeConfig(r, type, rawConfig, ctx, interval ?? 60) };
  }

  let name: string | undefined;
  if (present(input, 'name')) {
    name = r
      .string('name', input.name, {
        min: 1,
        max: 200,
        pattern: NO_CONTROL,
        patternIssue: 'must not contain control characters',
      })
      ?.trim();
    if (name === '') name = r.fail('name', 'must not be blank');
  } else if (type && target !== undefined && r.details.length === 0) name = defaultName(type, target);

  if (r.details.length > 0) return { ok: false, details: r.details };
  return {
    ok: true,
    value: {
      name: name!,
      type: type!,
      target: target!,
      interval_seconds: interval!,
      region_codes: regions!,
      tags: tags!,
      environment: environment!,
      config: config as MonitorConfig & Record<string, unknown>,
      paused: paused!,
    },
  };
}

/** The regions that must agree for a monitor to go down (DECISIONS §4). */
export function confirmRegionsOf(config: Pick<CommonConfig, 'confirm_regions'>, regionCount: number): number {
  return config.confirm_regions ?? (regionCount <= 1 ? 1 : Math.floor(regionCount / 2) + 1);
}
