import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ExecutionRecord, ExecutionsService } from '../../../modules/checks/index.ts';
import type { MaintenanceService } from '../../../modules/maintenance/index.ts';
import type { MonitorsService } from '../../../modules/monitors/index.ts';
import { actorOf } from '../../plugins/auth.plugin.ts';
import { IdParams } from '../../schemas/common.schemas.ts';
import { presentExecution } from './execution.presenter.ts';
import { EXECUTION_SCHEMAS, ExecutionList, ExecutionListQuery, ExecutionRecordSchema } from './execution.schemas.ts';

const tags = ['executions'];

/** Which of these executions (of one monitor) started while a maintenance window covered it. */
async function maintenanceFlags(
  deps: ExecutionRouteDeps,
  request: FastifyRequest,
  monitorId: string,
  list: readonly ExecutionRecord[],
): Promise<boolean[]> {
  if (list.length === 0) return [];
  const [monitor] = await deps.monitors.findManyAnywhere([monitorId]);
  if (!monitor) return list.map(() => false);
  const starts = list.map((e) => e.startedAt);
  const spans =
    (
      await deps.maintenance.coveredIntervals(
        request.server.serviceContextSource.database,
        actorOf(request).organizationId,
        [monitor],
        Math.min(...starts),
        Math.max(...starts) + 1,
      )
    ).get(monitor.id) ?? [];
  return starts.map((t) => spans.some(([from, to]) => t >= from && t < to));
}

interface ExecutionRouteDeps {
  executions: ExecutionsService;
  monitors: Pick<MonitorsService, 'findManyAnywhere'>;
  maintenance: Pick<MaintenanceService, 'coveredIntervals'>;
}

export function registerExecutionRoutes(app: FastifyInstance, deps: ExecutionRouteDeps): void {
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
      const flags = await maintenanceFlags(deps, request, request.params.id, page.data);
      return { data: page.data.map((e, i) => presentExecution(e, flags[i])), next_cursor: page.next_cursor };
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
    async (request) => {
      const execution = await executions.get(actorOf(request), request.params.id);
      const [inMaintenance] = await maintenanceFlags(deps, request, execution.monitorId, [execution]);
      return presentExecution(execution, inMaintenance);
    },
  );
}
