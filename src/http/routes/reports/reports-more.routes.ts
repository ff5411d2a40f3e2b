import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { ReportKind, ReportRenderer, ReportsService } from '../../../modules/reports/index.ts';
import { contextOf } from '../../request-context.ts';
import { fileResponse } from '../../schemas/files.schemas.ts';
import { reportInputOf } from './report.query.ts';
import { jsonSpecOf } from './report.json-spec.ts';
import {
  ExportQuery,
  IncidentReportRowSchema,
  IncidentsReportSchema,
  IntelligenceReportSchema,
  MonitorHealthReportSchema,
} from './report-more.schemas.ts';
import { ReportQuery } from './report.schemas.ts';

const tags = ['reports'];
type Query = Static<typeof ReportQuery>;

const FORMAT_NOTE =
  ' `format=csv` answers `text/csv; charset=utf-8` instead: UTF-8 with a byte-order mark, RFC 4180, a header row ' +
  '(columns in docs/reports.md), the same figures as the JSON. `format=pdf` answers `application/pdf` (an A4 ' +
  'document: key figures, charts, tables). Both come as an attachment with a file name.';

/** GET /api/v1/reports/{incidents|incidents/export|intelligence|monitor-health} (DECISIONS §8, §11). */
export function registerMoreReportRoutes(
  app: FastifyInstance,
  deps: { reports: ReportsService; renderer: ReportRenderer },
): void {
  const { reports, renderer } = deps;
  for (const schema of [
    IncidentReportRowSchema,
    IncidentsReportSchema,
    IntelligenceReportSchema,
    MonitorHealthReportSchema,
  ])
    app.addSchema(schema);

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
              json: Type.Ref(schema.$id!),
              csv: true,
              pdf: true,
            }),
          },
        },
      },
      async (request, reply) => {
        const format = request.query.format ?? 'json';
        // Built once and encoded on a report worker thread, as every report file is.
        const built = await renderer.files(contextOf(request), kind, reportInputOf(request.query), [format], json);
        const file = built.files[format]!;
        reply.type(file.contentType);
        if (format !== 'json') reply.header('content-disposition', `attachment; filename="${file.filename}"`);
        return reply.send(file.body);
      },
    );
  };

  route(
    '/api/v1/reports/incidents',
    'incidentsReport',
    'Incidents overlapping the period: counts by source, MTTA and MTTR (mean and median), incidents per day',
    IncidentsReportSchema,
    'incidents',
  );
  route(
    '/api/v1/reports/intelligence',
    'intelligenceReport',
    'Intelligence events of the period by category and monitor, and the correlations between monitors',
    IntelligenceReportSchema,
    'intelligence',
  );
  route(
    '/api/v1/reports/monitor-health',
    'monitorHealthReport',
    'Noisy, flapping, misconfigured and never-succeeded monitors, each finding with its reason and figures',
    MonitorHealthReportSchema,
    'monitor_health',
  );

  app.get<{ Querystring: Static<typeof ExportQuery> }>(
    '/api/v1/reports/incidents/export',
    {
      config: { scope: 'reports:read' },
      schema: {
        tags,
        summary: 'Every incident of the period: streamed CSV (default) or JSON report, or the PDF document',
        description:
          'Needs the reports:read scope and a plan with reports. `format=csv` (default) and `format=json` stream in ' +
          'constant memory whatever the number of incidents (keyset pages of 2,000 read as the client takes them). ' +
          'csv: `text/csv; charset=utf-8`, UTF-8 with a byte-order mark, RFC 4180, the incidents report’s columns. ' +
          'json: `application/json`, the incidents report (`report`, `period`, `generated_at`, `methodology`, ' +
          '`incidents` an incident per line, then `summary` and `daily`). `format=pdf`: `application/pdf`, the ' +
          'incidents report’s document (its table lists the first 5,000 incidents; the figures count all). In opening order. Bad input is refused before the first ' +
          'byte; a failure while streaming cuts the response short.',
        operationId: 'incidentsExport',
        querystring: ExportQuery,
        response: {
          200: fileResponse(
            'Every incident of the period: CSV by default, the incidents report as JSON with `format=json`, its PDF with `format=pdf`.',
            { csv: true, json: Type.Ref('IncidentsReport'), pdf: true },
          ),
        },
      },
    },
    async (request, reply) => {
      const format = request.query.format ?? 'csv';
      const ctx = contextOf(request);
      if (format === 'pdf') {
        // "Page X of Y" and the first page's figures need every incident before the first byte: the document is
        // drawn whole on the report thread, as every report PDF is, then sent.
        const built = await renderer.files(ctx, 'incidents', reportInputOf(request.query), ['pdf']);
        const file = built.files.pdf!;
        return reply
          .type(file.contentType)
          .header('content-disposition', 'attachment; filename="incidents.pdf"')
          .send(file.body);
      }
      const stream = await reports.incidentsExport(ctx, reportInputOf(request.query), format);
      const type = format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8';
      return reply.type(type).header('content-disposition', `attachment; filename="incidents.${format}"`).send(stream);
    },
  );
}
