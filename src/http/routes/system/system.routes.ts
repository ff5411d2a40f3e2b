import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { CheckPressure } from '../../../modules/checks/index.ts';
import type { AppDeps } from '../../app.deps.ts';

const CheckPressureSchema = Type.Object(
  {
    lateness_p50_ms: Type.Union([Type.Integer(), Type.Null()], {
      description: 'Median lateness (claimed-at minus due-at) of the checks this process claimed in the last minute.',
    }),
    lateness_p99_ms: Type.Union([Type.Integer(), Type.Null()], {
      description: '99th percentile of the same (within 10 %); null when this process claimed nothing.',
    }),
    claimed_last_minute: Type.Integer({ description: 'Checks this process claimed in the last minute.' }),
    backlog: Type.Integer({ description: 'Checks due and not claimed by any process, every region.' }),
    oldest_due_age_ms: Type.Integer({ description: 'How long the oldest of them has waited past its due time.' }),
    shedding: Type.Boolean({
      description:
        'A due check has waited more than a second unclaimed: runners are saturated (or none serves a region), ' +
        'and claims pick fairly across organizations among more checks than they can take.',
    }),
  },
  { description: 'How far behind the checks are.' },
);

export function registerSystemRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.get(
    '/healthz',
    {
      config: { public: true },
      schema: {
        tags: ['system'],
        operationId: 'healthz',
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
        operationId: 'readyz',
        summary: 'Readiness: the database answers; how far behind the checks are',
        description:
          'Ready (200) while the database answers, however late the checks are: an instance that is behind still ' +
          'serves the API and its runner is still working through the backlog; taking it out of rotation or ' +
          'restarting it would not make checks catch up. Alert on `checks.shedding` and the lateness instead ' +
          '(docs/operations.md). 503 only when the database does not answer.',
        response: {
          200: Type.Object({
            status: Type.Literal('ready'),
            database: Type.String(),
            checks: CheckPressureSchema,
          }),
          503: Type.Object({ status: Type.Literal('unavailable'), database: Type.String() }),
        },
      },
    },
    async (_request, reply) => {
      const unavailable = () =>
        reply.code(503).send({ status: 'unavailable' as const, database: deps.database.dialect });
      if (!(await deps.database.ping())) return unavailable();
      let p: CheckPressure;
      try {
        p = await deps.services.checks.engine.pressure();
      } catch {
        return unavailable(); // the database answered the ping, then not this read
      }
      return {
        status: 'ready' as const,
        database: deps.database.dialect,
        checks: {
          lateness_p50_ms: p.latenessP50Ms,
          lateness_p99_ms: p.latenessP99Ms,
          claimed_last_minute: p.claimedLastMinute,
          backlog: p.backlog,
          oldest_due_age_ms: p.oldestDueAgeMs,
          shedding: p.shedding,
        },
      };
    },
  );

  app.get(
    '/api/v1/openapi.json',
    {
      config: { public: true },
      schema: {
        tags: ['system'],
        operationId: 'getOpenApiDocument',
        summary: 'The OpenAPI 3.1 description of this API',
        response: { 200: { type: 'object', additionalProperties: true } },
      },
    },
    async () => app.swagger(),
  );
}
