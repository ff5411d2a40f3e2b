import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { CheckEngineModule } from '../../../modules/checks/index.ts';
import { toIso } from '../../../platform/clock.ts';

const Params = Type.Object({ token: Type.String({ minLength: 1, maxLength: 128 }) });
const Ack = Type.Object({
  status: Type.Literal('ok'),
  monitor_id: Type.String(),
  received_at: Type.String({ format: 'date-time' }),
});

/** Push URL of heartbeat monitors: public, the token is the secret. GET too, for `curl` in a crontab. */
export function registerHeartbeatRoutes(app: FastifyInstance, deps: { checks: CheckEngineModule }): void {
  const handler = async (request: { params: Static<typeof Params> }) => {
    const { monitor, receivedAt } = await deps.checks.heartbeats.ping(request.params.token);
    return { status: 'ok' as const, monitor_id: monitor.id, received_at: toIso(receivedAt) };
  };
  for (const method of ['POST', 'GET'] as const) {
    app.route<{ Params: Static<typeof Params> }>({
      method,
      url: '/api/v1/heartbeats/:token',
      config: { public: true },
      schema: {
        tags: ['heartbeats'],
        summary: method === 'POST' ? 'Record a heartbeat ping' : 'Record a heartbeat ping (GET, for cron jobs)',
        description:
          "The token in the path is the heartbeat monitor's secret; no API key is needed. Unknown token: 404.",
        operationId: method === 'POST' ? 'pingHeartbeat' : 'pingHeartbeatGet',
        params: Params,
        response: { 200: Ack },
      },
      handler,
    });
  }
}
