import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ReportKind, ReportRenderer } from '../../../modules/reports/index.ts';
import { contextOf } from '../../request-context.ts';
import { fileResponse } from '../../schemas/files.schemas.ts';
import { reportInputOf } from './report.query.ts';
import { jsonSpecOf } from './report.json-spec.ts';
import { AvailabilityReportSchema, PerformanceReportSchema, ReportQuery, SlaReportSchema } from './report.schemas.ts';

const tags = ['reports'];
type Query = Static<typeof ReportQuery>;

const FORMAT_NOTE =
  ' `format=csv` answers `text/csv; charset=utf-8` instead: UTF-8 with a byte-order mark, RFC 4180, a header row ' +
  '(columns in docs/reports.md), the same figures as the JSON. `format=pdf` answers `application/pdf`: an A4 ' +
  'document with the key figures on its first page, charts and tables (pages in docs/reports.md). Both come as an ' +
  'attachment with a file name.';

/** GET /api/v1/reports/{availability|performance|sla}: JSON, CSV or PDF (DECISIONS §8, §11). */
export function registerReportRoutes(app: FastifyInstance, deps: { renderer: ReportRenderer }): void {
  const { renderer } = deps;
  // the report worker threads go with the app
  app.addHook('onClose', () => renderer.close());
  for (const schema of [AvailabilityReportSchema, PerformanceReportSchema, SlaReportSchema]) app.addSchema(schema);

  const route = (path: string, operationId: string, summary: string, schema: TSchema, kind: ReportKind) => {
    const json = jsonSpecOf(app, schema);
    return app.get<{ Querystring: Query }>(
      path,
      {
        config: { scope: 'reports:read' },
        schema: {
          tags,
          summary,
          description: `Needs the reports:read scope and a plan with reports.${FORMAT_NOTE}`,
          operationId,
          querystring: ReportQuery,
          response: {
            200: fileResponse('The report: JSON by default, CSV or PDF with `format`.', {
              json: Type.Ref(schema),
              csv: true,
              pdf: true,
            }),
          },
        },
      },
      async (request, reply: FastifyReply) => {
        const ctx = contextOf(request);
        const format = request.query.format ?? 'json';
        // Built once and encoded on a report worker thread (with its time limit): checks and requests go on meanwhile.
        const built = await renderer.files(ctx, kind, reportInputOf(request.query), [format], json);
        const file = built.files[format]!;
        reply.type(file.contentType);
        if (format !== 'json') reply.header('content-disposition', `attachment; filename="${file.filename}"`);
        return reply.send(file.body);
      },
    );
  };

  route(
    '/api/v1/reports/availability',
    'availabilityReport',
    'Availability per monitor: uptime, downtime, paused and unmonitored time, incidents, days',
    AvailabilityReportSchema,
    'availability',
  );
  route(
    '/api/v1/reports/performance',
    'performanceReport',
    'Response times per monitor: percentiles from merged sketches, trend, anomalies, days',
    PerformanceReportSchema,
    'performance',
  );
  route(
    '/api/v1/reports/sla',
    'slaReport',
    'SLA targets: current period with error budget and burn rate, earlier periods in the range',
    SlaReportSchema,
    'sla',
  );
}
