import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { requireDestinationAdmin as requireAdmin, type Alerting } from '../../../modules/alerting/index.ts';
import { toIso } from '../../../platform/clock.ts';
import { actorOf } from '../../plugins/auth.plugin.ts';
import { contextOf } from '../../request-context.ts';
import { IdParams, PageQuery } from '../../schemas/common.schemas.ts';
import { htmlPage } from '../members/html.page.ts';
import { presentDestination, presentTestResult } from './destination.presenter.ts';
import {
  DestinationCreateBody,
  DestinationList,
  DestinationPatchBody,
  DestinationRecordSchema,
  DestinationTestResult,
  SlackCallbackQuery,
  SlackInstallQuery,
  SlackInstallResponse,
} from './destination.schemas.ts';

const tags = ['destinations'];
const BASE = '/api/v1/auth/organization/webhooks';
const ref = Type.Ref(DestinationRecordSchema);
const ListQuery = Type.Object(PageQuery);

/** DECISIONS §7: notification destinations (owner/admin; scopes destinations:read / destinations:write). */
export function registerDestinationRoutes(app: FastifyInstance, deps: { alerting: Alerting }): void {
  const { destinations, testSend, chatapp1Install } = deps.alerting;
  for (const s of [DestinationRecordSchema, DestinationList, DestinationTestResult]) app.addSchema(s);

  app.post<{ Body: Static<typeof DestinationCreateBody> }>(
    BASE,
    {
      config: {
        scope: 'destinations:write',
        bodyRules: (body, request) => destinations.bodyIssues(contextOf(request), body),
      },
      schema: {
        tags,
        summary: 'Create a destination (generic_webhook: the response carries signing_secret, once)',
        operationId: 'createDestination',
        body: DestinationCreateBody,
        response: { 201: ref },
      },
    },
    async (request, reply) =>
      reply.code(201).send(presentDestination(await destinations.create(contextOf(request), request.body))),
  );

  app.get<{ Querystring: Static<typeof ListQuery> }>(
    BASE,
    {
      config: { scope: 'destinations:read' },
      schema: {
        tags,
        summary: 'List destinations',
        operationId: 'listDestinations',
        querystring: ListQuery,
        response: { 200: Type.Ref(DestinationList) },
      },
    },
    async (request) => {
      const { limit, cursor } = request.query;
      const page = await destinations.list(contextOf(request), {
        limit: limit ?? 50,
        ...(cursor !== undefined && { cursor }),
      });
      return { data: page.data.map(presentDestination), next_cursor: page.next_cursor };
    },
  );

  app.get<{ Querystring: Static<typeof SlackInstallQuery> }>(
    `${BASE}/slack/install`,
    {
      config: { scope: 'destinations:write' },
      schema: {
        tags,
        summary: 'Start the Slack app (chatapp1_channel) install: open install_url in a browser',
        operationId: 'startSlackInstall',
        querystring: SlackInstallQuery,
        response: { 200: SlackInstallResponse },
      },
    },
    async (request) => {
      const { name, destination_id } = request.query;
      requireAdmin(actorOf(request));
      const out = await chatapp1Install.installUrl(actorOf(request).organizationId, {
        ...(name !== undefined && { name }),
        ...(destination_id !== undefined && { destinationId: destination_id }),
      });
      return { install_url: out.url, expires_at: toIso(out.expiresAt) };
    },
  );

  app.get<{ Params: Static<typeof IdParams> }>(
    `${BASE}/:id`,
    {
      config: { scope: 'destinations:read' },
      schema: {
        tags,
        summary: 'Read a destination',
        operationId: 'getDestination',
        params: IdParams,
        response: { 200: ref },
      },
    },
    async (request) => presentDestination(await destinations.get(contextOf(request), request.params.id)),
  );

  app.patch<{ Params: Static<typeof IdParams>; Body: Static<typeof DestinationPatchBody> }>(
    `${BASE}/:id`,
    {
      config: {
        scope: 'destinations:write',
        bodyRules: (body, request) => destinations.bodyIssues(contextOf(request), body),
      },
      schema: {
        tags,
        summary: 'Update a destination',
        operationId: 'updateDestination',
        params: IdParams,
        body: DestinationPatchBody,
        response: { 200: ref },
      },
    },
    async (request) =>
      presentDestination(await destinations.update(contextOf(request), request.params.id, request.body)),
  );

  app.delete<{ Params: Static<typeof IdParams> }>(
    `${BASE}/:id`,
    {
      config: { scope: 'destinations:write' },
      schema: {
        tags,
        summary: 'Delete a destination (detaches it from its monitors)',
        operationId: 'deleteDestination',
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted.' }) },
      },
    },
    async (request, reply) => {
      await destinations.delete(contextOf(request), request.params.id);
      return reply.code(204).send();
    },
  );

  app.post<{ Params: Static<typeof IdParams> }>(
    `${BASE}/:id/test`,
    {
      config: { scope: 'destinations:write' },
      schema: {
        tags,
        summary: 'Send a synthetic test event through the pipeline; waits a few seconds for the outcome',
        operationId: 'testDestination',
        params: IdParams,
        response: { 200: Type.Ref(DestinationTestResult) },
      },
    },
    async (request) => presentTestResult(await testSend.send(contextOf(request), request.params.id)),
  );

  app.get<{ Querystring: Static<typeof SlackCallbackQuery> }>(
    '/integrations/slack/callback',
    { config: { public: true }, schema: { hide: true, querystring: SlackCallbackQuery } },
    async (request, reply) => {
      const { code, state, error } = request.query;
      if (error || !code || !state) {
        return reply
          .code(400)
          .type('text/html; charset=utf-8')
          .send(
            htmlPage(
              'Slack was not connected',
              `Slack did not complete the installation${error ? ` (${error})` : ''}. Start again from Tocsin.`,
            ),
          );
      }
      const result = await chatapp1Install.callback(code, state);
      if (!result.ok)
        return reply.code(400).type('text/html; charset=utf-8').send(htmlPage('Slack was not connected', result.error));
      const next = result.created
        ? `Destination ${result.destinationId} was created. Choose its channel: PATCH ${BASE}/${result.destinationId} with {"config":{"channel_id":"C…"}}.`
        : `Destination ${result.destinationId} is authorised again.`;
      return reply.type('text/html; charset=utf-8').send(htmlPage('Slack connected', next));
    },
  );
}
