import type { FastifyInstance } from 'fastify';
import { budgetClassOf, type ApiMetrics, type UsageRecorder } from '../../modules/auth/index.ts';

export interface UsagePluginDeps {
  usage: UsageRecorder;
  metrics: ApiMetrics | null;
}

/**
 * Counts every authenticated response per key, minute, budget class and status class (in memory;
 * the usage-flush role writes them), and per budget and status class on the metrics registry.
 */
export function installUsage(app: FastifyInstance, deps: UsagePluginDeps): void {
  // A sync hook (done callback): no promise per request.
  app.addHook('onResponse', (request, reply, done) => {
    const actor = request.actor;
    if (actor) {
      const budget = budgetClassOf(request.method);
      deps.usage.record(actor.keyId, actor.organizationId, budget, reply.statusCode);
      deps.metrics?.apiRequest(budget, reply.statusCode);
    }
    done();
  });
}
