import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { SlaTarget, SlaTargetInput, SlaTargetPatch, SlaTargetsService } from '../../../modules/reports/index.ts';
import { toIso } from '../../../platform/clock.ts';
import { contextOf } from '../../request-context.ts';
import { IdParams } from '../../schemas/common.schemas.ts';
import {
  SlaTargetCreateBody,
  SlaTargetList,
  SlaTargetListQuery,
  SlaTargetPatchBody,
  SlaTargetRecord,
} from './sla-target.schemas.ts';

const tags = ['sla targets'];
const targetRef = Type.Ref(SlaTargetRecord);

function present(t: SlaTarget) {
  return {
    id: t.id,
    name: t.name,
    monitor_ids: t.monitorIds,
    target_percent: t.targetPercent,
    period: t.period,
    created_at: toIso(t.createdAt),
    updated_at: toIso(t.updatedAt),
  };
}

/** /api/v1/sla-targets CRUD (DECISIONS §8). */
export function registerSlaTargetRoutes(app: FastifyInstance, deps: { slaTargets: SlaTargetsService }): void {
  const { slaTargets } = deps;
  for (const schema of [SlaTargetRecord, SlaTargetList]) app.addSchema(schema);

  app.post<{ Body: SlaTargetInput }>(
    '/api/v1/sla-targets',
    {
      config: {
        scope: 'sla_targets:write',
        bodyRules: (body, request) => slaTargets.bodyIssues(contextOf(request), body),
      },
      schema: {
        tags,
        summary: 'Create an SLA target',
        operationId: 'createSlaTarget',
        body: SlaTargetCreateBody,
        response: { 201: targetRef },
      },
    },
    async (request, reply) => reply.code(201).send(present(await slaTargets.create(contextOf(request), request.body))),
  );

  app.get<{ Querystring: Static<typeof SlaTargetListQuery> }>(
    '/api/v1/sla-targets',
    {
      config: { scope: 'sla_targets:read' },
      schema: {
        tags,
        summary: 'List SLA targets',
        operationId: 'listSlaTargets',
        querystring: SlaTargetListQuery,
        response: { 200: Type.Ref(SlaTargetList) },
      },
    },
    async (request) => {
      const { limit, cursor } = request.query;
      const page = await slaTargets.list(contextOf(request), {
        limit: limit ?? 50,
        ...(cursor !== undefined && { cursor }),
      });
      return { data: page.data.map(present), next_cursor: page.next_cursor };
    },
  );

  app.get<{ Params: Static<typeof IdParams> }>(
    '/api/v1/sla-targets/:id',
    {
      config: { scope: 'sla_targets:read' },
      schema: {
        tags,
        summary: 'Read an SLA target',
        operationId: 'getSlaTarget',
        params: IdParams,
        response: { 200: targetRef },
      },
    },
    async (request) => present(await slaTargets.get(contextOf(request), request.params.id)),
  );

  app.patch<{ Params: Static<typeof IdParams>; Body: SlaTargetPatch }>(
    '/api/v1/sla-targets/:id',
    {
      config: {
        scope: 'sla_targets:write',
        bodyRules: (body, request) => slaTargets.bodyIssues(contextOf(request), body),
      },
      schema: {
        tags,
        summary: 'Update an SLA target',
        operationId: 'updateSlaTarget',
        params: IdParams,
        body: SlaTargetPatchBody,
        response: { 200: targetRef },
      },
    },
    async (request) => present(await slaTargets.update(contextOf(request), request.params.id, request.body)),
  );

  app.delete<{ Params: Static<typeof IdParams> }>(
    '/api/v1/sla-targets/:id',
    {
      config: { scope: 'sla_targets:write' },
      schema: {
        tags,
        summary: 'Delete an SLA target',
        operationId: 'deleteSlaTarget',
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted.' }) },
      },
    },
    async (request, reply) => {
      await slaTargets.delete(contextOf(request), request.params.id);
      return reply.code(204).send();
    },
  );
}
