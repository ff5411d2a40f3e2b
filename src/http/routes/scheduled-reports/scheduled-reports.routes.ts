import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type {
  ReportFilesService,
  ScheduledReport,
  ScheduledReportInput,
  ScheduledReportPatch,
  ScheduledReportRunView,
  ScheduledReportsService,
} from '../../../modules/scheduled-reports/index.ts';
import { toIso } from '../../../platform/clock.ts';
import { contextOf } from '../../request-context.ts';
import { IdParams } from '../../schemas/common.schemas.ts';
import { fileResponse } from '../../schemas/files.schemas.ts';
import {
  ReportFileParams,
  ReportFileQuery,
  ScheduledReportCreateBody,
  ScheduledReportList,
  ScheduledReportListQuery,
  ScheduledReportPatchBody,
  ScheduledReportRecord,
  ScheduledReportRunSchema,
  ScheduledReportRuns,
  ScheduledReportRunsQuery,
} from './scheduled-report.schemas.ts';

const tags = ['scheduled reports'];
const recordRef = Type.Ref(ScheduledReportRecord);

function present(s: ScheduledReport) {
  return {
    id: s.id,
    report_type: s.reportType,
    custom_report_id: s.customReportId,
    frequency: s.frequency,
    day_of_week: s.dayOfWeek,
    day_of_month: s.dayOfMonth,
    time_of_day: s.timeOfDay,
    timezone: s.timezone,
    destination_ids: s.destinationIds,
    enabled: s.enabled,
    next_run_at: toIso(s.nextRunAt),
    last_run_at: s.lastRunAt === null ? null : toIso(s.lastRunAt),
    last_status: s.lastStatus,
    created_at: toIso(s.createdAt),
    updated_at: toIso(s.updatedAt),
  };
}

function presentRun(v: ScheduledReportRunView) {
  const { run } = v;
  return {
    id: run.eventId,
    manual: run.manual,
    period: { from: toIso(run.periodFrom), to: toIso(run.periodTo) },
    status: run.status,
    started_at: toIso(run.startedAt),
    ended_at: run.endedAt === null ? null : toIso(run.endedAt),
    destination_count: run.destinationCount,
    missing_destinations: v.missingDestinations,
    deliveries: v.deliveries.map((d) => ({
      destination_id: d.destinationId,
      destination_name: d.destinationName,
      destination_type: d.destinationType,
      status: d.status,
      attempts: d.attempts,
      last_error: d.lastError,
      delivered_at: d.deliveredAt === null ? null : toIso(d.deliveredAt),
    })),
  };
}

const PLAN_NOTE = 'Needs a plan with reports.';

