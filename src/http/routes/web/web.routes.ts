import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../../platform/errors.ts';
import type { WebAsset, WebBuild } from './web.assets.ts';

/**
 * The web app's page paths. Each answers index.html and the app routes in the browser; an explicit list (not a
 * catch-all) so that /api/*, /status/*, /docs, /healthz, /readyz, /metrics, /verify-email and heartbeats keep
 * their own handlers and unknown paths keep the JSON 404.
 */
export const WEB_PAGE_PATHS = [
  '/',
  '/setup',
  '/sign-in',
  '/reset-password',
  '/accept-invitation',
  '/monitors',
  '/monitors/*',
  '/incidents',
  '/incidents/*',
  '/status-pages',
  '/status-pages/*',
  '/destinations',
  '/destinations/*',
  '/maintenance-windows',
  '/maintenance-windows/*',
  '/members',
  '/api-keys',
  '/api-keys/*',
  '/settings',
  '/settings/*',
  '/profile',
  '/reports',
  '/reports/*',
  '/sla-targets',
  '/silences',
  '/sla-targets/*',
  '/custom-reports',
  '/custom-reports/*',
  '/scheduled-reports',
  '/scheduled-reports/*',
  '/imports',
  '/imports/*',
  '/intelligence',
  '/intelligence/*',
] as const;

/**
 * The policy of every page of the app: scripts and styles from this origin only (no inline script, no eval),
 * API calls and the event stream to this origin, never framed, no referrer (reset and invitation links carry
 * one-time tokens in their query).
 */
export const WEB_SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; " +
    "connect-src 'self'; frame-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; " +
    "frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};

function send(request: FastifyRequest, reply: FastifyReply, asset: WebAsset, cacheControl: string): FastifyReply {
  reply.header('content-type', asset.type).header('cache-control', cacheControl).header('vary', 'accept-encoding');
  for (const [name, value] of Object.entries(WEB_SECURITY_HEADERS)) reply.header(name, value);
  const accepts = request.headers['accept-encoding'];
  const gzip = typeof accepts === 'string' && /\bgzip\b/.test(accepts) ? asset.gzip() : null;
  if (gzip) return reply.header('content-encoding', 'gzip').send(gzip);
  return reply.send(asset.body);
}

/** Without a build (an API-only install) the not-found page is this file alone: no script, no style. */
const PLAIN_NOT_FOUND = Buffer.from(
  '<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<meta name="color-scheme" content="light dark"><title>Page not found · Tocsin</title></head>\n' +
    '<body><main><h1>Page not found</h1><p>There is no page at this address.</p>' +
    '<p><a href="/">Go to the overview</a></p></main></body>\n</html>\n',
);

/** Whether a request is a browser asking for a page: GET or HEAD, HTML acceptable, outside the API. */
function wantsPage(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const path = request.url.split('?')[0]!;
  if (path === '/api' || path.startsWith('/api/')) return false;
  const accept = request.headers.accept;
  return typeof accept === 'string' && /\btext\/html\b/.test(accept);
}

/**
 * The not-found answer for a browser's unknown path: 404 with the app's page (the app shows "Page not found" in
 * its own look, signed in or not), or a plain HTML page without a build. API paths and non-browser clients keep
 * the JSON envelope (the error plugin asks this first and falls back).
 */
export function browserNotFoundPage(build: WebBuild | null) {
  return (request: FastifyRequest, reply: FastifyReply): FastifyReply | null => {
    if (!wantsPage(request)) return null;
    reply.code(404).header('x-request-id', request.id);
    if (build) return send(request, reply, build.index, 'no-cache');
    const plain: WebAsset = { body: PLAIN_NOT_FOUND, type: 'text/html; charset=utf-8', gzip: () => null };
    return send(request, reply, plain, 'no-cache');
  };
}

/** Serves the built web app (see web.assets.ts); registers nothing when there is no build. */
export function registerWebRoutes(app: FastifyInstance, build: WebBuild | null): void {
  if (!build) return;
  const options = { config: { public: true }, schema: { hide: true } };
  // index.html names the hashed assets of this build: it must be revalidated every time.
  const page = async (request: FastifyRequest, reply: FastifyReply) => send(request, reply, build.index, 'no-cache');
  for (const path of WEB_PAGE_PATHS) app.get(path, options, page);

  app.get<{ Params: { file: string } }>('/assets/:file', options, async (request, reply) => {
    const asset = build.assets.get(request.params.file);
    if (!asset) throw new DomainError('not_found', 'No such asset.');
    // File names carry a content hash: a changed file has a new name, so the old one may be kept for a year.
    return send(request, reply, asset, 'public, max-age=31536000, immutable');
  });
  for (const [name, asset] of build.root) {
    app.get(`/${name}`, options, async (request, reply) => send(request, reply, asset, 'public, max-age=3600'));
  }
}
