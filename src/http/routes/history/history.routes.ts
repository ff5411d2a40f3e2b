import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { HistoryBucket, RollupsService } from '../../../modules/checks/index.ts';
import type { MonitorsService } from '../../../modules/monitors/index.ts';
import { toIso } from '../../../platform/clock.ts';
import { validationFailed } from '../../../platform/errors.ts';
import { actorOf } from '../../plugins/auth.plugin.ts';
import { contextOf } from '../../request-context.ts';
import { IdParams } from '../../schemas/common.schemas.ts';
import {
  HISTORY_SCHEMAS,
  HistoryManyQuery,
  HistoryManyResponse,
  HistoryQuery,
  HistoryResponse,
  HistoryTotalQuery,
  HistoryTotalResponse,
} from './history.schemas.ts';

const MAX_MONITORS = 100;

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
export function registerHistoryRoutes(
  app: FastifyInstance,
  deps: { rollups: RollupsService; monitors: MonitorsService },
): void {
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

  app.get<{ Querystring: Static<typeof HistoryManyQuery> }>(
    '/api/v1/monitors/history',
    {
      config: { scope: 'monitors:read' },
      schema: {
        tags: ['monitors'],
        summary: 'The history of several monitors at once (hour or day resolution), oldest first per monitor',
        description:
          'The same buckets as `GET /monitors/{id}/history` for up to 100 monitors in one request (e.g. the visible ' +
          'rows of a list). Monitors that do not exist or are not visible to the caller are left out.',
        operationId: 'getMonitorsHistory',
        querystring: HistoryManyQuery,
        response: { 200: Type.Ref(HistoryManyResponse) },
      },
    },
    async (request) => {
      const { monitor_ids, from, to, resolution, region_code } = request.query;
      const ids = monitor_ids
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s.length > 0);
      if (ids.length === 0 || ids.length > MAX_MONITORS) {
        throw validationFailed([{ field: 'monitor_ids', issue: `must name 1 to ${MAX_MONITORS} monitors` }]);
      }
      const all = await deps.rollups.historyMany(actorOf(request), ids, {
        ...(from !== undefined && { from: Date.parse(from) }),
        ...(to !== undefined && { to: Date.parse(to) }),
        ...(resolution !== undefined && { resolution }),
        ...(region_code !== undefined && { regionCode: region_code }),
      });
      return { data: all.map((m) => ({ monitor_id: m.monitorId, buckets: m.buckets.map(presentBucket) })) };
    },
  );

  app.get<{ Querystring: Static<typeof HistoryTotalQuery> }>(
    '/api/v1/monitors/history/total',
    {
      config: { scope: 'monitors:read' },
      schema: {
        tags: ['monitors'],
        summary: 'All monitors together: checks, failures and uptime per hour or day, oldest first',
        description:
          "The overview's trend in one request: every monitor the caller sees (its organization and, for a key, its " +
          "environments) summed per bucket, from the same hourly and daily rollups as each monitor's history.",
        operationId: 'getMonitorsHistoryTotal',
        querystring: HistoryTotalQuery,
        response: { 200: Type.Ref(HistoryTotalResponse) },
      },
    },
    async (request) => {
      const { from, to, resolution, region_code } = request.query;
      const ids = await deps.monitors.idsMatching(contextOf(request));
      const buckets = await deps.rollups.historyTotal(ids, {
        ...(from !== undefined && { from: Date.parse(from) }),
        ...(to !== undefined && { to: Date.parse(to) }),
        ...(resolution !== undefined && { resolution }),
        ...(region_code !== undefined && { regionCode: region_code }),
      });
      return {
        data: buckets.map((b) => ({
          start: toIso(b.start),
          end: toIso(b.end),
          checks: b.checks,
          failures: b.failures,
          uptime_percent: b.uptimePercent,
        })),
        monitors: ids.length,
      };
    },
  );
}
