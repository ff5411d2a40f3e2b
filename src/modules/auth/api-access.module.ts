import { BackgroundLoop } from '../../platform/background-loop.ts';
import type { BackgroundRole } from '../../platform/background-role.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/index.ts';
import type { Logger } from '../../platform/logger.ts';
import { createRedis } from '../../platform/redis.ts';
import type { SecretBox } from '../../platform/secrets.ts';
import type { Timers } from '../../platform/timers.ts';
import type { ApiMetrics } from './api-metrics.ts';
import { ApiKeysRepository } from './api-keys.repository.ts';
import { ApiKeysService } from './api-keys.service.ts';
import type { AuthService } from './auth.service.ts';
import { IdempotencyRepository } from './idempotency.repository.ts';
import { IdempotencyService } from './idempotency.service.ts';
import { MemoryRateLimitStore, RateLimiter, type RateLimitStore } from './rate-limit.ts';
import { RedisRateLimitStore } from './rate-limit.redis.ts';
import { ServiceAccountsRepository } from './service-accounts.repository.ts';
import { ServiceAccountsService } from './service-accounts.service.ts';
import { UsageRecorder } from './usage.recorder.ts';
import { UsageRepository } from './usage.repository.ts';

/** What the HTTP layer needs for API access: key management, budgets, idempotency, usage. */
export interface ApiAccessServices {
  apiKeys: ApiKeysService;
  serviceAccounts: ServiceAccountsService;
  rateLimiter: RateLimiter;
  idempotency: IdempotencyService;
  usage: UsageRecorder;
}

export interface ApiAccessOptions {
  database: Database;
  clock: Clock;
  logger: Logger;
  auth: AuthService;
  /** redis://… shares rate budgets between processes; null keeps them in memory. */
  redisUrl: string | null;
  /** Seals the secrets of stored idempotent responses (the master key's box). */
  secrets: SecretBox;
  /** The process's metrics (null when `metrics.enabled` is off): rate-limit store misses are counted there. */
  metrics: ApiMetrics | null;
  usageFlushMs?: number;
  idempotencyPurgeMs?: number;
  /** The timers of the flush and purge loops (tests pass a fake); the system's by default. */
  timers?: Timers;
}

/** Logs at most one warning per interval, counting what it swallowed. */
function throttledWarn(logger: Logger, clock: Clock, message: string, everyMs = 10_000): (err: unknown) => void {
  let last = -Infinity;
  let suppressed = 0;
  return (err) => {
    const now = clock.now();
    if (now - last < everyMs) {
      suppressed += 1;
      return;
    }
    last = now;
    logger.warn({ err: err instanceof Error ? err.message : String(err), suppressed }, message);
    suppressed = 0;
  };
}

/** A pass every `everyMs`, the first one `everyMs` after start (nothing is waiting at start). */
function intervalRole(
  name: string,
  everyMs: number,
  work: () => Promise<void>,
  onError: (err: unknown) => void,
  timers: Timers | undefined,
  atStop?: () => Promise<void>,
): BackgroundRole {
  return new BackgroundLoop({
    name,
    everyMs,
    firstPass: 'after-wait',
    pass: work,
    failed: onError,
    ...(timers && { timers }),
    ...(atStop && { atStop }),
  });
}

export function createApiAccess(options: ApiAccessOptions): { services: ApiAccessServices; roles: BackgroundRole[] } {
  const { database, clock, logger, auth, metrics } = options;
  const storeError = throttledWarn(
    logger,
    clock,
    'rate-limit store unavailable; serving requests without limits (fail open)',
  );
  let store: RateLimitStore;
  if (options.redisUrl) {
    const redis = createRedis(options.redisUrl, { onError: (err) => storeError(err) });
    store = new RedisRateLimitStore(redis);
  } else {
    store = new MemoryRateLimitStore();
  }
  const rateLimiter = new RateLimiter({
    store,
    clock,
    onStoreError: (err) => {
      metrics?.rateLimitStoreError();
      storeError(err);
    },
  });
  const keys = new ApiKeysRepository(database);
  const serviceAccountsRepo = new ServiceAccountsRepository(database);
  const usage = new UsageRecorder({ repository: new UsageRepository(database), clock });
  const apiKeys = new ApiKeysService({
    keys,
    serviceAccounts: serviceAccountsRepo,
    usage: new UsageRepository(database),
    recorder: usage,
    auth,
    clock,
    database,
  });
  const serviceAccounts = new ServiceAccountsService({
    database,
    repository: serviceAccountsRepo,
    keys,
    auth,
    clock,
  });
  const idempotency = new IdempotencyService({
    repository: new IdempotencyRepository(database),
    clock,
    box: options.secrets,
  });
  const roles: BackgroundRole[] = [
    intervalRole(
      'api-usage-flush',
      options.usageFlushMs ?? 5000,
      () => usage.flush(),
      throttledWarn(logger, clock, 'could not write API usage; will retry'),
      options.timers,
      () => usage.flush(),
    ),
    intervalRole(
      'idempotency-purge',
      options.idempotencyPurgeMs ?? 10 * 60_000,
      async () => {
        const n = await idempotency.purgeExpired();
        if (n > 0) logger.debug({ purged: n }, 'expired idempotency keys purged');
      },
      throttledWarn(logger, clock, 'could not purge idempotency keys'),
      options.timers,
    ),
  ];
  return { services: { apiKeys, serviceAccounts, rateLimiter, idempotency, usage }, roles };
}
