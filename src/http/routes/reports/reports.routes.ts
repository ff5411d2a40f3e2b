import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  availabilityCsv,
  performanceCsv,
  slaCsv,
  type ReportInput,
  type ReportsService,
} from '../../../modules/reports/index.ts';
import type { ServiceContext } from '../../../modules/auth/index.ts';
import { contextOf } from '../../request-context.ts';
import { AvailabilityReportSchema, PerformanceReportSchema, ReportQuery, SlaReportSchema } from './report.schemas.ts';

const tags = ['reports'];
type Query = Static<typeof ReportQuery>;

function listOf(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

function inputOf(q: Query): ReportInput {
  const monitorIds = listOf(q.monitor_ids);
  const tagList = listOf(q.tags);
  return {
    ...(q.period !== undefined && { period: q.period }),
    ...(q.from !== undefined && { from: q.from }),
    ...(q.to !== undefined && { to: q.to }),
    ...(q.timezone !== undefined && { timezone: q.timezone }),
    ...(monitorIds !== undefined && { monitorIds }),
    ...(tagList !== undefined && { tags: tagList }),
  };
}

const CSV_NOTE =
  ' `format=csv` answers `text/csv; charset=utf-8` instead: UTF-8 with a byte-order mark, RFC 4180, a header row ' +
  '(columns in docs/reports.md), the same figures as the JSON.';

/** GET /api/v1/reports/{availability|performance|sla}: JSON or CSV (DECISIONS §8, §11). */
export function registerReportRoutes(app: FastifyInstance, deps: { reports: ReportsService }): void {
  const { reports } = deps;
  for (const schema of [AvailabilityReportSchema, PerformanceReportSchema, SlaReportSchema]) app.addSchema(schema);

  const route = <R>(
    path: string,
    operationId: string,
    summary: string,
    schema: TSchema & { $id?: string },
    build: (ctx: ServiceContext, input: ReportInput) => Promise<R>,
    csv: (report: R) => string,
  ) =>
    app.get<{ Querystring: Query }>(
      path,
      {
        config: { scope: 'reports:read' },
        schema: {
          tags,
          summary,
          description: `Needs the reports:read scope and a plan with reports.${CSV_NOTE}`,
          operationId,
          querystring: ReportQuery,
          produces: ['application/json', 'text/csv'],
          response: { 200: Type.Ref(schema) },
        },
      },
      async (request, reply: FastifyReply) => {
        const report = await build(contextOf(request), inputOf(request.query));
        if (request.query.format === 'csv') {
          return reply
            .type('text/csv; charset=utf-8')
            .header('content-disposition', `attachment; filename="${operationId}.csv"`)
            .send(csv(report));
        }
        return report;
      },
    );

  route(
    '/api/v1/reports/availability',
    'availabilityReport',
    'Availability per monitor: uptime, downtime, paused and unmonitored time, incidents, days',
    AvailabilityReportSchema,
    (ctx, input) => reports.availability(ctx, input),
    availabilityCsv,
  );
  route(
    '/api/v1/reports/performance',
    'performanceReport',
    'Response times per monitor: percentiles from merged sketches, trend, anomalies, days',
    PerformanceReportSchema,
    (ctx, input) => reports.performance(ctx, input),
    performanceCsv,
  );
  route(
    '/api/v1/reports/sla',
    'slaReport',
    'SLA targets: current period with error budget and burn rate, earlier periods in the range',
    SlaReportSchema,
    (ctx, input) => reports.sla(ctx, input),
    slaCsv,
  );
}
