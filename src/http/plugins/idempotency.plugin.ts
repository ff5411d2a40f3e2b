import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiMetrics, IdempotencyService } from '../../modules/auth/index.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Top-level response fields never stored for a replay (a key value shown once): the replayed
     * body lacks them.
     */
    idempotencyRedact?: readonly string[];
  }
  interface FastifyRequest {
    idempotency: { id: string } | null;
  }
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Response headers kept with a stored response and sent again on replay. */
const KEPT_HEADERS = ['content-type', 'location'];

export interface IdempotencyPluginDeps {
  idempotency: IdempotencyService;
  metrics: ApiMetrics | null;
}

function idempotencyKeyOf(request: FastifyRequest): string | null {
  const v = request.headers['idempotency-key'];
  if (v === undefined) return null;
  return Array.isArray(v) ? v.join(',') : v;
}

/**
 * Idempotency-Key on mutating /api/v1 requests (DECISIONS §2). Runs as a preHandler: after auth, rate
 * limit, scope and schema validation (a request refused before that never ran, so it is not stored),
 * and after the body is parsed so it can be hashed. The response is stored in onSend.
 */
export function installIdempotency(app: FastifyInstance, deps: IdempotencyPluginDeps): void {
  app.decorateRequest('idempotency', null);

  const preHandler = async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    const actor = request.actor;
    if (!actor || !MUTATING.has(request.method)) return;
    const key = idempotencyKeyOf(request);
    if (key === null) return;
    const started = await deps.idempotency.begin({
      organizationId: actor.organizationId,
      apiKeyId: actor.keyId,
      key,
      method: request.method,
      path: request.url,
      body: request.body,
    });
    if (started.kind === 'started') {
      request.idempotency = { id: started.id };
      return;
    }
    deps.metrics?.idempotentReplay();
    const { status, body, headers } = started.response;
    for (const [name, value] of Object.entries(headers)) reply.header(name, value);
    reply.header('idempotent-replayed', 'true');
    reply.code(status);
    return body === '' ? reply.send() : reply.send(body);
  };

  const onSend = async (request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    const pending = request.idempotency;
    if (!pending) return payload;
    request.idempotency = null;
    const status = reply.statusCode;
    const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : '';
    const headers: Record<string, string> = {};
    for (const h of KEPT_HEADERS) {
      const v = reply.getHeader(h);
      if (v !== undefined) headers[h] = String(v);
    }
    try {
      await deps.idempotency.finish(
        pending.id,
        { status, body: text, headers },
        { redacted: request.routeConfig.idempotencyRedact ?? [] },
      );
    } catch (err) {
      request.log.warn({ err }, 'could not store the idempotent response; the key is released');
      await deps.idempotency.abandon(pending.id).catch(() => undefined);
    }
    return payload;
  };

  // Attached to the routes of mutating methods only, so a read runs neither hook (two async hooks per GET
  // that returned at once). Put first, as the global hooks were: they run before any of the route's own.
  // Not to public routes either: no key authenticates them (the auth hook lets them through without an actor), so
  // there is no organization to scope a key to, and both hooks returned at once, on every heartbeat ping.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.some((m) => MUTATING.has(m)) || route.config?.public) return;
    route.preHandler = [preHandler, ...asArray(route.preHandler)];
    route.onSend = [onSend, ...asArray(route.onSend)];
  });
}

function asArray<T>(v: T | T[] | undefined): T[] {
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}
