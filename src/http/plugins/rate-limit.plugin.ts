import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { budgetClassOf, type Actor, type ApiMetrics, type RateLimiter } from '../../modules/auth/index.ts';
import { DomainError } from '../../platform/errors.ts';

/** Called by the auth hook once the key is known: consumes one request of the method's budget. */
export type RateLimitGuard = (request: FastifyRequest, reply: FastifyReply, actor: Actor) => Promise<void>;

export interface RateLimitPluginDeps {
  limiter: RateLimiter;
  metrics: ApiMetrics;
}

/**
 * Per-key budgets (DECISIONS §2). Every authenticated response carries RateLimit-Limit, -Remaining and
 * -Reset (seconds) for the class used; a refused request gets 429 rate_limited with Retry-After.
 * When the store does not answer the request is served without headers (fail open).
 */
export function rateLimitGuard(deps: RateLimitPluginDeps): RateLimitGuard {
  return async (request, reply, actor) => {
    const decision = await deps.limiter.check(actor, budgetClassOf(request.method));
    if (!decision) return;
    reply.header('ratelimit-limit', String(decision.limit));
    reply.header('ratelimit-remaining', String(decision.remaining));
    reply.header('ratelimit-reset', String(Math.max(0, Math.ceil(decision.resetMs / 1000))));
    if (!decision.allowed) {
      deps.metrics.rateLimited += 1;
      reply.header('retry-after', String(Math.max(1, Math.ceil(decision.retryAfterMs / 1000))));
      throw new DomainError(
        'rate_limited',
        `This key's ${budgetClassOf(request.method)} budget of ${decision.limit} requests per minute is used up; retry after the Retry-After seconds.`,
      );
    }
  };
}

/** The guard for installAuth; the limiter's store (a Redis connection) closes with the app. */
export function installRateLimit(app: FastifyInstance, deps: RateLimitPluginDeps): RateLimitGuard {
  app.addHook('onClose', async () => deps.limiter.close());
  return rateLimitGuard(deps);
}
