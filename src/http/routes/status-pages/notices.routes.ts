import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { NoticesService } from '../../../modules/status-pages/index.ts';
import { bodyShapeDetails, contextOf } from '../../request-context.ts';
import { IdParams } from '../../schemas/common.schemas.ts';
import { presentNotice } from './notice.presenter.ts';
import {
  NoticeCreateBody,
  NoticeList,
  NoticeListQuery,
  NoticeParams,
  NoticePatchBody,
  NoticeRecord,
  NoticeUpdateBody,
} from './notice.schemas.ts';

const tags = ['status pages'];
const noticeRef = Type.Ref(NoticeRecord);

/** /api/v1/status-pages/{id}/notices (DECISIONS §18), with the status pages' own scopes. */
export function registerNoticeRoutes(app: FastifyInstance, deps: { notices: NoticesService }): void {
  const { notices } = deps;
  for (const schema of [NoticeRecord, NoticeList]) app.addSchema(schema);

  app.post<{ Params: Static<typeof IdParams>; Body: Static<typeof NoticeCreateBody> }>(
    '/api/v1/status-pages/:id/notices',
    {
      config: { scope: 'status_pages:write' },
      attachValidation: true,
      schema: {
        tags,
        summary: 'Create a notice (incident, maintenance or information) on a status page',
        operationId: 'createStatusPageNotice',
        params: IdParams,
        body: NoticeCreateBody,
        response: { 201: noticeRef },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          presentNotice(
            await notices.create(contextOf(request), request.params.id, request.body, bodyShapeDetails(request)),
          ),
        ),
  );

  app.get<{ Params: Static<typeof IdParams>; Querystring: Static<typeof NoticeListQuery> }>(
    '/api/v1/status-pages/:id/notices',
    {
      config: { scope: 'status_pages:read' },
      schema: {
        tags,
        summary: "List a status page's notices (drafts included), newest first",
        operationId: 'listStatusPageNotices',
        params: IdParams,
        querystring: NoticeListQuery,
        response: { 200: Type.Ref(NoticeList) },
      },
    },
    async (request) => {
      const { limit, cursor } = request.query;
      const page = await notices.list(contextOf(request), request.params.id, {
        limit: limit ?? 50,
        ...(cursor !== undefined && { cursor }),
      });
      return { data: page.data.map(presentNotice), next_cursor: page.next_cursor };
    },
  );

  app.get<{ Params: Static<typeof NoticeParams> }>(
    '/api/v1/status-pages/:id/notices/:nid',
    {
      config: { scope: 'status_pages:read' },
      schema: {
        tags,
        summary: 'Read a notice with its updates',
        operationId: 'getStatusPageNotice',
        params: NoticeParams,
        response: { 200: noticeRef },
      },
    },
    async (request) => presentNotice(await notices.get(contextOf(request), request.params.id, request.params.nid)),
  );

  app.patch<{ Params: Static<typeof NoticeParams>; Body: Static<typeof NoticePatchBody> }>(
    '/api/v1/status-pages/:id/notices/:nid',
    {
      config: { scope: 'status_pages:write' },
      attachValidation: true,
      schema: {
        tags,
        summary: 'Update a notice: its fields, publish or unpublish it, its postmortem',
        operationId: 'updateStatusPageNotice',
        params: NoticeParams,
        body: NoticePatchBody,
        response: { 200: noticeRef },
      },
    },
    async (request) =>
      presentNotice(
        await notices.update(
          contextOf(request),
          request.params.id,
          request.params.nid,
          request.body,
          bodyShapeDetails(request),
        ),
      ),
  );

  app.delete<{ Params: Static<typeof NoticeParams> }>(
    '/api/v1/status-pages/:id/notices/:nid',
    {
      config: { scope: 'status_pages:write' },
      schema: {
        tags,
        summary: 'Delete a notice and its updates',
        operationId: 'deleteStatusPageNotice',
        params: NoticeParams,
        response: { 204: Type.Null({ description: 'Deleted.' }) },
      },
    },
    async (request, reply) => {
      await notices.delete(contextOf(request), request.params.id, request.params.nid);
      return reply.code(204).send();
    },
  );

  app.post<{ Params: Static<typeof NoticeParams>; Body: Static<typeof NoticeUpdateBody> }>(
    '/api/v1/status-pages/:id/notices/:nid/updates',
    {
      config: { scope: 'status_pages:write' },
      attachValidation: true,
      schema: {
        tags,
        summary: "Add an update to a notice's timeline (its status becomes the notice's)",
        operationId: 'addStatusPageNoticeUpdate',
        params: NoticeParams,
        body: NoticeUpdateBody,
        response: { 201: noticeRef },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          presentNotice(
            await notices.addUpdate(
              contextOf(request),
              request.params.id,
              request.params.nid,
              request.body,
              bodyShapeDetails(request),
            ),
          ),
        ),
  );
}
