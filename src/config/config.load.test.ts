import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_PLANS, loadConfig } from './index.ts';

/** Loads with a fixed environment and, when given, a virtual TOCSIN_CONFIG file holding `file`. */
function load(env: Record<string, string> = {}, file?: unknown) {
  const fullEnv: Record<string, string> = { ...env };
  if (file !== undefined) fullEnv.TOCSIN_CONFIG = '/virtual/tocsin.json';
  return loadConfig({
    env: fullEnv,
    readFile: () => (typeof file === 'string' ? file : JSON.stringify(file)),
    isTty: false,
  });
}

/** Runs `fn`, expects a ConfigError and returns it. */
function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig defaults', () => {
  it('uses the documented defaults with an empty environment and no file', () => {
    const c = load();
    expect(c).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      dataDir: resolve('./data'),
      databaseUrl: null,
      redisUrl: null,
      publicUrl: 'http://localhost:3000',
      logLevel: 'info',
      logPretty: false,
      defaultPlan: 'free',
      regions: ['local'],
      defaultRegion: 'local',
      providers: {},
      smtp: null,
      smtpFrom: 'Tocsin <tocsin@localhost>',
      network: { allowPrivateTargets: true },
      masterKey: null,
      retention: { executionsDays: 30 },
      scheduler: { enabled: true, leaseSeconds: 30, concurrency: 200, localRegions: ['local'] },
      runnerToken: null,
      http: {
        bodyLimitBytes: 1024 * 1024,
        openapiParseBodyLimitBytes: 10 * 1024 * 1024,
        trustProxy: false,
        headersTimeoutMs: 10_000,
        requestTimeoutMs: 60_000,
        keepAliveTimeoutMs: 72_000,
      },
    });
    expect(c.plans).toEqual(DEFAULT_PLANS);
  });

  it('has the plan table of DECISIONS §3', () => {
    expect(DEFAULT_PLANS).toEqual({
      free: { monitors: 10, interval_floor_seconds: 60, regions: 1, status_pages: 1, reports: false, api: false },
      pro: { monitors: 50, interval_floor_seconds: 30, regions: 3, status_pages: 5, reports: true, api: false },
      team: { monitors: 250, interval_floor_seconds: 15, regions: null, status_pages: 20, reports: true, api: true },
      enterprise: {
        monitors: null,
        interval_floor_seconds: 10,
        regions: null,
        status_pages: null,
        reports: true,
        api: true,
      },
    });
  });

  it('does not share the default plan objects between loads', () => {
    const a = load();
    a.plans.free.monitors = 999;
    expect(load().plans.free.monitors).toBe(10);
    expect(DEFAULT_PLANS.free.monitors).toBe(10);
  });

  it('uses pretty logs on a TTY unless LOG_FORMAT says otherwise', () => {
    expect(loadConfig({ env: {}, isTty: true }).logPretty).toBe(true);
    expect(loadConfig({ env: { LOG_FORMAT: 'json' }, isTty: true }).logPretty).toBe(false);
    expect(loadConfig({ env: { LOG_FORMAT: 'pretty' }, isTty: false }).logPretty).toBe(true);
  });
});

