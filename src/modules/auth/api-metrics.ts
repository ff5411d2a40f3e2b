import type { TocsinMetrics } from '../../platform/metrics/index.ts';

/**
 * What the API-access layer records (requests per budget, 429s, rate-limit store misses, idempotent replays):
 * series of the process's one metrics registry, made at the composition root. Null when metrics are off.
 */
export type ApiMetrics = Pick<TocsinMetrics, 'apiRequest' | 'rateLimited' | 'rateLimitStoreError' | 'idempotentReplay'>;
