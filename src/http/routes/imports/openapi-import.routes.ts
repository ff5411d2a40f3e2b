import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseOpenApi, planImport, type ImportableOperation } from '../../../modules/imports/index.ts';
import type { MonitorInput, MonitorsService } from '../../../modules/monitors/index.ts';
import { validationFailed, type ErrorDetail } from '../../../platform/errors.ts';
import { detailsFromAjv } from '../../plugins/validation.plugin.ts';
import { contextOf } from '../../request-context.ts';
import { presentMonitor } from '../monitors/monitor.presenter.ts';
import { MonitorCreateBody, MonitorRecord } from '../monitors/monitor.schemas.ts';
import {
  OpenApiImportBody,
  OpenApiParseBody,
  OpenApiParseResult,
  ParsedOperationRecord,
} from './openapi-import.schemas.ts';

const tags = ['monitors'];

const ImportResult = Type.Object(
  { data: Type.Array(Type.Ref(MonitorRecord)) },
  { $id: 'OpenApiImportResult', title: 'OpenApiImportResult' },
);

/** The monitor body checked by the schema of POST /monitors (the same shape rules, the same 422 details). */
function shapeDetailsOf(request: FastifyRequest, body: Record<string, unknown>): ErrorDetail[] {
  const validate = request.compileValidationSchema(MonitorCreateBody, 'body');
  if (validate(body)) return [];
  return detailsFromAjv((validate.errors ?? []) as Parameters<typeof detailsFromAjv>[0]);
}

/** POST /monitors/openapi/parse and /import (DECISIONS §9, docs/imports.md). */
export function registerOpenApiImportRoutes(
  app: FastifyInstance,
  deps: { monitors: MonitorsService; bodyLimitBytes: number },
): void {
  const { monitors } = deps;
  for (const schema of [ParsedOperationRecord, OpenApiParseResult, ImportResult]) app.addSchema(schema);
  // The text of a 10 MiB description grows when it is escaped into a JSON string.
  const bodyLimit = Math.ceil(deps.bodyLimitBytes * 1.5);

  app.post<{ Body: Static<typeof OpenApiParseBody> }>(
    '/api/v1/monitors/openapi/parse',
    {
      bodyLimit,
      config: { scope: 'monitors:create' },
      schema: {
        tags,
        summary: 'List the monitors an OpenAPI description gives',
        description:
          'One entry per operation with a ready POST /monitors body and what had to be guessed. Nothing is ' +
          'created, and references to other documents are never fetched.',
        operationId: 'parseOpenApi',
        body: OpenApiParseBody,
        response: { 200: Type.Ref(OpenApiParseResult) },
      },
    },
    async (request) => ({ operations: await parseOpenApi(request.body.spec, request.body.base_url) }),
  );

  app.post<{ Body: Static<typeof OpenApiImportBody> }>(
    '/api/v1/monitors/openapi/import',
    {
      bodyLimit,
      config: { scope: 'monitors:create' },
      schema: {
        tags,
        summary: 'Create monitors from an OpenAPI description in one step',
        description:
          'Creates a monitor for each chosen operation, all in one transaction or none (validation, plan limit).',
        operationId: 'importOpenApi',
        body: OpenApiImportBody,
        response: { 201: Type.Ref(ImportResult) },
      },
    },
    async (request, reply) => {
      const body = request.body;
      if ((body.spec === undefined) === (body.operations === undefined)) {
        throw validationFailed([
          { field: 'spec', issue: 'give either spec or operations (a previous parse), not both' },
        ]);
      }
      const operations: readonly ImportableOperation[] =
        body.spec !== undefined ? await parseOpenApi(body.spec, body.base_url) : body.operations!;
      const planned = planImport(operations, body.operation_ids, body.defaults);
      const items = planned.map((p) => {
        const shape = shapeDetailsOf(request, p.body);
        return { input: p.body as unknown as MonitorInput, shapeDetails: shape, field: p.field };
      });
      const created = await monitors.createMany(contextOf(request), items);
      return reply.code(201).send({ data: created.map(presentMonitor) });
    },
  );
}