describe('loadConfig environment variables', () => {
  it('reads every variable', () => {
    const masterKey = Buffer.alloc(32, 7).toString('base64');
    const c = load({
      PORT: '8080',
      HOST: '127.0.0.1',
      TOCSIN_DATA_DIR: '/tmp/tocsin-x',
      DATABASE_URL: 'postgres://u:p@db:5432/tocsin',
      REDIS_URL: 'redis://cache:6379/0',
      LOG_LEVEL: 'debug',
      LOG_FORMAT: 'json',
      TOCSIN_MASTER_KEY: masterKey,
    });
    expect(c).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: '/tmp/tocsin-x',
      databaseUrl: 'postgres://u:p@db:5432/tocsin',
      redisUrl: 'redis://cache:6379/0',
      logLevel: 'debug',
      logPretty: false,
      masterKey,
      publicUrl: 'http://127.0.0.1:8080',
    });
  });

  it('ignores NODE_ENV, whatever its value (nothing depends on it)', () => {
    expect(load({ NODE_ENV: 'staging' })).toEqual(load());
    expect(Object.keys(load({ NODE_ENV: 'development' }))).not.toContain('env');
  });

  it('accepts postgresql:// and PORT=0', () => {
    expect(load({ DATABASE_URL: 'postgresql://db/x' }).databaseUrl).toBe('postgresql://db/x');
    expect(load({ PORT: '0' }).port).toBe(0);
  });

  it.each([
    ['PORT', 'abc', 'an integer from 0 to 65535'],
    ['PORT', '70000', 'an integer from 0 to 65535'],
    ['PORT', '1.5', 'an integer from 0 to 65535'],
    ['DATABASE_URL', 'mysql://db/x', 'a URL with scheme postgres or postgresql'],
    ['DATABASE_URL', 'not a url', 'a URL with scheme postgres or postgresql'],
    ['REDIS_URL', 'http://cache', 'a URL with scheme redis or rediss'],
    ['LOG_LEVEL', 'loud', 'one of fatal, error, warn, info, debug, trace, silent'],
    ['LOG_FORMAT', 'xml', 'one of json, pretty'],
  ])('rejects %s=%s naming the key and what is allowed', (key, value, allowed) => {
    const err = configError(() => load({ [key]: value }));
    expect(err.key).toBe(key);
    expect(err.message).toContain(key);
    expect(err.message).toContain(allowed);
  });

  it.each(['mysql://app:hunter2@db/x', 'postgres//app:hunter2@db/x', 'postgres://app:hunter2@db:notaport/x'])(
    'rejects DATABASE_URL=%s without echoing its password',
    (value) => {
      const err = configError(() => load({ DATABASE_URL: value }));
      expect(err.message).toContain('DATABASE_URL');
      expect(err.message).toContain('[redacted]@db');
      expect(err.message).not.toContain('hunter2');
    },
  );

  it('rejects a master key that is not 32 bytes without echoing it', () => {
    const err = configError(() => load({ TOCSIN_MASTER_KEY: Buffer.alloc(16).toString('base64') }));
    expect(err.key).toBe('master_key');
    expect(err.message).toContain('a base64 string of 32 bytes');
    expect(err.message).not.toContain(Buffer.alloc(16).toString('base64'));
  });
});

