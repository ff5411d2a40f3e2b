import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ADMIN_ONLY_SCOPES, isAdmin, type Actor, type AuthService, type Scope } from '../../modules/auth/index.ts';
import type { Plans } from '../../modules/orgs/index.ts';
import { DomainError } from '../../platform/errors.ts';
import type { RateLimitGuard } from './rate-limit.plugin.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The scope a key needs for this route; declared once per route, checked here. */
    scope?: Scope;
    /** A route anyone may call (health, OpenAPI, public status pages, heartbeats). */
    public?: boolean;
  }
  interface FastifyRequest {
    actor: Actor | null;
  }
}

export interface AuthPluginDeps {
  auth: AuthService;
  plans: Plans;
  /** Per-key budgets, consumed once the key is known (before the scope check, so refused calls count too). */
  rateLimit?: RateLimitGuard;
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1]! : null;
}

/** The caller of a route that declared a scope; the hook below guarantees it is set. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new DomainError('unauthorized', 'Authentication is required.');
  return request.actor;
}

/**
 * Authentication, plan gate, rate limit and scope check, in that order, before the body is even parsed:
 * unknown key → 401; API not in plan → plan_upgrade_required; budget used up → 429;
 * scope missing → insufficient_scope; admin-only scope on a member's key → forbidden.
 * An /api/v1 route that declares neither a scope nor `public` is closed to every key (fail closed).
 */
export function installAuth(app: FastifyInstance, deps: AuthPluginDeps): void {
  app.decorateRequest('actor', null);

  /** Everything after the key is resolved; throws the refusal. Returns a promise only when the rate-limit store needs I/O. */
  const admit = (
    request: FastifyRequest,
    reply: FastifyReply,
    actor: Actor | null,
    scope: Scope | undefined,
    url: string | undefined,
  ): void | Promise<void> => {
    if (!actor) throw new DomainError('unauthorized', 'The API key is unknown, expired or revoked.');
    deps.plans.requireApi(actor.plan);
    request.actor = actor;
    const limited = deps.rateLimit?.(request, reply, actor);
    if (limited) return limited.then(() => checkScope(request, actor, scope, url));
    checkScope(request, actor, scope, url);
  };

  // A sync hook (done callback) so that a request whose key is cached and whose budget is in-process
  // costs no promise; otherwise it waits for the database or Redis, as before.
  app.addHook('onRequest', (request, reply, done) => {
    const config = request.routeConfig;
    if (config.public) return done();
    const scope = config.scope;
    const url = config.url as string | undefined;
    if (!scope && !(url !== undefined && url.startsWith('/api/v1/'))) return done();
    let pending: void | Promise<void>;
    try {
      const bearer = bearerOf(request);
      if (!bearer) {
        throw new DomainError('unauthorized', 'Send an API key as "Authorization: Bearer <key>".');
      }
      const cached = deps.auth.cachedActor(bearer);
      pending =
        cached !== undefined
          ? admit(request, reply, cached, scope, url)
          : deps.auth.authenticate(bearer).then((actor) => admit(request, reply, actor, scope, url));
    } catch (err) {
      return done(err as Error);
    }
    if (pending) pending.then(() => done(), done);
    else done();
  });
}

function checkScope(request: FastifyRequest, actor: Actor, scope: Scope | undefined, url: string | undefined): void {
  if (!scope) {
    request.log.error({ route: url, method: request.method }, 'route declares no scope; refusing every key');
    throw new DomainError('insufficient_scope', 'This operation declares no scope, so no key may call it.');
  }
  if (!actor.scopes.has(scope)) {
    throw new DomainError('insufficient_scope', `This key lacks the scope ${scope}, which this operation needs.`);
  }
  if (ADMIN_ONLY_SCOPES.has(scope) && !isAdmin(actor)) {
    throw new DomainError('forbidden', `The scope ${scope} only works for a key whose owner is an owner or admin.`);
  }
}
