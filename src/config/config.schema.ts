/**
 * The configuration file (`TOCSIN_CONFIG`) as one TypeBox schema, checked by the routes' validator
 * (src/platform/schema). Each key's schema says what it allows in the words a configuration error uses
 * (`x-allowed`); an object says how an unknown key in it is refused (`x-unknown`, default "a known key (…)").
 * Rules between keys (default_region among regions, headers time-out within the request's) are the loader's.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { PLAN_NAMES } from './config.types.ts';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** How a refused value is echoed: `userinfo` drops a URL's credentials, `all` shows `<redacted>`. */
type Redact = 'userinfo' | 'all';
const annotations = (allowed: string, redact?: Redact) => ({
  'x-allowed': allowed,
  ...(redact && { 'x-redact': redact }),
});

export const int = (min: number, max: number) =>
  Type.Integer({ minimum: min, maximum: max, ...annotations(`an integer from ${min} to ${max}`) });

/** A boolean; the strings "true", "1", "false" and "0" too (documented: a file may be generated from variables). */
export const flag = () =>
  Type.Union(
    [Type.Boolean(), ...['true', '1', 'false', '0'].map((v) => Type.Literal(v))],
    annotations('true or false'),
  );

/** The value a `flag` stands for. */
export const flagValue = (raw: boolean | string): boolean => raw === true || raw === 'true' || raw === '1';

export const urlAllowed = (protocols: string[]) =>
  `a URL with scheme ${protocols.map((p) => p.replace(':', '')).join(' or ')}`;

export const url = (protocols: string[]) =>
  Type.String({ 'x-url': { protocols }, ...annotations(urlAllowed(protocols), 'userinfo') });

const words = <T extends string>(values: readonly T[]) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], ...annotations(`one of ${values.join(', ')}`) });

const nonEmpty = (allowed: string, redact?: Redact) => Type.String({ pattern: '\\S', ...annotations(allowed, redact) });

const section = <P extends Record<string, TSchema>>(properties: P) =>
  Type.Partial(Type.Object(properties, { additionalProperties: false, ...annotations('an object') }));

/** A plan's count limit: an integer, or null / "unlimited" for no limit. */
const limit = () =>
  Type.Union(
    [Type.Integer({ minimum: 0, maximum: 10_000_000 }), Type.Null(), Type.Literal('unlimited')],
    annotations('an integer from 0 to 10000000'),
  );

const PLAN_FIELDS = {
  monitors: limit(),
  interval_floor_seconds: int(1, 86_400),
  regions: limit(),
  status_pages: limit(),
  reports: flag(),
  api: flag(),
};

const Plan = Type.Partial(
  Type.Object(PLAN_FIELDS, {
    additionalProperties: false,
    ...annotations('an object of plan limits'),
    'x-unknown': `one of ${Object.keys(PLAN_FIELDS).join(', ')}`,
  }),
);

const Plans = Type.Partial(
  Type.Object(Object.fromEntries(PLAN_NAMES.map((name) => [name, Plan])), {
    additionalProperties: false,
    ...annotations('an object keyed by plan name'),
    'x-unknown': `one of ${PLAN_NAMES.join(', ')}`,
    'x-doc-key': '<plan>',
  }),
);

const endpointFields = {
  base_url: url(['http:', 'https:']),
  base_url_eu: url(['http:', 'https:']),
};

/** `providers.<type>`: a destination type's vendor endpoints (tests point them at fakes). */
const Endpoint = Type.Partial(
  Type.Object(endpointFields, {
    additionalProperties: false,
    ...annotations('an object with base_url'),
    'x-unknown': 'base_url or base_url_eu',
  }),
);

/** The Slack app also has its OAuth client. */
const SlackEndpoint = Type.Partial(
  Type.Object(
    {
      base_url: endpointFields.base_url,
      client_id: nonEmpty('a non-empty string'),
      client_secret: nonEmpty('a non-empty string', 'all'),
    },
    {
      additionalProperties: false,
      ...annotations('an object with base_url'),
      'x-unknown': 'base_url, client_id or client_secret',
    },
  ),
);

const Providers = Type.Partial(
  Type.Object(
    { chatapp1_channel: SlackEndpoint },
    { additionalProperties: Endpoint, ...annotations('an object keyed by destination type'), 'x-doc-key': '<type>' },
  ),
);

/** Every key of the file, in the order errors list them. */
export const ConfigFileSchema = Type.Partial(
  Type.Object(
    {
      public_url: url(['http:', 'https:']),
      plans: Plans,
      default_plan: words(PLAN_NAMES),
      regions: Type.Array(Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,31}$' }), {
        minItems: 1,
        ...annotations('a non-empty array of region codes like "eu-west"'),
      }),
      default_region: Type.String(annotations('one of the configured regions')),
      providers: Providers,
      smtp: Type.Union(
        [url(['smtp:', 'smtps:']), Type.Null()],
        annotations(urlAllowed(['smtp:', 'smtps:']), 'userinfo'),
      ),
      smtp_from: nonEmpty('a non-empty string such as "Tocsin <alerts@example.com>"'),
      network: section({ allow_private_targets: flag() }),
      // Its variable LOG_LEVEL wins over it, and errors name the variable (the one most people set).
      log_level: Type.Unsafe<(typeof LOG_LEVELS)[number]>({ ...words(LOG_LEVELS), 'x-key': 'LOG_LEVEL' }),
      master_key: Type.String(annotations('a base64 string of 32 bytes', 'all')),
      retention: section({ executions_days: int(1, 3650) }),
      scheduler: section({
        enabled: flag(),
        lease_seconds: int(2, 3600),
        concurrency: int(1, 10_000),
        local_regions: Type.Array(Type.String(), annotations('an array of configured regions')),
      }),
      // An empty value means unset, as for REDIS_URL.
      redis_url: Type.Union(
        [url(['redis:', 'rediss:']), Type.Literal('')],
        annotations(urlAllowed(['redis:', 'rediss:']), 'userinfo'),
      ),
      alerting: section({ lease_seconds: int(2, 3600), send_timeout_ms: int(100, 120_000), poll_ms: int(10, 60_000) }),
      metrics: section({
        enabled: flag(),
        // Sent in an Authorization header: visible ASCII only; long enough not to be guessed.
        bearer_token: Type.String({
          pattern: '^[\\x21-\\x7e]{16,512}$',
          ...annotations('a string of 16 to 512 visible ASCII characters', 'all'),
        }),
      }),
      intelligence: section({ enabled: flag(), grading_poll_seconds: int(1, 3600) }),
      scheduled_reports: section({ lease_seconds: int(2, 86_400) }),
      reports: section({ workers: int(0, 16), timeout_seconds: int(5, 3600), worker_idle_seconds: int(0, 86_400) }),
      imports: section({
        openapi_max_operations: int(1, 20_000),
        openapi_timeout_ms: int(10, 600_000),
        openapi_threads: int(1, 16),
      }),
      http: section({
        // The shape only: which strings are proxy addresses is the loader's check (`trustProxyFrom`).
        trust_proxy: Type.Union(
          [
            Type.Literal(false),
            Type.Integer({ minimum: 1, maximum: 10 }),
            Type.String(),
            Type.Array(Type.String(), { minItems: 1 }),
          ],
          annotations(
            'false, a hop count from 1 to 10, or a list of proxy addresses or CIDRs (or loopback, linklocal, uniquelocal)',
          ),
        ),
        headers_timeout_ms: int(100, 3_600_000),
        request_timeout_ms: int(100, 3_600_000),
        keep_alive_timeout_ms: int(100, 3_600_000),
      }),
    },
    { additionalProperties: false },
  ),
);
