import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { planImport, type OpenApiParser, type PlannedMonitor, type SpecInput } from '../../../modules/imports/index.ts';
import type { MonitorInput, MonitorsService } from '../../../modules/monitors/index.ts';
import { validationFailed, type ErrorDetail } from '../../../platform/errors.ts';
import { detailsFromAjv } from '../../plugins/validation.plugin.ts';
import { contextOf } from '../../request-context.ts';
import { readOpenApiBody } from './openapi-body.parser.ts';
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
  deps: { monitors: MonitorsService; parser: OpenApiParser; bodyLimitBytes: number },
): void {
  const { monitors, parser } = deps;
  for (const schema of [ParsedOperationRecord, OpenApiParseResult, ImportResult]) app.addSchema(schema);
  // The text of a 10 MiB description grows when it is escaped into a JSON string.
  const bodyLimit = Math.ceil(deps.bodyLimitBytes * 1.5);
  // Bodies whose spec came as an object, kept as its JSON text (readOpenApiBody).
  const objectSpecs = new WeakSet<object>();
  const specOf = (body: { spec?: unknown; base_url?: string }): SpecInput => ({
    spec: body.spec,
    bodyJson: objectSpecs.has(body),
    baseUrl: body.base_url,
  });

  const registerRoutes = (app: FastifyInstance): void => {
    app.post<{ Body: Static<typeof OpenApiParseBody> }>(
      '/api/v1/monitors/openapi/parse',
      {
        bodyLimit,
        config: { scope: 'monitors:create' },
        schema: {
          tags,
          summary: 'List the monitors an OpenAPI description gives',
          description:
            'One entry per operation with a ready POST /monitors body and what had to be guessed, in the ' +
            "description's order (paths, then each path's operations as listed). Nothing is created, and references " +
            'to other documents are never fetched. Read on a worker thread: a description with more operations than ' +
            'the server reads (imports.openapi_max_operations, default 10,000), or whose reading takes longer than ' +
            'imports.openapi_timeout_ms (default 30 s), is 422 validation_failed on spec.',
          operationId: 'parseOpenApi',
          body: OpenApiParseBody,
          response: { 200: Type.Ref(OpenApiParseResult) },
        },
      },
      async (request, reply) => {
        // Serialized on the parse thread: tens of thousands of operations are not written out on this one.
        const json = await parser.parse(specOf(request.body));
        return reply.type('application/json; charset=utf-8').send(json);
      },
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
            'Creates a monitor for each chosen operation, all in one transaction or none (validation, plan limit). ' +
            'A spec is read on a worker thread with the limits of POST /monitors/openapi/parse (422 on spec).',
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
        const planned: PlannedMonitor[] =
          body.spec !== undefined
            ? await parser.plan(specOf(body), body.operation_ids, body.defaults)
            : planImport(body.operations!, body.operation_ids, body.defaults);
        const items = planned.map((p) => {
          const shape = shapeDetailsOf(request, p.body);
          return { input: p.body as unknown as MonitorInput, shapeDetails: shape, field: p.field };
        });
        const created = await monitors.createMany(contextOf(request), items);
        return reply.code(201).send({ data: created.map(presentMonitor) });
      },
    );
  };

  // A scope of their own: these two routes read their JSON bodies with their own parser.
  void app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, text, done) => {
      try {
        const { body, specWasObject } = readOpenApiBody(typeof text === 'string' ? text : text.toString('utf8'));
        if (specWasObject) objectSpecs.add(body as object);
        done(null, body);
      } catch (err) {
        done(err as Error, undefined);
      }
    });
    registerRoutes(scope);
  });
}