/** /api/v1/scheduled-reports CRUD + POST /{id}/run, and GET /api/v1/report-files/{id}?token= (DECISIONS §8, §12). */
export function registerScheduledReportRoutes(
  app: FastifyInstance,
  deps: { scheduledReports: ScheduledReportsService; reportFiles: ReportFilesService },
): void {
  const { scheduledReports, reportFiles } = deps;
  for (const schema of [ScheduledReportRecord, ScheduledReportList, ScheduledReportRunSchema, ScheduledReportRuns])
    app.addSchema(schema);

  app.post<{ Body: ScheduledReportInput }>(
    '/api/v1/scheduled-reports',
    {
      config: {
        scope: 'scheduled_reports:write',
        bodyRules: (body, request) => scheduledReports.bodyIssues(contextOf(request), body),
      },
      schema: {
        tags,
        summary: 'Create a scheduled report',
        description: `Delivers a report at a local time in a time zone to destinations. ${PLAN_NOTE}`,
        operationId: 'createScheduledReport',
        body: ScheduledReportCreateBody,
        response: { 201: recordRef },
      },
    },
    async (request, reply) =>
      reply.code(201).send(present(await scheduledReports.create(contextOf(request), request.body))),
  );

  app.get<{ Querystring: Static<typeof ScheduledReportListQuery> }>(
    '/api/v1/scheduled-reports',
    {
      config: { scope: 'scheduled_reports:read' },
      schema: {
        tags,
        summary: 'List scheduled reports',
        description: PLAN_NOTE,
        operationId: 'listScheduledReports',
        querystring: ScheduledReportListQuery,
        response: { 200: Type.Ref(ScheduledReportList) },
      },
    },
    async (request) => {
      const { limit, cursor } = request.query;
      const page = await scheduledReports.list(contextOf(request), {
        limit: limit ?? 50,
        ...(cursor !== undefined && { cursor }),
      });
      return { data: page.data.map(present), next_cursor: page.next_cursor };
    },
  );

  app.get<{ Params: Static<typeof IdParams> }>(
    '/api/v1/scheduled-reports/:id',
    {
      config: { scope: 'scheduled_reports:read' },
      schema: {
        tags,
        summary: 'Read a scheduled report',
        description: PLAN_NOTE,
        operationId: 'getScheduledReport',
        params: IdParams,
        response: { 200: recordRef },
      },
    },
    async (request) => present(await scheduledReports.get(contextOf(request), request.params.id)),
  );

  app.patch<{ Params: Static<typeof IdParams>; Body: ScheduledReportPatch }>(
    '/api/v1/scheduled-reports/:id',
    {
      config: {
        scope: 'scheduled_reports:write',
        bodyRules: (body, request) =>
          scheduledReports.bodyIssues(contextOf(request), body, (request.params as { id: string }).id),
      },
      schema: {
        tags,
        summary: 'Update a scheduled report (enabled: false pauses it)',
        description: PLAN_NOTE,
        operationId: 'updateScheduledReport',
        params: IdParams,
        body: ScheduledReportPatchBody,
        response: { 200: recordRef },
      },
    },
    async (request) => present(await scheduledReports.update(contextOf(request), request.params.id, request.body)),
  );

  app.delete<{ Params: Static<typeof IdParams> }>(
    '/api/v1/scheduled-reports/:id',
    {
      config: { scope: 'scheduled_reports:write' },
      schema: {
        tags,
        summary: 'Delete a scheduled report',
        description: `Files of earlier runs stay reachable through their links until the links expire. ${PLAN_NOTE}`,
        operationId: 'deleteScheduledReport',
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted.' }) },
      },
    },
    async (request, reply) => {
      await scheduledReports.delete(contextOf(request), request.params.id);
      return reply.code(204).send();
    },
  );

  app.post<{ Params: Static<typeof IdParams> }>(
    '/api/v1/scheduled-reports/:id/run',
    {
      config: { scope: 'scheduled_reports:write' },
      schema: {
        tags,
        summary: 'Run a scheduled report now',
        description:
          'Accepted (202): one run is made at once by one of the service’s processes, for the last complete period ' +
          'before now (a custom report: its own period), and delivered like a scheduled run; next_run_at does not ' +
          'move. Works on a paused schedule too. No body.',
        operationId: 'runScheduledReport',
        params: IdParams,
        response: { 202: recordRef },
      },
    },
    async (request, reply) =>
      reply.code(202).send(present(await scheduledReports.requestRun(contextOf(request), request.params.id))),
  );

  app.get<{ Params: Static<typeof IdParams>; Querystring: Static<typeof ScheduledReportRunsQuery> }>(
    '/api/v1/scheduled-reports/:id/runs',
    {
      config: { scope: 'scheduled_reports:read' },
      schema: {
        tags,
        summary: 'The latest runs of a scheduled report and how each delivery went',
        description: `Newest first; each run with its period, status and one entry per destination it was sent to. ${PLAN_NOTE}`,
        operationId: 'listScheduledReportRuns',
        params: IdParams,
        querystring: ScheduledReportRunsQuery,
        response: { 200: Type.Ref(ScheduledReportRuns) },
      },
    },
    async (request) => {
      const runs = await scheduledReports.runs(contextOf(request), request.params.id, request.query.limit ?? 20);
      return { data: runs.map(presentRun) };
    },
  );

  app.get<{ Params: Static<typeof ReportFileParams>; Querystring: Static<typeof ReportFileQuery> }>(
    '/api/v1/report-files/:id',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Download a file of a scheduled report run',
        description:
          'The link a delivery carried (PDF, CSV or JSON). No API key: the token in the link is the credential, ' +
          'valid 7 days; then the file is removed. An unknown file, a wrong token and an expired one all answer 404.',
        operationId: 'getReportFile',
        params: ReportFileParams,
        querystring: ReportFileQuery,
        response: {
          200: fileResponse(
            'The file, with its content type and a file name to save it as. The JSON file is the report as ' +
              'GET /api/v1/reports/{report_type} answers it, or the rendered custom report.',
            {
              pdf: true,
              csv: true,
              json: Type.Union([
                Type.Ref('AvailabilityReport'),
                Type.Ref('PerformanceReport'),
                Type.Ref('SlaReport'),
                Type.Ref('IncidentsReport'),
                Type.Ref('IntelligenceReport'),
                Type.Ref('MonitorHealthReport'),
                Type.Ref('CustomReportDocument'),
              ]),
            },
          ),
        },
      },
    },
    async (request, reply) => {
      const file = await reportFiles.open(request.params.id, request.query.token);
      return reply
        .type(file.contentType)
        .header('content-disposition', `attachment; filename="${file.filename.replace(/["\\\r\n]/g, '_')}"`)
        .header('cache-control', 'private, no-store')
        .header('referrer-policy', 'no-referrer')
        .send(file.body);
    },
  );
}
