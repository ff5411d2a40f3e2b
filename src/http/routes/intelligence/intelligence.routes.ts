import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { IntelligenceEventFilter, IntelligenceService } from '../../../modules/intelligence/index.ts';
import { validationFailed } from '../../../platform/errors.ts';
import { contextOf } from '../../request-context.ts';
import { IdParams } from '../../schemas/common.schemas.ts';
import { presentCorrelation, presentGrade, presentIntelligenceEvent } from './intelligence.presenter.ts';
import {
  CorrelationList,
  CorrelationQuery,
  CorrelationRecord,
  IntelligenceEventList,
  IntelligenceEventListQuery,
  IntelligenceEventRecord,
  MonitorGrades,
} from './intelligence.schemas.ts';

const tags = ['intelligence'];

function filterOf(query: Static<typeof IntelligenceEventListQuery>): IntelligenceEventFilter {
  const filter: IntelligenceEventFilter = {};
  if (query.monitor_id) filter.monitorId = query.monitor_id;
  if (query.category) filter.category = query.category;
  if (query.kind) filter.kind = query.kind;
  if (query.from !== undefined) filter.from = Date.parse(query.from);
  if (query.to !== undefined) filter.to = Date.parse(query.to);
  for (const field of ['from', 'to'] as const) {
    const value = filter[field];
    if (value !== undefined && Number.isNaN(value))
      throw validationFailed([{ field, issue: 'must be an RFC 3339 timestamp' }]);
  }
  if (filter.from !== undefined && filter.to !== undefined && filter.from > filter.to)
    throw validationFailed([{ field: 'from', issue: 'must not be after to' }]);
  return filter;
}

export function registerIntelligenceRoutes(app: FastifyInstance, deps: { intelligence: IntelligenceService }): void {
  const { intelligence } = deps;
  for (const schema of [
    IntelligenceEventRecord,
    IntelligenceEventList,
    MonitorGrades,
    CorrelationRecord,
    CorrelationList,
  ])
    app.addSchema(schema);

  app.get<{ Querystring: Static<typeof IntelligenceEventListQuery> }>(
    '/api/v1/intelligence/events',
    {
      config: { scope: 'intelligence:read' },
      schema: {
        tags,
        summary: 'List intelligence events (changes, anomalies, slow periods, grade drops), newest first',
        operationId: 'listIntelligenceEvents',
        querystring: IntelligenceEventListQuery,
        response: { 200: Type.Ref(IntelligenceEventList) },
      },
    },
    async (request) => {
      const { limit, cursor } = request.query;
      const page = await intelligence.list(contextOf(request), filterOf(request.query), {
        limit: limit ?? 50,
        ...(cursor !== undefined && { cursor }),
      });
      return { data: page.data.map(presentIntelligenceEvent), next_cursor: page.next_cursor };
    },
  );

  app.get<{ Params: Static<typeof IdParams> }>(
    '/api/v1/intelligence/events/:id',
    {
      config: { scope: 'intelligence:read' },
      schema: {
        tags,
        summary: 'Read an intelligence event',
        operationId: 'getIntelligenceEvent',
        params: IdParams,
        response: { 200: Type.Ref(IntelligenceEventRecord) },
      },
    },
    async (request) => presentIntelligenceEvent(await intelligence.get(contextOf(request), request.params.id)),
  );

  app.get<{ Params: Static<typeof IdParams> }>(
    '/api/v1/monitors/:id/grades',
    {
      config: { scope: 'intelligence:read' },
      schema: {
        tags,
        summary: "A monitor's current TLS and domain security grades, with reasons and history",
        operationId: 'getMonitorGrades',
        params: IdParams,
        response: { 200: Type.Ref(MonitorGrades) },
      },
    },
    async (request) => {
      const grades = await intelligence.grades(contextOf(request), request.params.id);
      return {
        monitor_id: request.params.id,
        current: grades.current.map(presentGrade),
        history: grades.history.map(presentGrade),
      };
    },
  );

  app.get<{ Querystring: Static<typeof CorrelationQuery> }>(
    '/api/v1/intelligence/correlations',
    {
      config: { scope: 'intelligence:read' },
      schema: {
        tags,
        summary:
          'Monitors that failed or turned anomalous together and share an address, CDN, DNS provider, issuer or region',
        operationId: 'listIntelligenceCorrelations',
        querystring: CorrelationQuery,
        response: { 200: Type.Ref(CorrelationList) },
      },
    },
    async (request) => {
      const ctx = contextOf(request);
      const to = request.query.to !== undefined ? Date.parse(request.query.to) : ctx.clock.now();
      const from = request.query.from !== undefined ? Date.parse(request.query.from) : to - 86_400_000;
      if (Number.isNaN(from) || Number.isNaN(to) || from > to)
        throw validationFailed([{ field: 'from', issue: 'must be an RFC 3339 timestamp not after to' }]);
      return { data: (await intelligence.correlations(ctx, from, to)).map(presentCorrelation) };
    },
  );
}
