import type { FastifyInstance } from 'fastify';
import { budgetClassOf, type ApiMetrics, type UsageRecorder } from '../../modules/auth/index.ts';

export interface UsagePluginDeps {
  usage: UsageRecorder;
  metrics: ApiMetrics;
}

/**
 * Counts every authenticated response per key, minute, budget class and status class (in memory;
 * the usage-flush role writes them), and serves the counters at GET /metrics (Prometheus text).
 */
export function installUsage(app: FastifyInstance, deps: UsagePluginDeps): void {
  // A sync hook (done callback): no promise per request.
  app.addHook('onResponse', (request, reply, done) => {
    const actor = request.actor;
    if (actor) {
      const budget = budgetClassOf(request.method);
      deps.usage.record(actor.keyId, actor.organizationId, budget, reply.statusCode);
      deps.metrics.countRequest(budget, `${Math.floor(reply.statusCode / 100)}xx`);
    }
    done();
  });

  app.get(
    '/metrics',
    {
      config: { public: true },
      schema: { tags: ['system'], summary: 'Counters in the Prometheus text format', hide: true },
    },
    async (_request, reply) => reply.type('text/plain; version=0.0.4; charset=utf-8').send(deps.metrics.render()),
  );
}
