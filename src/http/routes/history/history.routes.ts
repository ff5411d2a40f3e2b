import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { HistoryBucket, RollupsService } from '../../../modules/checks/index.ts';
import { toIso } from '../../../platform/clock.ts';
import { actorOf } from '../../plugins/auth.plugin.ts';
import { IdParams } from '../../schemas/common.schemas.ts';
import { HISTORY_SCHEMAS, HistoryQuery, HistoryResponse } from './history.schemas.ts';

const presentBucket = (b: HistoryBucket) => ({
  start: toIso(b.start),
  end: toIso(b.end),
  checks: b.checks,
  failures: b.failures,
  uptime_percent: b.uptimePercent,
  p50_ms: b.p50Ms,
  p95_ms: b.p95Ms,
  p99_ms: b.p99Ms,
});

/** History is part of reading a monitor, so it takes `monitors:read`. */
export function registerHistoryRoutes(app: FastifyInstance, deps: { rollups: RollupsService }): void {
  for (const schema of HISTORY_SCHEMAS) app.addSchema(schema);
  app.get<{ Params: Static<typeof IdParams>; Querystring: Static<typeof HistoryQuery> }>(
    '/api/v1/monitors/:id/history',
    {
      config: { scope: 'monitors:read' },
      schema: {
        tags: ['monitors'],
        summary: "A monitor's uptime and latency history, oldest first",
        operationId: 'getMonitorHistory',
        params: IdParams,
        querystring: HistoryQuery,
        response: { 200: Type.Ref(HistoryResponse) },
      },
    },
    async (request) => {
      const { from, to, resolution, region_code } = request.query;
      const buckets = await deps.rollups.history(actorOf(request), request.params.id, {
        ...(from !== undefined && { from: Date.parse(from) }),
        ...(to !== undefined && { to: Date.parse(to) }),
        ...(resolution !== undefined && { resolution }),
        ...(region_code !== undefined && { regionCode: region_code }),
      });
      return { data: buckets.map(presentBucket) };
    },
  );
}
