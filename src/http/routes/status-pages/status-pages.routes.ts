import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { StatusPagesService } from '../../../modules/status-pages/index.ts';
import { notFound } from '../../../platform/errors.ts';
import { bodyShapeDetails, contextOf } from '../../request-context.ts';
import { IdParams } from '../../schemas/common.schemas.ts';
import type { CustomDomainRouter } from './custom-domains.ts';
import { pageAccessAllowed, pageLocked, registerPageAccessRoutes } from './status-page.guard.ts';
import {
  renderNotFoundPage,
  renderPasswordPage,
  renderStatusPage,
  statusPageSecurityHeaders,
} from './status-page.html.ts';
import { presentPublicStatus, presentStatusPage } from './status-page.presenter.ts';
import {
  PublicStatus,
  StatusPageCreateBody,
  StatusPageList,
  StatusPageListQuery,
  StatusPagePatchBody,
  StatusPageRecord,
} from './status-page.schemas.ts';

const tags = ['status pages'];
const pageRef = Type.Ref(StatusPageRecord);
const PublicParams = Type.Object({
  slug: Type.String({ minLength: 1, maxLength: 80, description: '{slug} for HTML, {slug}.json for JSON.' }),
});
const CACHE = 'public, max-age=30';

/** If-None-Match holds this (weak) validator, or `*`. */
function etagMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}

export function registerStatusPageRoutes(
  app: FastifyInstance,
  deps: { statusPages: StatusPagesService; publicUrl: string; customDomains: CustomDomainRouter },
): void {
  const { statusPages, publicUrl, customDomains } = deps;
  // A change of a page's custom domain is served by this process at once (others within seconds).
  const domainsChanged = () => customDomains.refresh();
  for (const schema of [StatusPageRecord, StatusPageList, PublicStatus]) app.addSchema(schema);
  const present = (p: Parameters<typeof presentStatusPage>[0]) => presentStatusPage(p, publicUrl);

  app.post<{ Body: Static<typeof StatusPageCreateBody> }>(
    '/api/v1/status-pages',
    {
      config: { scope: 'status_pages:write' },
      attachValidation: true,
      schema: {
        tags,
        summary: 'Create a status page',
        operationId: 'createStatusPage',
        body: StatusPageCreateBody,
        response: { 201: pageRef },
      },
    },
    async (request, reply) => {
      const page = await statusPages.create(contextOf(request), request.body, bodyShapeDetails(request));
      if (page.customDomain !== null) await domainsChanged();
      return reply.code(201).send(present(page));
    },
  );

  app.get<{ Querystring: Static<typeof StatusPageListQuery> }>(
    '/api/v1/status-pages',
    {
      config: { scope: 'status_pages:read' },
      schema: {
        tags,
        summary: 'List status pages',
        operationId: 'listStatusPages',
        querystring: StatusPageListQuery,
        response: { 200: Type.Ref(StatusPageList) },
      },
    },
    async (request) => {
      const { limit, cursor } = request.query;
      const page = await statusPages.list(contextOf(request), {
        limit: limit ?? 50,
        ...(cursor !== undefined && { cursor }),
      });
      return { data: page.data.map(present), next_cursor: page.next_cursor };
    },
  );

  app.get<{ Params: Static<typeof IdParams> }>(
    '/api/v1/status-pages/:id',
    {
      config: { scope: 'status_pages:read' },
      schema: {
        tags,
        summary: 'Read a status page',
        operationId: 'getStatusPage',
        params: IdParams,
        response: { 200: pageRef },
      },
    },
    async (request) => present(await statusPages.get(contextOf(request), request.params.id)),
  );

  app.patch<{ Params: Static<typeof IdParams>; Body: Static<typeof StatusPagePatchBody> }>(
    '/api/v1/status-pages/:id',
    {
      config: { scope: 'status_pages:write' },
      attachValidation: true,
      schema: {
        tags,
        summary: 'Update a status page',
        operationId: 'updateStatusPage',
        params: IdParams,
        body: StatusPagePatchBody,
        response: { 200: pageRef },
      },
    },
    async (request) => {
      const page = await statusPages.update(
        contextOf(request),
        request.params.id,
        request.body,
        bodyShapeDetails(request),
      );
      // The map holds the slug too: a domain page's new slug is served at once as well.
      if (request.body?.custom_domain !== undefined || page.customDomain !== null) await domainsChanged();
      return present(page);
    },
  );

  app.delete<{ Params: Static<typeof IdParams> }>(
    '/api/v1/status-pages/:id',
    {
      config: { scope: 'status_pages:write' },
      schema: {
        tags,
        summary: 'Delete a status page',
        operationId: 'deleteStatusPage',
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted.' }) },
      },
    },
    async (request, reply) => {
      await statusPages.delete(contextOf(request), request.params.id);
      await domainsChanged();
      return reply.code(204).send();
    },
  );

  registerPageAccessRoutes(app, { statusPages, publicUrl });

  // Public: /status/{slug} (HTML, no JavaScript) and /status/{slug}.json. Unknown or non-public pages are 404; a
  // password page without its session is the password form (HTML) or 401 (JSON).
  app.get<{ Params: Static<typeof PublicParams> }>(
    '/status/:slug',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Public status page: HTML at /status/{slug}, JSON (PublicStatusPage) at /status/{slug}.json',
        operationId: 'publicStatusPage',
        params: PublicParams,
        produces: ['text/html', 'application/json'],
      },
    },
    async (request, reply) => {
      const raw = request.params.slug;
      const json = raw.endsWith('.json');
      const slug = json ? raw.slice(0, -5) : raw;
      const page = await statusPages.publicPage(slug);
      reply.headers(statusPageSecurityHeaders(page?.allowEmbedding ?? false));
      if (!page) {
        if (json) throw notFound('Status page');
        return reply
          .code(404)
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .send(renderNotFoundPage());
      }
      if (!pageAccessAllowed(statusPages, request, page)) {
        if (json) throw pageLocked(page);
        return reply
          .code(401)
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .send(renderPasswordPage(page.slug));
      }
      const view = await statusPages.publicViewOf(page);
      // Short public caching plus a validator: a reload within the same content answers 304 without a body.
      const presented = json ? presentPublicStatus(view) : null;
      const body = presented ? JSON.stringify(presented) : renderStatusPage(view);
      // A weak validator of what the page says: the JSON's generated_at (to the millisecond) is left out of it, or
      // no two requests would ever match; the HTML shows times to the minute only.
      const validated = presented ? JSON.stringify({ ...presented, generated_at: null }) : body;
      const etag = `W/"${createHash('sha256').update(validated).digest('base64url').slice(0, 27)}"`;
      reply
        // A protected page is its visitors' only: no shared cache may keep it.
        .header('cache-control', page.access === 'password' ? 'private, no-cache' : CACHE)
        .header('etag', etag)
        .header('vary', 'accept-encoding')
        .type(json ? 'application/json; charset=utf-8' : 'text/html; charset=utf-8');
      if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
      // 90 labelled days per monitor repeat a lot: gzip takes a 50-monitor page from ~250 KB to ~15 KB.
      const accepts = request.headers['accept-encoding'];
      if (typeof accepts === 'string' && /\bgzip\b/.test(accepts) && body.length > 1024)
        return reply.header('content-encoding', 'gzip').send(gzipSync(body, { level: 6 }));
      return reply.send(body);
    },
  );
}
