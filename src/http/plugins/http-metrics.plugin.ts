import type { FastifyInstance } from 'fastify';
import type { TocsinMetrics } from '../../platform/metrics/index.ts';

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Every response's duration on `tocsin_http_request_duration_seconds{method,route,status}`: the route is the
 * matched pattern (`/api/v1/monitors/:id`), never the URL, so the series stay bounded; `unmatched` otherwise.
 */
export function installHttpMetrics(app: FastifyInstance, metrics: TocsinMetrics): void {
  // A sync hook (done callback): no promise per request.
  app.addHook('onResponse', (request, reply, done) => {
    // routeConfig is null when the request failed before its onRequest hooks (a malformed URL).
    const route = (request.routeConfig as { url?: string } | null)?.url;
    const method = KNOWN_METHODS.has(request.method) ? request.method : 'OTHER';
    metrics.httpRequest(method, route, reply.statusCode, reply.elapsedTime);
    done();
  });
}