describe('loadConfig TOCSIN_CONFIG file', () => {
  const full = {
    public_url: 'https://status.example.com/',
    plans: {
      free: { monitors: 3, interval_floor_seconds: 120, regions: 1, status_pages: 0, reports: false, api: true },
      enterprise: { monitors: 'unlimited', regions: null, interval_floor_seconds: 1 },
    },
    default_plan: 'pro',
    regions: ['eu-west', 'us-east', 'eu-west'],
    default_region: 'us-east',
    providers: { oncall_pager2: { base_url: 'http://127.0.0.1:9000/', base_url_eu: 'https://eu.example.com' } },
    smtp: 'smtp://mail:25',
    smtp_from: 'Alerts <alerts@example.com>',
    network: { allow_private_targets: false },
    log_level: 'warn',
    master_key: Buffer.alloc(32, 1).toString('base64'),
    retention: { executions_days: 7 },
    scheduler: { enabled: false, lease_seconds: 10, concurrency: 5 },
    redis_url: 'rediss://cache:6380',
  };

  it('reads every key', () => {
    const c = load({}, full);
    expect(c.publicUrl).toBe('https://status.example.com');
    expect(c.plans.free).toEqual({
      monitors: 3,
      interval_floor_seconds: 120,
      regions: 1,
      status_pages: 0,
      reports: false,
      api: true,
    });
    expect(c.plans.enterprise).toEqual({ ...DEFAULT_PLANS.enterprise, interval_floor_seconds: 1 });
    expect(c.plans.pro).toEqual(DEFAULT_PLANS.pro);
    expect(c.defaultPlan).toBe('pro');
    expect(c.regions).toEqual(['eu-west', 'us-east']);
    expect(c.defaultRegion).toBe('us-east');
    expect(c.providers).toEqual({
      oncall_pager2: { base_url: 'http://127.0.0.1:9000', base_url_eu: 'https://eu.example.com' },
    });
    expect(c.smtp).toBe('smtp://mail:25');
    expect(c.smtpFrom).toBe('Alerts <alerts@example.com>');
    expect(c.network.allowPrivateTargets).toBe(false);
    expect(c.logLevel).toBe('warn');
    expect(c.masterKey).toBe(full.master_key);
    expect(c.retention.executionsDays).toBe(7);
    expect(c.scheduler).toEqual({ enabled: false, leaseSeconds: 10, concurrency: 5, localRegions: [c.defaultRegion] });
    expect(c.redisUrl).toBe('rediss://cache:6380');
  });

  it('lets the environment win over the file for LOG_LEVEL, REDIS_URL and the master key', () => {
    const key = Buffer.alloc(32, 2).toString('base64');
    const c = load({ LOG_LEVEL: 'error', REDIS_URL: 'redis://env:1', TOCSIN_MASTER_KEY: key }, full);
    expect(c).toMatchObject({ logLevel: 'error', redisUrl: 'redis://env:1', masterKey: key });
  });

  it('takes the public URL and the mail relay from the environment (a container), over the file', () => {
    const env = {
      TOCSIN_PUBLIC_URL: 'https://env.example.com/',
      SMTP_URL: 'smtps://u:p@relay:465',
      SMTP_FROM: 'Env <env@example.com>',
    };
    expect(load(env, full)).toMatchObject({
      publicUrl: 'https://env.example.com',
      smtp: 'smtps://u:p@relay:465',
      smtpFrom: 'Env <env@example.com>',
    });
    expect(load(env)).toMatchObject({ publicUrl: 'https://env.example.com', smtp: 'smtps://u:p@relay:465' });
    expect(() => load({ SMTP_URL: 'http://u:secret@relay' })).toThrow(
      /^configuration SMTP_URL: a URL with scheme smtp or smtps/,
    );
    expect(() => load({ SMTP_URL: 'http://u:secret@relay' })).not.toThrow(/secret/);
    expect(() => load({ TOCSIN_PUBLIC_URL: 'ftp://x' })).toThrow(
      /^configuration TOCSIN_PUBLIC_URL: a URL with scheme http or https/,
    );
  });

  it('treats an empty TOCSIN_MASTER_KEY, SMTP_URL or TOCSIN_PUBLIC_URL as unset (a compose file passes them empty)', () => {
    const key = Buffer.alloc(32, 3).toString('base64');
    expect(load({ TOCSIN_MASTER_KEY: '', SMTP_URL: '', TOCSIN_PUBLIC_URL: '' })).toMatchObject({
      masterKey: null,
      smtp: null,
      publicUrl: 'http://localhost:3000',
    });
    expect(load({ TOCSIN_MASTER_KEY: '' }, { master_key: key }).masterKey).toBe(key);
  });

  it('defaults the region to the first of the catalogue', () => {
    expect(load({}, { regions: ['ap-south', 'eu-west'] }).defaultRegion).toBe('ap-south');
  });

  it('treats smtp null as "write mail to the log"', () => {
    expect(load({}, { smtp: null }).smtp).toBeNull();
  });

  it.each([
    [{ public_url: 'ftp://x' }, 'public_url', 'a URL with scheme http or https'],
    [{ plans: [] }, 'plans', 'an object keyed by plan name'],
    [{ plans: { gold: {} } }, 'plans.gold', 'one of free, pro, team, enterprise'],
    [{ plans: { free: 3 } }, 'plans.free', 'an object of plan limits'],
    [{ plans: { free: { monitors: -1 } } }, 'plans.free.monitors', 'an integer from 0 to 10000000'],
    [{ plans: { free: { monitors: 'lots' } } }, 'plans.free.monitors', 'an integer from 0 to 10000000'],
    [{ plans: { pro: { regions: 2.5 } } }, 'plans.pro.regions', 'an integer'],
    [{ plans: { team: { status_pages: true } } }, 'plans.team.status_pages', 'an integer'],
    [
      { plans: { free: { interval_floor_seconds: 0 } } },
      'plans.free.interval_floor_seconds',
      'an integer from 1 to 86400',
    ],
    [{ plans: { free: { reports: 'yes' } } }, 'plans.free.reports', 'true or false'],
    [{ plans: { free: { api: 2 } } }, 'plans.free.api', 'true or false'],
    [
      { plans: { free: { seats: 2 } } },
      'plans.free.seats',
      'one of monitors, interval_floor_seconds, regions, status_pages, reports, api',
    ],
    [{ default_plan: 'gold' }, 'default_plan', 'one of free, pro, team, enterprise'],
    [{ regions: [] }, 'regions', 'a non-empty array of region codes'],
    [{ regions: 'eu' }, 'regions', 'a non-empty array of region codes'],
    [{ regions: ['EU West'] }, 'regions', 'a non-empty array of region codes'],
    [{ default_region: 'mars' }, 'default_region', 'one of local'],
    [{ providers: 'x' }, 'providers', 'an object keyed by destination type'],
    [{ providers: { email: 'x' } }, 'providers.email', 'an object with base_url'],
    [{ providers: { email: { url: 'http://x' } } }, 'providers.email.url', 'base_url or base_url_eu'],
    [{ providers: { email: { base_url: 'nope' } } }, 'providers.email.base_url', 'a URL with scheme http or https'],
    [{ smtp: 'http://mail' }, 'smtp', 'a URL with scheme smtp or smtps'],
    [{ smtp_from: 42 }, 'smtp_from', 'a non-empty string'],
    [{ network: true }, 'network', 'an object'],
    [{ network: { allow_private_targets: 'maybe' } }, 'network.allow_private_targets', 'true or false'],
    [{ network: { allow_private: false } }, 'network.allow_private', 'a known key (allow_private_targets)'],
    [{ log_level: 'verbose' }, 'LOG_LEVEL', 'one of fatal, error, warn, info, debug, trace, silent'],
    [{ master_key: 12 }, 'master_key', 'a base64 string of 32 bytes'],
    [{ retention: 30 }, 'retention', 'an object'],
    [{ retention: { executions_days: 0 } }, 'retention.executions_days', 'an integer from 1 to 3650'],
    [{ retention: { days: 3 } }, 'retention.days', 'a known key (executions_days)'],
    [{ scheduler: [] }, 'scheduler', 'an object'],
    [{ scheduler: { enabled: 'no' } }, 'scheduler.enabled', 'true or false'],
    [{ scheduler: { lease_seconds: 1 } }, 'scheduler.lease_seconds', 'an integer from 2 to 3600'],
    [{ scheduler: { concurrency: 0 } }, 'scheduler.concurrency', 'an integer from 1 to 10000'],
    [
      { scheduler: { workers: 2 } },
      'scheduler.workers',
      'a known key (enabled, lease_seconds, concurrency, local_regions)',
    ],
    [{ scheduler: { local_regions: ['mars'] } }, 'scheduler.local_regions', 'an array of configured regions'],
    [{ scheduler: { local_regions: 'local' } }, 'scheduler.local_regions', 'an array of configured regions'],
    [{ redis_url: 'memcached://x' }, 'redis_url', 'a URL with scheme redis or rediss'],
    [{ reports: 1 }, 'reports', 'an object'],
    [{ reports: { workers: -1 } }, 'reports.workers', 'an integer from 0 to 16'],
    [{ reports: { workers: 1.5 } }, 'reports.workers', 'an integer from 0 to 16'],
    [{ reports: { timeout_seconds: 4 } }, 'reports.timeout_seconds', 'an integer from 5 to 3600'],
    [{ reports: { worker_idle_seconds: -1 } }, 'reports.worker_idle_seconds', 'an integer from 0 to 86400'],
    [{ reports: { worker_idle_seconds: '5m' } }, 'reports.worker_idle_seconds', 'an integer from 0 to 86400'],
    [{ reports: { threads: 2 } }, 'reports.threads', 'a known key (workers, timeout_seconds, worker_idle_seconds)'],
    [{ imports: [] }, 'imports', 'an object'],
    [{ imports: { openapi_max_operations: 0 } }, 'imports.openapi_max_operations', 'an integer from 1 to 20000'],
    [{ imports: { openapi_timeout_ms: 5 } }, 'imports.openapi_timeout_ms', 'an integer from 10 to 600000'],
    [{ imports: { openapi_threads: 0 } }, 'imports.openapi_threads', 'an integer from 1 to 16'],
    [
      { imports: { max_operations: 5 } },
      'imports.max_operations',
      'a known key (openapi_max_operations, openapi_timeout_ms, openapi_threads)',
    ],
  ])('rejects %j naming %s and what is allowed', (file, key, allowed) => {
    const err = configError(() => load({}, file));
    expect(err.key).toBe(key);
    expect(err.message).toContain(`configuration ${key}:`);
    expect(err.message).toContain(allowed);
  });

  it('reads the report threads, their time limit and idle stop (default 1 thread, 120 s, 300 s; 0 threads builds on the main thread)', () => {
    expect(load().reports).toEqual({ workers: 1, timeoutSeconds: 120, workerIdleSeconds: 300 });
    expect(load({}, { reports: { workers: 0, timeout_seconds: 30, worker_idle_seconds: 0 } }).reports).toEqual({
      workers: 0,
      timeoutSeconds: 30,
      workerIdleSeconds: 0,
    });
  });

  it('reads the OpenAPI import limits (default 10,000 operations, 30 s, 2 threads)', () => {
    expect(load().imports).toEqual({ openapiMaxOperations: 10_000, openapiTimeoutMs: 30_000, openapiThreads: 2 });
    const file = { imports: { openapi_max_operations: 500, openapi_timeout_ms: 2000, openapi_threads: 1 } };
    expect(load({}, file).imports).toEqual({ openapiMaxOperations: 500, openapiTimeoutMs: 2000, openapiThreads: 1 });
  });

  it('rejects an unknown top-level key, listing the known ones', () => {
    const err = configError(() => load({}, { plan: { free: {} } }));
    expect(err.key).toBe('plan');
    expect(err.message).toContain('a known key (public_url, plans, default_plan, regions');
  });

  it('rejects an unreadable file, naming TOCSIN_CONFIG and the path', () => {
    const err = configError(() =>
      loadConfig({
        env: { TOCSIN_CONFIG: '/nowhere/tocsin.json' },
        readFile: () => {
          throw new Error('ENOENT: no such file or directory');
        },
      }),
    );
    expect(err.key).toBe('TOCSIN_CONFIG');
    expect(err.message).toContain('a readable JSON file');
    expect(err.message).toContain('/nowhere/tocsin.json');
    expect(err.message).toContain('ENOENT');
  });

  it('reads a real file from disk through the default reader', () => {
    const err = configError(() => loadConfig({ env: { TOCSIN_CONFIG: '/definitely/not/here.json' } }));
    expect(err.key).toBe('TOCSIN_CONFIG');
  });

  it.each([
    ['{not json', 'a file holding a JSON object'],
    ['', 'a file holding a JSON object'],
    ['[1,2]', 'a file holding a JSON object'],
    ['"text"', 'a file holding a JSON object'],
    ['null', 'a file holding a JSON object'],
  ])('rejects file content %j', (text, allowed) => {
    const err = configError(() => load({}, text));
    expect(err.key).toBe('TOCSIN_CONFIG');
    expect(err.message).toContain(allowed);
  });
});

