import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  ADMIN_ONLY_SCOPES,
  csrfMatches,
  isAdmin,
  type Actor,
  type AuthService,
  type Scope,
  type SessionService,
} from '../../modules/auth/index.ts';
import type { Plans } from '../../modules/orgs/index.ts';
import { DomainError } from '../../platform/errors.ts';
import type { RateLimitGuard } from './rate-limit.plugin.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The scope a key needs for this route; declared once per route, checked here. */
    scope?: Scope;
    /** A route anyone may call (health, OpenAPI, public status pages, heartbeats). */
    public?: boolean;
    /** A route about the caller's own browser sessions: a session may call it whatever its role; keys may not. */
    session?: boolean;
    /** The body may also be a form post (application/x-www-form-urlencoded; the route parses it): a public page's form. */
    formBody?: boolean;
  }
  interface FastifyRequest {
    actor: Actor | null;
    /** The session cookie's token when the request was authenticated by it (for the CSRF token it derives). */
    sessionToken: string | null;
  }
}

/** The name of the session cookie (DECISIONS §14). */
export const SESSION_COOKIE = 'tocsin_session';

/** Methods that change nothing: the only ones a viewer may use, and the only ones without a CSRF token. */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The value of one cookie of the request, or null. */
export function cookieOf(request: FastifyRequest, name: string): string | null {
  const header = request.headers.cookie;
  if (typeof header !== 'string') return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}

export interface AuthPluginDeps {
  auth: AuthService;
  /** Browser sessions (the cookie); without it only keys authenticate. */
  sessions?: SessionService;
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
 * Without a bearer key the session cookie authenticates (a person in the web app): no plan gate for the app, a
 * CSRF token on every change (403 `csrf_failed`), and the role instead of scopes (the role rule below).
 */
export function installAuth(app: FastifyInstance, deps: AuthPluginDeps): void {
  app.decorateRequest('actor', null);
  app.decorateRequest('sessionToken', null);

  /** Everything after the key is resolved; throws the refusal. Returns a promise only when the rate-limit store needs I/O. */
  const admit = (
    request: FastifyRequest,
    reply: FastifyReply,
    actor: Actor | null,
    scope: Scope | undefined,
    url: string | undefined,
  ): void | Promise<void> => {
    if (!actor) throw new DomainError('unauthorized', 'The API key is unknown, expired or revoked.');
    if (actor.sessionId === undefined) deps.plans.requireApi(actor.plan);
    else if (!SAFE_METHODS.has(request.method) && !csrfMatches(request.sessionToken!, csrfHeader(request)))
      throw new DomainError('csrf_failed', 'A change made in a session needs the header X-CSRF-Token of the session.');
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
      const cookie = bearer || !deps.sessions ? null : cookieOf(request, SESSION_COOKIE);
      if (!bearer && cookie && deps.sessions) {
        request.sessionToken = cookie;
        deps.sessions
          .authenticate(cookie)
          .then((actor) => {
            if (!actor) throw new DomainError('unauthorized', 'The session has ended or expired; sign in again.');
            return admit(request, reply, actor, scope, url);
          })
          .then(() => done(), done);
        return;
      }
      if (!bearer) {
        throw new DomainError(
          'unauthorized',
          'Send an API key as "Authorization: Bearer <key>" or sign in (session cookie).',
        );
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

function csrfHeader(request: FastifyRequest): string | undefined {
  const value = request.headers['x-csrf-token'];
  return typeof value === 'string' ? value : undefined;
}

/**
 * The role rule, for every operation and every caller (keys act with their owner's role too): a viewer only
 * reads; the admin-only scopes (destinations, members, keys) need an owner or admin. (Routes about the caller's
 * own sessions, `session: true`, are open to every role of a session and closed to keys: checkScope.)
 */
function checkRole(request: FastifyRequest, actor: Actor, scope: Scope): void {
  if (actor.role === 'viewer' && !SAFE_METHODS.has(request.method))
    throw new DomainError('forbidden', 'A viewer may read everything but change nothing.');
  if (ADMIN_ONLY_SCOPES.has(scope) && !isAdmin(actor)) {
    throw new DomainError(
      'forbidden',
      actor.sessionId === undefined
        ? `The scope ${scope} only works for a key whose owner is an owner or admin.`
        : 'This operation is for the organization owner or an admin.',
    );
  }
}

function checkScope(request: FastifyRequest, actor: Actor, scope: Scope | undefined, url: string | undefined): void {
  if (request.routeConfig.session) {
    if (actor.sessionId === undefined)
      throw new DomainError('forbidden', 'This operation is about browser sessions; a key cannot use it.');
    return;
  }
  if (!scope) {
    request.log.error({ route: url, method: request.method }, 'route declares no scope; refusing every key');
    throw new DomainError('insufficient_scope', 'This operation declares no scope, so no key may call it.');
  }
  // A session is bound by its role alone, not by scopes.
  if (actor.sessionId === undefined && !actor.scopes.has(scope)) {
    throw new DomainError('insufficient_scope', `This key lacks the scope ${scope}, which this operation needs.`);
  }
  checkRole(request, actor, scope);
}
