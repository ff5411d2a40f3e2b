import { Type, type Static } from '@sinclair/typebox';
import { pageAccessAllowed } from './status-page.guard.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badgeLabel, type BadgeFace } from '../../../modules/badges/index.ts';
import type { PublicStatusView, StatusPagesService } from '../../../modules/status-pages/index.ts';
import { notFound } from '../../../platform/errors.ts';
import { PUBLIC_READ_HEADERS, sendBadge } from '../badges/badge.reply.ts';
import { ShieldsEndpoint } from '../badges/badge.schemas.ts';
import {
  openIncidentsAsStatuspage,
  presentSummary,
  type StatuspageContext,
  type SummaryIncidentSource,
} from './statuspage-summary.presenter.ts';
import { StatuspageComponents, StatuspageStatus, StatuspageSummary } from './statuspage-summary.schemas.ts';

const tags = ['status pages'];
const SlugParams = Type.Object({ slug: Type.String({ minLength: 1, maxLength: 80 }) });
/** As the page itself: half a minute of public caching. */
const CACHE = 'public, max-age=30';

export interface StatuspageApiDeps {
  statusPages: StatusPagesService;
  publicUrl: string;
  /** Where summary.json's unresolved incidents come from (default: the open incidents of the page's monitors). */
  incidentsSource?: SummaryIncidentSource;
}

/**
 * The one read of a public page for the machine-readable routes (summary.json, status.json, components.json,
 * badge.svg, badge.json): a password-protected page answers as unknown (null, a 404) without its page session, so
 * neither its data nor its existence reaches a widget that has no session.
 */
async function readPublicPage(
  statusPages: StatusPagesService,
  request: FastifyRequest,
  slug: string,
): Promise<PublicStatusView | null> {
  const page = await statusPages.publicPage(slug);
  if (!page || !pageAccessAllowed(statusPages, request, page)) return null;
  return statusPages.publicViewOf(page);
}

/** The page badge: the page's title, then operational, maintenance, partial outage or major outage. */
export function pageBadgeFace(view: PublicStatusView): BadgeFace {
  const label = badgeLabel(view.title);
  if (view.outage === 'major') return { label, message: 'major outage', color: 'red' };
  if (view.outage === 'partial') return { label, message: 'partial outage', color: 'orange' };
  if (view.monitors.length === 0) return { label, message: 'no monitors', color: 'lightgrey' };
  if (view.monitors.some((m) => m.status === 'maintenance')) return { label, message: 'maintenance', color: 'blue' };
  return { label, message: 'operational', color: 'brightgreen' };
}

/** Statuspage-compatible JSON (/status/{slug}/api/v2/…) and the page badge (/status/{slug}/badge.svg|json). */
export function registerStatuspageApiRoutes(app: FastifyInstance, deps: StatuspageApiDeps): void {
  const { statusPages, publicUrl } = deps;
  const incidentsSource = deps.incidentsSource ?? openIncidentsAsStatuspage;
  for (const schema of [StatuspageSummary, StatuspageStatus, StatuspageComponents]) app.addSchema(schema);

  const summaryOf = async (request: FastifyRequest<{ Params: Static<typeof SlugParams> }>) => {
    const view = await readPublicPage(statusPages, request, request.params.slug);
    if (!view) throw notFound('Status page');
    const context: StatuspageContext = { pageUrl: `${publicUrl}/status/${view.slug}` };
    return presentSummary(view, context, incidentsSource);
  };
  const routes = [
    {
      file: 'summary.json',
      operationId: 'statuspageSummary',
      summary: "Public page in Atlassian Statuspage's summary.json shape",
      schema: StatuspageSummary,
      pick: (s: Awaited<ReturnType<typeof summaryOf>>) => s,
    },
    {
      file: 'status.json',
      operationId: 'statuspageStatus',
      summary: "Public page's overall status in Statuspage's status.json shape",
      schema: StatuspageStatus,
      pick: (s: Awaited<ReturnType<typeof summaryOf>>) => ({ page: s.page, status: s.status }),
    },
    {
      file: 'components.json',
      operationId: 'statuspageComponents',
      summary: "Public page's components (monitors) in Statuspage's components.json shape",
      schema: StatuspageComponents,
      pick: (s: Awaited<ReturnType<typeof summaryOf>>) => ({ page: s.page, components: s.components }),
    },
  ];
  for (const route of routes) {
    app.get<{ Params: Static<typeof SlugParams> }>(
      `/status/:slug/api/v2/${route.file}`,
      {
        config: { public: true },
        schema: {
          tags,
          summary: route.summary,
          description:
            'For widgets and integrations written for Statuspage. Cache-Control: public, max-age=30; ' +
            'Access-Control-Allow-Origin: *. 404 when there is no public page with this slug.',
          operationId: route.operationId,
          params: SlugParams,
          response: { 200: Type.Ref(route.schema) },
        },
      },
      async (request, reply) => {
        const summary = await summaryOf(request);
        return reply.headers(PUBLIC_READ_HEADERS).header('cache-control', CACHE).send(route.pick(summary));
      },
    );
  }

  for (const format of ['svg', 'json'] as const) {
    app.get<{ Params: Static<typeof SlugParams> }>(
      `/status/:slug/badge.${format}`,
      {
        config: { public: true },
        schema: {
          tags,
          summary: `Public page badge (${format === 'svg' ? 'SVG' : 'shields.io endpoint JSON'})`,
          description:
            "The page's title and its state: operational, maintenance, partial outage or major outage. " +
            'Cache-Control: public, max-age=60. 404 when there is no public page with this slug.',
          operationId: format === 'svg' ? 'statusPageBadgeSvg' : 'statusPageBadgeJson',
          params: SlugParams,
          ...(format === 'json' && { response: { 200: Type.Ref(ShieldsEndpoint) } }),
        },
      },
      async (request, reply) => {
        const view = await readPublicPage(statusPages, request, request.params.slug);
        if (!view) throw notFound('Status page');
        return sendBadge(reply, pageBadgeFace(view), format);
      },
    );
  }
}
