import { Type, type Static } from '@sinclair/typebox';
import { pageAccessAllowed } from './status-page.guard.ts';
import type { FastifyInstance } from 'fastify';
import type { NoticesService, StatusPagesService } from '../../../modules/status-pages/index.ts';
import { createSafeMarkdown } from '../../../platform/markdown/safe-markdown.ts';
import { renderNotFoundPage, statusPageSecurityHeaders } from './status-page.html.ts';
import { renderAtomFeed, renderRssFeed, type NoticeFeed } from './status-page.feeds.ts';

const tags = ['status pages'];
/** Notices in a feed at most (the latest activity first). */
export const FEED_NOTICES_MAX = 50;
const PublicParams = Type.Object({ slug: Type.String({ minLength: 1, maxLength: 80 }) });

const FEEDS = [
  {
    file: 'feed.atom',
    type: 'application/atom+xml; charset=utf-8',
    operationId: 'statusPageAtomFeed',
    summary: 'Atom feed (RFC 4287) of the published notices of a public status page and their updates',
    render: renderAtomFeed,
  },
  {
    file: 'feed.rss',
    type: 'application/rss+xml; charset=utf-8',
    operationId: 'statusPageRssFeed',
    summary: 'RSS 2.0 feed of the published notices of a public status page and their updates',
    render: renderRssFeed,
  },
] as const;

/** Public: /status/{slug}/feed.atom and /status/{slug}/feed.rss (DECISIONS §18). Drafts never appear. */
export function registerStatusPageFeedRoutes(
  app: FastifyInstance,
  deps: { statusPages: StatusPagesService; notices: NoticesService; publicUrl: string },
): void {
  const host = new URL(deps.publicUrl).hostname;
  for (const feed of FEEDS) {
    app.get<{ Params: Static<typeof PublicParams> }>(
      `/status/:slug/${feed.file}`,
      {
        config: { public: true },
        schema: {
          tags,
          summary: feed.summary,
          operationId: feed.operationId,
          params: PublicParams,
          produces: [feed.type.split(';')[0]!],
        },
      },
      async (request, reply) => {
        const found = await deps.statusPages.publicPage(request.params.slug);
        // A password-protected page's feed needs its page session, like the page (the same 404 as an unknown one).
        const page = found && pageAccessAllowed(deps.statusPages, request, found) ? found : null;
        reply.headers(statusPageSecurityHeaders(page?.allowEmbedding ?? false));
        if (!page)
          return reply
            .code(404)
            .type('text/html; charset=utf-8')
            .header('cache-control', 'no-store')
            .send(renderNotFoundPage());
        const notices = await deps.notices.feedOf(page, FEED_NOTICES_MAX);
        const content: NoticeFeed = {
          pageId: page.id,
          title: page.title,
          pageUrl: `${deps.publicUrl}/status/${page.slug}`,
          host,
          pageCreatedAt: page.createdAt,
          updatedAt: Math.max(page.createdAt, ...notices.map((n) => n.updatedAt)),
          notices,
        };
        return reply
          .header('cache-control', 'public, max-age=60')
          .type(feed.type)
          .send(feed.render(content, createSafeMarkdown()));
      },
    );
  }
}
