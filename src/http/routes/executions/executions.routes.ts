import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { ExecutionsService } from '../../../modules/checks/index.ts';
import { actorOf } from '../../plugins/auth.plugin.ts';
import { IdParams } from '../../schemas/common.schemas.ts';
import { presentExecution } from './execution.presenter.ts';
import { EXECUTION_SCHEMAS, ExecutionList, ExecutionListQuery, ExecutionRecordSchema } from './execution.schemas.ts';

const tags = ['executions'];

export function registerExecutionRoutes(app: FastifyInstance, deps: { executions: ExecutionsService }): void {
  const { executions } = deps;
  for (const schema of EXECUTION_SCHEMAS) app.addSchema(schema);

  app.get<{ Params: Static<typeof IdParams>; Querystring: Static<typeof ExecutionListQuery> }>(
    '/api/v1/monitors/:id/executions',
    {
      config: { scope: 'executions:read' },
      schema: {
        tags,
        summary: "List a monitor's executions, newest first",
        operationId: 'listMonitorExecutions',
        params: IdParams,
        querystring: ExecutionListQuery,
        response: { 200: Type.Ref(ExecutionList) },
      },
    },
    async (request) => {
      const { limit, cursor, from, to, region_code, status } = request.query;
      const page = await executions.list(actorOf(request), request.params.id, {
        limit: limit ?? 50,
        ...(cursor !== undefined && { cursor }),
        ...(from !== undefined && { from: Date.parse(from) }),
        ...(to !== undefined && { to: Date.parse(to) }),
        ...(region_code !== undefined && { regionCode: region_code }),
        ...(status !== undefined && { status }),
      });
      return { data: page.data.map(presentExecution), next_cursor: page.next_cursor };
    },
  );

  app.get<{ Params: Static<typeof IdParams> }>(
    '/api/v1/executions/:id',
    {
      config: { scope: 'executions:read' },
      schema: {
        tags,
        summary: 'Read one execution',
        operationId: 'getExecution',
        params: IdParams,
        response: { 200: Type.Ref(ExecutionRecordSchema) },
      },
    },
    async (request) => presentExecution(await executions.get(actorOf(request), request.params.id)),
  );
}
