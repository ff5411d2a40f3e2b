import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type {
  CustomReport,
  CustomReportInput,
  CustomReportPatch,
  CustomReportsService,
} from '../../../modules/reports/index.ts';
import { toIso } from '../../../platform/clock.ts';
import { DomainError } from '../../../platform/errors.ts';
import { actorOf } from '../../plugins/auth.plugin.ts';
import { contextOf } from '../../request-context.ts';
import { IdParams } from '../../schemas/common.schemas.ts';
import { fileResponse } from '../../schemas/files.schemas.ts';
import {
  CustomReportCreateBody,
  CustomReportDocumentSchema,
  CustomReportList,
  CustomReportListQuery,
  CustomReportPatchBody,
  CustomReportRecord,
  RenderQuery,
} from './custom-report.schemas.ts';
import { jsonSpecOf } from '../reports/report.json-spec.ts';

const tags = ['custom reports'];
const recordRef = Type.Ref(CustomReportRecord);

function present(r: CustomReport) {
  return {
    id: r.id,
    name: r.name,
    period: r.period,
    timezone: r.timezone,
    widgets: r.widgets,
    visibility: r.visibility,
    shared_with_user_ids: r.sharedWithUserIds,
    owner_id: r.ownerId,
    created_at: toIso(r.createdAt),
    updated_at: toIso(r.updatedAt),
  };
}

const ACCESS =
  ' Visibility applies: a report the key may not see answers 404 (private: its owner only; organization: every ' +
  'member; shared: the owner and shared_with_user_ids; a service account’s key sees organization reports only).';

/** /api/v1/custom-reports CRUD and render (DECISIONS §8). */
export function registerCustomReportRoutes(app: FastifyInstance, deps: { customReports: CustomReportsService }): void {
  const { customReports } = deps;
  for (const schema of [CustomReportRecord, CustomReportList, CustomReportDocumentSchema]) app.addSchema(schema);
  const documentJson = jsonSpecOf(app, CustomReportDocumentSchema);

  app.post<{ Body: CustomReportInput }>(
    '/api/v1/custom-reports',
    {
      config: { scope: 'custom_reports:write' },
      schema: {
        tags,
        summary: 'Create a custom report',
        description: 'The key’s user (or service account) becomes its owner.',
        operationId: 'createCustomReport',
        body: CustomReportCreateBody,
        response: { 201: recordRef },
      },
    },
    async (request, reply) =>
      reply.code(201).send(present(await customReports.create(contextOf(request), request.body))),
  );

  app.get<{ Querystring: Static<typeof CustomReportListQuery> }>(
    '/api/v1/custom-reports',
    {
      config: { scope: 'custom_reports:read' },
      schema: {
        tags,
        summary: 'List the custom reports the key may see',
        description: `Oldest first.${ACCESS}`,
        operationId: 'listCustomReports',
        querystring: CustomReportListQuery,
        response: { 200: Type.Ref(CustomReportList) },
      },
    },
    async (request) => {
      const { limit, cursor } = request.query;
      const page = await customReports.list(contextOf(request), {
        limit: limit ?? 50,
        ...(cursor !== undefined && { cursor }),
      });
      return { data: page.data.map(present), next_cursor: page.next_cursor };
    },
  );

  app.get<{ Params: Static<typeof IdParams> }>(
    '/api/v1/custom-reports/:id',
    {
      config: { scope: 'custom_reports:read' },
      schema: {
        tags,
        summary: 'Read a custom report',
        description: ACCESS.trim(),
        operationId: 'getCustomReport',
        params: IdParams,
        response: { 200: recordRef },
      },
    },
    async (request) => present(await customReports.get(contextOf(request), request.params.id)),
  );

  app.patch<{ Params: Static<typeof IdParams>; Body: CustomReportPatch }>(
    '/api/v1/custom-reports/:id',
    {
      config: { scope: 'custom_reports:write' },
      schema: {
        tags,
        summary: 'Update a custom report',
        description: `Its owner, or an owner or admin of the organization (403 forbidden otherwise).${ACCESS}`,
        operationId: 'updateCustomReport',
        params: IdParams,
        body: CustomReportPatchBody,
        response: { 200: recordRef },
      },
    },
    async (request) => present(await customReports.update(contextOf(request), request.params.id, request.body)),
  );

  app.delete<{ Params: Static<typeof IdParams> }>(
    '/api/v1/custom-reports/:id',
    {
      config: { scope: 'custom_reports:write' },
      schema: {
        tags,
        summary: 'Delete a custom report',
        description: `Its owner, or an owner or admin of the organization (403 forbidden otherwise).${ACCESS}`,
        operationId: 'deleteCustomReport',
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted.' }) },
      },
    },
    async (request, reply) => {
      await customReports.delete(contextOf(request), request.params.id);
      return reply.code(204).send();
    },
  );

  app.get<{ Params: Static<typeof IdParams>; Querystring: Static<typeof RenderQuery> }>(
    '/api/v1/custom-reports/:id/render',
    {
      config: { scope: 'custom_reports:read' },
      schema: {
        tags,
        summary: 'Render a custom report over its period: one section per widget',
        description:
          'Needs custom_reports:read and reports:read, and a plan with reports. JSON: `{report: "custom", id, name, ' +
          'period, generated_at, sections: [{title, kind, report, notice}]}`, each section that kind’s JSON report. ' +
          '`format=csv`: `text/csv; charset=utf-8`, each kind’s rows after a leading `section` column (the widget ' +
          `title), UTF-8 with a byte-order mark. \`format=pdf\`: one section per widget.${ACCESS}`,
        operationId: 'renderCustomReport',
        params: IdParams,
        querystring: RenderQuery,
        response: {
          200: fileResponse('The rendered report: JSON by default, CSV or PDF with `format`.', {
            json: Type.Ref(CustomReportDocumentSchema),
            csv: true,
            pdf: true,
          }),
        },
      },
    },
    async (request, reply) => {
      // The sections are reports: the key needs the scope the reports themselves need.
      if (!actorOf(request).scopes.has('reports:read')) {
        throw new DomainError('insufficient_scope', 'This key lacks the scope reports:read, which rendering needs.');
      }
      const format = request.query.format ?? 'json';
      // Built and encoded where every report file is made (a report worker thread, with its time limit).
      const built = await customReports.files(contextOf(request), request.params.id, [format], documentJson);
      const file = built.files[format]!;
      reply.type(file.contentType);
      if (format !== 'json') reply.header('content-disposition', `attachment; filename="${file.filename}"`);
      return reply.send(file.body);
    },
  );
}
