import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { TocsinMetrics } from '../../../platform/metrics/index.ts';
import { DomainError } from '../../../platform/errors.ts';
import { bearerOf } from '../../plugins/auth.plugin.ts';

export interface MetricsRouteDeps {
  metrics: TocsinMetrics;
  /** When set, a scrape must send `Authorization: Bearer <token>`; 401 otherwise. */
  bearerToken: string | null;
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/**
 * GET /metrics in the Prometheus text format (DECISIONS §15). Registered only when `metrics.enabled` is on, so
 * it is 404 otherwise. Not an API route: no key, no rate limit, no usage; an optional shared bearer token.
 */
export function registerMetricsRoute(app: FastifyInstance, deps: MetricsRouteDeps): void {
  // Compared as SHA-256 digests: equal lengths for timingSafeEqual, and no early exit on the first differing byte.
  const expected = deps.bearerToken === null ? null : digest(deps.bearerToken);
  app.get(
    '/metrics',
    {
      config: { public: true },
      schema: { tags: ['system'], summary: 'Counters and histograms in the Prometheus text format', hide: true },
    },
    async (request, reply) => {
      if (expected) {
        const sent = bearerOf(request);
        if (sent === null || !timingSafeEqual(digest(sent), expected)) {
          reply.header('www-authenticate', 'Bearer realm="metrics"');
          throw new DomainError('unauthorized', 'Send the metrics bearer token as "Authorization: Bearer <token>".');
        }
      }
      const body = await deps.metrics.render();
      return reply.type(deps.metrics.contentType).send(body);
    },
  );
}
