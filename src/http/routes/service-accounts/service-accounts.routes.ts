import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { ServiceAccount, ServiceAccountsService } from '../../../modules/auth/index.ts';
import { toIso } from '../../../platform/clock.ts';
import { actorOf } from '../../plugins/auth.plugin.ts';
import { auditOf } from '../../request-context.ts';
import { IdParams, Nullable, PageQuery, Timestamp } from '../../schemas/common.schemas.ts';

const tags = ['service-accounts'];
const scope = 'keys:write' as const;

const ServiceAccountRecord = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    role: Type.Union([Type.Literal('admin'), Type.Literal('member')]),
    created_by: Nullable(Type.String()),
    created_at: Timestamp(),
  },
  { $id: 'ServiceAccount', title: 'ServiceAccount' },
);
const ServiceAccountList = Type.Object(
  { data: Type.Array(Type.Ref(ServiceAccountRecord)), next_cursor: Nullable(Type.String()) },
  { $id: 'ServiceAccountList', title: 'ServiceAccountList' },
);
const CreateBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  role: Type.Union([Type.Literal('admin'), Type.Literal('member')], { description: 'The role its keys act with.' }),
});
const ListQuery = Type.Object(PageQuery);

function present(sa: ServiceAccount): Record<string, unknown> {
  return { id: sa.id, name: sa.name, role: sa.role, created_by: sa.createdBy, created_at: toIso(sa.createdAt) };
}

export function registerServiceAccountRoutes(
  app: FastifyInstance,
  deps: { serviceAccounts: ServiceAccountsService },
): void {
  const { serviceAccounts } = deps;
  app.addSchema(ServiceAccountRecord);
  app.addSchema(ServiceAccountList);

  app.get<{ Querystring: Static<typeof ListQuery> }>(
    '/api/v1/service-accounts',
    {
      config: { scope },
      schema: {
        tags,
        summary: 'List service accounts',
        operationId: 'listServiceAccounts',
        querystring: ListQuery,
        response: { 200: Type.Ref(ServiceAccountList) },
      },
    },
    async (request) => {
      const page = await serviceAccounts.list(actorOf(request).organizationId, {
        limit: request.query.limit ?? 50,
        cursor: request.query.cursor,
      });
      return { data: page.data.map(present), next_cursor: page.next_cursor };
    },
  );

  app.post<{ Body: Static<typeof CreateBody> }>(
    '/api/v1/service-accounts',
    {
      config: { scope },
      schema: {
        tags,
        summary: 'Create a service account (an owner for keys that outlive people)',
        operationId: 'createServiceAccount',
        body: CreateBody,
        response: { 201: Type.Ref(ServiceAccountRecord) },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const sa = await serviceAccounts.create(actor.organizationId, request.body, actor, auditOf(request));
      return reply.code(201).send(present(sa));
    },
  );

  app.get<{ Params: Static<typeof IdParams> }>(
    '/api/v1/service-accounts/:id',
    {
      config: { scope },
      schema: {
        tags,
        summary: 'Read a service account',
        operationId: 'getServiceAccount',
        params: IdParams,
        response: { 200: Type.Ref(ServiceAccountRecord) },
      },
    },
    async (request) => present(await serviceAccounts.get(actorOf(request).organizationId, request.params.id)),
  );

  app.delete<{ Params: Static<typeof IdParams> }>(
    '/api/v1/service-accounts/:id',
    {
      config: { scope },
      schema: {
        tags,
        summary: 'Delete a service account and revoke its keys',
        description:
          'Refused with 403 `forbidden` (nothing changes) when the account owns a key with a scope or environment the calling key lacks.',
        operationId: 'deleteServiceAccount',
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted; its keys are revoked.' }) },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      await serviceAccounts.delete(actor, actor.organizationId, request.params.id, auditOf(request));
      return reply.code(204).send();
    },
  );
}