describe('scheduler.local_regions', () => {
  it('defaults to the default region and accepts a list of configured regions (or none: remote runners only)', () => {
    expect(load({}, { regions: ['eu', 'us'], default_region: 'us' }).scheduler.localRegions).toEqual(['us']);
    expect(
      load({}, { regions: ['eu', 'us'], scheduler: { local_regions: ['eu', 'us', 'eu'] } }).scheduler.localRegions,
    ).toEqual(['eu', 'us']);
    expect(load({}, { regions: ['eu', 'us'], scheduler: { local_regions: [] } }).scheduler.localRegions).toEqual([]);
  });
});

describe('http', () => {
  it('trusts no proxy by default, a hop count, or a list of addresses and CIDRs', () => {
    expect(load({}, {}).http.trustProxy).toBe(false);
    expect(load({}, { http: { trust_proxy: false } }).http.trustProxy).toBe(false);
    expect(load({}, { http: { trust_proxy: 2 } }).http.trustProxy).toBe(2);
    expect(load({}, { http: { trust_proxy: ['10.0.0.0/8', '::1', 'loopback', '192.0.2.7'] } }).http.trustProxy).toEqual(
      ['10.0.0.0/8', '::1', 'loopback', '192.0.2.7'],
    );
    expect(load({}, { http: { trust_proxy: '10.1.2.3, fd00::/8' } }).http.trustProxy).toEqual(['10.1.2.3', 'fd00::/8']);
  });

  it.each([true, 'true', 0, 11, [], ['10.0.0.0/33'], ['example.com'], ['::1/129'], ['10.0.0.1/8/1'], [1]])(
    'refuses trust_proxy %j, naming the key',
    (value) => {
      expect(configError(() => load({}, { http: { trust_proxy: value } })).key).toBe('http.trust_proxy');
    },
  );

  it('reads the time-outs and refuses headers that may take longer than the request', () => {
    expect(
      load({}, { http: { headers_timeout_ms: 500, request_timeout_ms: 1000, keep_alive_timeout_ms: 2000 } }).http,
    ).toMatchObject({ headersTimeoutMs: 500, requestTimeoutMs: 1000, keepAliveTimeoutMs: 2000 });
    expect(load({}, { http: { request_timeout_ms: 4000 } }).http.headersTimeoutMs).toBe(4000);
    expect(configError(() => load({}, { http: { headers_timeout_ms: 5000, request_timeout_ms: 1000 } })).key).toBe(
      'http.headers_timeout_ms',
    );
    expect(configError(() => load({}, { http: { keep_alive_timeout_ms: 10 } })).key).toBe('http.keep_alive_timeout_ms');
    expect(configError(() => load({}, { http: { body_limit: 1 } })).key).toBe('http.body_limit');
  });
});
