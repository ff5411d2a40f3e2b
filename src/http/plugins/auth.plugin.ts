import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Actor, AuthService, Scope } from '../../modules/auth/index.ts';
import type { Plans } from '../../modules/orgs/index.ts';
import { DomainError } from '../../platform/errors.ts';

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
}

function bearerOf(request: FastifyRequest): string | null {
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
 * Authentication, plan gate and scope check, in that order, before the body is even parsed:
 * unknown key → 401; API not in plan → plan_upgrade_required; scope missing → insufficient_scope.
 */
export function installAuth(app: FastifyInstance, deps: AuthPluginDeps): void {
  app.decorateRequest('actor', null);
  app.addHook('onRequest', async (request) => {
    const scope = request.routeOptions.config.scope;
    if (!scope) return;
    const bearer = bearerOf(request);
    if (!bearer) {
      throw new DomainError('unauthorized', 'Send an API key as "Authorization: Bearer <key>".');
    }
    const actor = await deps.auth.authenticate(bearer);
    if (!actor) throw new DomainError('unauthorized', 'The API key is unknown, expired or revoked.');
    deps.plans.requireApi(actor.plan);
    request.actor = actor;
    if (!actor.scopes.has(scope)) {
      throw new DomainError('insufficient_scope', `This key lacks the scope ${scope}, which this operation needs.`);
    }
  });
}
