import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { IncidentDeliveries } from '../../../modules/alerting/index.ts';
import type { ServiceContext } from '../../../modules/auth/index.ts';
import type {
  IncidentFilter,
  IncidentsService,
  IncidentWithDuration,
  IncidentWithTimeline,
} from '../../../modules/incidents/index.ts';
import type { IncidentCorrelation, IncidentWindow } from '../../../modules/intelligence/index.ts';
import { toIso } from '../../../platform/clock.ts';
import { validationFailed } from '../../../platform/errors.ts';
import { contextOf } from '../../request-context.ts';
import { IdParams, PageQuery } from '../../schemas/common.schemas.ts';
import { presentIncident, presentIncidentDelivery, presentIncidentDetail } from './incident.presenter.ts';
import {
  IncidentCorrelationRecord,
  IncidentCreateBody,
  IncidentDeliveryList,
  IncidentDeliveryRecord,
  IncidentDetail,
  IncidentHistory,
  IncidentHistoryQuery,
  IncidentList,
  IncidentListQuery,
  IncidentRecord,
  TimelineEntryRecord,
} from './incident.schemas.ts';
import { requireNoBody } from '../../plugins/validation.plugin.ts';

const tags = ['incidents'];
const DeliveriesQuery = Type.Object({ ...PageQuery });
const detailRef = Type.Ref(IncidentDetail);

function filterOf(query: Static<typeof IncidentListQuery>): IncidentFilter {
  const filter: IncidentFilter = {};
  if (query.status) filter.status = query.status;
  if (query.monitor_id) filter.monitorId = query.monitor_id;
  if (query.source) filter.source = query.source;
  if (query.from !== undefined) filter.from = Date.parse(query.from);
  if (query.to !== undefined) filter.to = Date.parse(query.to);
  for (const field of ['from', 'to'] as const) {
    const value = filter[field];
    if (value !== undefined && Number.isNaN(value))
      throw validationFailed([{ field, issue: 'must be an RFC 3339 timestamp' }]);
  }
  if (filter.from !== undefined && filter.to !== undefined && filter.from > filter.to) {
    throw validationFailed([{ field: 'from', issue: 'must not be after to' }]);
  }
  return filter;
}

/** An RFC 3339 query value as epoch ms (the schema checks the format; a date it cannot place is a 422 too). */
function timestampOf(field: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at)) throw validationFailed([{ field, issue: 'must be an RFC 3339 timestamp' }]);
  return at;
}

/** Port: the correlations an incident is part of (the intelligence module answers it). */
export interface IncidentCorrelationsReader {
  incidentCorrelations(ctx: ServiceContext, incident: IncidentWindow): Promise<IncidentCorrelation[]>;
}

