import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { ReportsService } from '../../../modules/reports/index.ts';
import { toIso, toIsoOrNull } from '../../../platform/clock.ts';
import { contextOf } from '../../request-context.ts';
import { IdParams } from '../../schemas/common.schemas.ts';
import { MonitorPeriodsQuery, MonitorPeriodsResponse, PERIODS_SCHEMAS } from './periods.schemas.ts';

const DAY_MS = 86_400_000;

/** What a chart shades over a monitor's history; part of reading a monitor, so `monitors:read` and no plan gate. */
export function registerMonitorPeriodsRoutes(app: FastifyInstance, deps: { reports: ReportsService }): void {
  for (const schema of PERIODS_SCHEMAS) app.addSchema(schema);
  app.get<{ Params: Static<typeof IdParams>; Querystring: Static<typeof MonitorPeriodsQuery> }>(
    '/api/v1/monitors/:id/periods',
    {
      config: { scope: 'monitors:read' },
      schema: {
        tags: ['monitors'],
        summary: "A monitor's down, degraded, maintenance and paused periods and its incidents over a range",
        description:
          'The periods come from the same timeline as the availability report (a down period starts at the first ' +
          'failing check of the confirmed outage). 422 when from is not before to or the range is over 400 days.',
        operationId: 'getMonitorPeriods',
        params: IdParams,
        querystring: MonitorPeriodsQuery,
        response: { 200: Type.Ref(MonitorPeriodsResponse) },
      },
    },
    async (request) => {
      const ctx = contextOf(request);
      const to = request.query.to !== undefined ? Date.parse(request.query.to) : ctx.clock.now();
      const from = request.query.from !== undefined ? Date.parse(request.query.from) : to - DAY_MS;
      const result = await deps.reports.periods(ctx, request.params.id, { from, to });
      return {
        from: toIso(result.from),
        to: toIso(result.to),
        periods: result.periods.map((p) => ({ state: p.state, start: toIso(p.start), end: toIso(p.end) })),
        incidents: result.incidents.map((i) => ({
          id: i.id,
          number: i.number,
          title: i.title,
          status: i.status,
          down_since: toIso(i.downSince ?? i.openedAt),
          opened_at: toIso(i.openedAt),
          acknowledged_at: toIsoOrNull(i.acknowledgedAt),
          resolved_at: toIsoOrNull(i.resolvedAt),
        })),
      };
    },
  );
}
