import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  budgetClassOf,
  type Actor,
  type ApiMetrics,
  type BudgetClass,
  type RateDecision,
  type RateLimiter,
} from '../../modules/auth/index.ts';
import { DomainError } from '../../platform/errors.ts';

/**
 * Called by the auth hook once the key is known: consumes one request of the method's budget. Returns
 * nothing when the store answered in-process (no promise on the hot path), a promise otherwise (Redis);
 * either way a refusal is thrown (synchronously, or as the promise's rejection).
 */
export type RateLimitGuard = (request: FastifyRequest, reply: FastifyReply, actor: Actor) => void | Promise<void>;

export interface RateLimitPluginDeps {
  limiter: RateLimiter;
  metrics: ApiMetrics | null;
}

/**
 * Per-key budgets (DECISIONS §2). Every authenticated response carries RateLimit-Limit, -Remaining and
 * -Reset (seconds) for the class used; a refused request gets 429 rate_limited with Retry-After.
 * When the store does not answer the request is served without headers (fail open).
 */
export function rateLimitGuard(deps: RateLimitPluginDeps): RateLimitGuard {
  const apply = (reply: FastifyReply, budget: BudgetClass, decision: RateDecision | null, actor: Actor): void => {
    if (!decision) return;
    reply.header('ratelimit-limit', String(decision.limit));
    reply.header('ratelimit-remaining', String(decision.remaining));
    reply.header('ratelimit-reset', String(Math.max(0, Math.ceil(decision.resetMs / 1000))));
    if (!decision.allowed) {
      deps.metrics?.rateLimited();
      reply.header('retry-after', String(Math.max(1, Math.ceil(decision.retryAfterMs / 1000))));
      throw new DomainError(
        'rate_limited',
        // A session's budget is the person's (all of their sessions), not a key's.
        `${actor.sessionId === undefined ? "This key's" : 'Your'} ${budget} budget of ${decision.limit} requests per minute is used up; retry after the Retry-After seconds.`,
      );
    }
  };
  return (request, reply, actor) => {
    const budget = budgetClassOf(request.method);
    const decided = deps.limiter.checkNow(actor, budget);
    if (decided !== undefined) return apply(reply, budget, decided, actor);
    return deps.limiter.check(actor, budget).then((decision) => apply(reply, budget, decision, actor));
  };
}

/** The guard for installAuth; the limiter's store (a Redis connection) closes with the app. */
export function installRateLimit(app: FastifyInstance, deps: RateLimitPluginDeps): RateLimitGuard {
  app.addHook('onClose', async () => deps.limiter.close());
  return rateLimitGuard(deps);
}