export function registerIncidentRoutes(
  app: FastifyInstance,
  deps: {
    incidents: IncidentsService;
    intelligence: IncidentCorrelationsReader;
    alerting: { incidentDeliveries: IncidentDeliveries };
  },
): void {
  const { incidents, intelligence } = deps;
  const deliveries = deps.alerting.incidentDeliveries;
  for (const schema of [
    IncidentRecord,
    TimelineEntryRecord,
    IncidentCorrelationRecord,
    IncidentDetail,
    IncidentList,
    IncidentDeliveryRecord,
    IncidentDeliveryList,
    IncidentHistory,
  ])
    app.addSchema(schema);

  async function detail(
    ctx: ServiceContext,
    incident: IncidentWithDuration & IncidentWithTimeline,
  ): Promise<Record<string, unknown>> {
    return presentIncidentDetail(incident, await intelligence.incidentCorrelations(ctx, incident));
  }

  app.get<{ Querystring: Static<typeof IncidentListQuery> }>(
    '/api/v1/incidents',
    {
      config: { scope: 'incidents:read' },
      schema: {
        tags,
        summary: 'List incidents, newest first',
        operationId: 'listIncidents',
        querystring: IncidentListQuery,
        response: { 200: Type.Ref(IncidentList) },
      },
    },
    async (request) => {
      const { limit, cursor } = request.query;
      const page = await incidents.list(contextOf(request), filterOf(request.query), {
        limit: limit ?? 50,
        ...(cursor !== undefined && { cursor }),
      });
      return { data: page.data.map(presentIncident), next_cursor: page.next_cursor };
    },
  );

  app.get<{ Querystring: Static<typeof IncidentHistoryQuery> }>(
    '/api/v1/incidents/history',
    {
      config: { scope: 'incidents:read' },
      schema: {
        tags,
        summary: 'How many incidents opened per hour or day, oldest first',
        description:
          'Counted by the server over every incident the caller may see (its organization and, for a key, its ' +
          "environments' monitors), every bucket of the range present: the overview's incident chart in one request.",
        operationId: 'getIncidentsHistory',
        querystring: IncidentHistoryQuery,
        response: { 200: Type.Ref(IncidentHistory) },
      },
    },
    async (request) => {
      const { from, to, resolution } = request.query;
      const range = { from: timestampOf('from', from), to: timestampOf('to', to) };
      const buckets = await incidents.openedPerBucket(contextOf(request), {
        ...(range.from !== undefined && { from: range.from }),
        ...(range.to !== undefined && { to: range.to }),
        ...(resolution !== undefined && { resolution }),
      });
      return {
        data: buckets.map((b) => ({ start: toIso(b.start), end: toIso(b.end), opened: b.opened })),
      };
    },
  );

  app.get<{ Params: Static<typeof IdParams> }>(
    '/api/v1/incidents/:id',
    {
      config: { scope: 'incidents:read' },
      schema: {
        tags,
        summary: 'Read an incident with its timeline',
        operationId: 'getIncident',
        params: IdParams,
        response: { 200: detailRef },
      },
    },
    async (request) => {
      const ctx = contextOf(request);
      return detail(ctx, await incidents.get(ctx, request.params.id));
    },
  );

  app.get<{ Params: Static<typeof IdParams>; Querystring: Static<typeof DeliveriesQuery> }>(
    '/api/v1/incidents/:id/deliveries',
    {
      config: { scope: 'incidents:read' },
      schema: {
        tags,
        summary: "The deliveries of the incident's events, per destination with their outcome (oldest event first)",
        description:
          'One row per event of the incident (down, still_down reminders, incident_opened, incident_acknowledged, ' +
          'recovered, incident_resolved …) and destination it went to, with its outcome, attempts and last error. ' +
          'Keyset pages (`limit`, `cursor`).',
        operationId: 'listIncidentDeliveries',
        params: IdParams,
        querystring: DeliveriesQuery,
        response: { 200: Type.Ref(IncidentDeliveryList) },
      },
    },
    async (request) => {
      const ctx = contextOf(request);
      // 404 for an incident that is not there or not visible to the caller, as for GET /incidents/{id}.
      const incident = await incidents.get(ctx, request.params.id);
      const { limit, cursor } = request.query;
      const page = await deliveries.list(ctx, incident.id, {
        limit: limit ?? 50,
        ...(cursor !== undefined && { cursor }),
      });
      return { data: page.data.map(presentIncidentDelivery), next_cursor: page.next_cursor };
    },
  );

  app.post<{ Body: Static<typeof IncidentCreateBody> }>(
    '/api/v1/incidents',
    {
      config: { scope: 'incidents:write' },
      schema: {
        tags,
        summary: 'Open an incident (source api)',
        operationId: 'createIncident',
        body: IncidentCreateBody,
        response: { 201: detailRef },
      },
    },
    async (request, reply) => {
      const ctx = contextOf(request);
      return reply.code(201).send(await detail(ctx, await incidents.create(ctx, request.body)));
    },
  );

  app.post<{ Params: Static<typeof IdParams> }>(
    '/api/v1/incidents/:id/acknowledge',
    {
      config: { scope: 'incidents:write' },
      schema: {
        tags,
        summary: 'Acknowledge an open incident (no-op when already acknowledged; 422 when resolved)',
        operationId: 'acknowledgeIncident',
        params: IdParams,
        response: { 200: detailRef },
      },
    },
    async (request) => {
      requireNoBody(request.body);
      const ctx = contextOf(request);
      return detail(ctx, await incidents.acknowledge(ctx, request.params.id));
    },
  );

  app.post<{ Params: Static<typeof IdParams> }>(
    '/api/v1/incidents/:id/resolve',
    {
      config: { scope: 'incidents:write' },
      schema: {
        tags,
        summary: 'Resolve an incident (no-op returning the record when already resolved)',
        operationId: 'resolveIncident',
        params: IdParams,
        response: { 200: detailRef },
      },
    },
    async (request) => {
      requireNoBody(request.body);
      const ctx = contextOf(request);
      return detail(ctx, await incidents.resolve(ctx, request.params.id));
    },
  );
}
