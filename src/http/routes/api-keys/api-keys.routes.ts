import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { keyBodyIssues, type ApiKeysService } from '../../../modules/auth/index.ts';
import type { Clock } from '../../../platform/clock.ts';
import { validationFailed } from '../../../platform/errors.ts';
import { actorOf } from '../../plugins/auth.plugin.ts';
import { auditOf } from '../../request-context.ts';
import { IdParams } from '../../schemas/common.schemas.ts';
import { presentApiKey, presentUsage } from './api-key.presenter.ts';
import {
  ApiKeyCreateBody,
  ApiKeyList,
  ApiKeyRecord,
  ApiKeyWithValue,
  ListQuery,
  RotateBody,
  UsageQuery,
  UsageResponse,
} from './api-key.schemas.ts';

const tags = ['api-keys'];
const scope = 'keys:write' as const;
const HOUR = 3_600_000;
const PERIOD_MS = {
  last_hour: HOUR,
  last_24_hours: 24 * HOUR,
  last_7_days: 7 * 24 * HOUR,
  last_30_days: 30 * 24 * HOUR,
};

export function registerApiKeyRoutes(app: FastifyInstance, deps: { apiKeys: ApiKeysService; clock: Clock }): void {
  const { apiKeys, clock } = deps;
  for (const s of [ApiKeyRecord, ApiKeyWithValue, ApiKeyList, UsageResponse]) app.addSchema(s);

  app.get<{ Querystring: Static<typeof ListQuery> }>(
    '/api/v1/api-keys',
    {
      config: { scope },
      schema: {
        tags,
        summary: 'List API keys (values are never shown)',
        operationId: 'listApiKeys',
        querystring: ListQuery,
        response: { 200: Type.Ref(ApiKeyList) },
      },
    },
    async (request) => {
      const page = await apiKeys.list(actorOf(request), {
        limit: request.query.limit ?? 50,
        cursor: request.query.cursor,
      });
      return { data: page.data.map(presentApiKey), next_cursor: page.next_cursor };
    },
  );

  app.post<{ Body: Static<typeof ApiKeyCreateBody> }>(
    '/api/v1/api-keys',
    {
      config: {
        scope,
        idempotencyRedact: ['key'],
        bodyRules: (body, request) => keyBodyIssues(actorOf(request), body),
      },
      schema: {
        tags,
        summary: 'Create an API key; the response carries the value once',
        description: 'A key cannot grant scopes or environments the calling key lacks (422 naming them).',
        operationId: 'createApiKey',
        body: ApiKeyCreateBody,
        response: { 201: Type.Ref(ApiKeyWithValue) },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const { record, key } = await apiKeys.create(
        actorOf(request),
        {
          name: b.name,
          scopes: b.scopes,
          ...(b.environments !== undefined && { environments: b.environments }),
          ...(b.expires_at !== undefined && { expiresAt: b.expires_at === null ? null : Date.parse(b.expires_at) }),
          ...(b.rate_limits !== undefined && { rateLimits: b.rate_limits }),
          ...(b.service_account_id !== undefined && { serviceAccountId: b.service_account_id }),
        },
        auditOf(request),
      );
      return reply.code(201).send({ ...presentApiKey(record), key });
    },
  );

  app.get<{ Params: Static<typeof IdParams> }>(
    '/api/v1/api-keys/:id',
    {
      config: { scope },
      schema: {
        tags,
        summary: 'Read an API key',
        operationId: 'getApiKey',
        params: IdParams,
        response: { 200: Type.Ref(ApiKeyRecord) },
      },
    },
    async (request) => presentApiKey(await apiKeys.get(actorOf(request), request.params.id)),
  );

  app.delete<{ Params: Static<typeof IdParams> }>(
    '/api/v1/api-keys/:id',
    {
      config: { scope },
      schema: {
        tags,
        summary: 'Revoke an API key',
        description:
          'Answers 200 with the record (revoked_at set). Both values of a rotated key stop working; other processes follow within a second.',
        operationId: 'revokeApiKey',
        params: IdParams,
        response: { 200: Type.Ref(ApiKeyRecord) },
      },
    },
    async (request) => presentApiKey(await apiKeys.revoke(actorOf(request), request.params.id, auditOf(request))),
  );

  app.post<{ Params: Static<typeof IdParams>; Body: Static<typeof RotateBody> | undefined }>(
    '/api/v1/api-keys/:id/rotate',
    {
      config: {
        scope,
        idempotencyRedact: ['key'],
        bodyRules: (body, request) => keyBodyIssues(actorOf(request), body),
      },
      // The body is optional: no body means the default grace.
      preValidation: async (request) => {
        request.body ??= {};
      },
      schema: {
        tags,
        summary: 'Rotate an API key: new value, same id and settings',
        description:
          'The old value keeps working for grace_seconds (default 86400, 0 allowed). The response carries the new value once.',
        operationId: 'rotateApiKey',
        params: IdParams,
        body: RotateBody,
        response: { 200: Type.Ref(ApiKeyWithValue) },
      },
    },
    async (request) => {
      const { record, key } = await apiKeys.rotate(
        actorOf(request),
        request.params.id,
        request.body?.grace_seconds,
        auditOf(request),
      );
      return { ...presentApiKey(record), key };
    },
  );

  app.get<{ Params: Static<typeof IdParams>; Querystring: Static<typeof UsageQuery> }>(
    '/api/v1/api-keys/:id/usage',
    {
      config: { scope },
      schema: {
        tags,
        summary: "A key's usage: requests per budget class and status class, per time bucket, with totals",
        operationId: 'getApiKeyUsage',
        params: IdParams,
        querystring: UsageQuery,
        response: { 200: Type.Ref(UsageResponse) },
      },
    },
    async (request) => {
      const q = request.query;
      if (q.period !== undefined && q.from !== undefined) {
        throw validationFailed([{ field: 'period', issue: 'give either period or from/to, not both' }]);
      }
      const to = q.to !== undefined ? Date.parse(q.to) : clock.now();
      const from = q.from !== undefined ? Date.parse(q.from) : to - PERIOD_MS[q.period ?? 'last_24_hours'];
      const usage = await apiKeys.usage(actorOf(request), request.params.id, {
        from,
        to,
        ...(q.resolution !== undefined && { resolution: q.resolution }),
      });
      return presentUsage(usage);
    },
  );
}
