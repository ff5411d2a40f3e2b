import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app.deps.ts';

export function registerSystemRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.get(
    '/healthz',
    {
      config: { public: true },
      schema: {
        tags: ['system'],
        summary: 'Liveness: the process is up',
        response: { 200: Type.Object({ status: Type.Literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      config: { public: true },
      schema: {
        tags: ['system'],
        summary: 'Readiness: the database answers',
        response: {
          200: Type.Object({ status: Type.Literal('ready'), database: Type.String() }),
          503: Type.Object({ status: Type.Literal('unavailable'), database: Type.String() }),
        },
      },
    },
    async (_request, reply) => {
      const ok = await deps.database.ping();
      return ok
        ? { status: 'ready' as const, database: deps.database.dialect }
        : reply.code(503).send({ status: 'unavailable' as const, database: deps.database.dialect });
    },
  );

  app.get(
    '/api/v1/openapi.json',
    {
      config: { public: true },
      schema: {
        tags: ['system'],
        summary: 'The OpenAPI 3.1 description of this API',
        response: { 200: { type: 'object', additionalProperties: true } },
      },
    },
    async () => app.swagger(),
  );
}
