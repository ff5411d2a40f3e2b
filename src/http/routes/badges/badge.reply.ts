import type { FastifyReply } from 'fastify';
import { renderBadgeSvg, shieldsEndpointJson, type BadgeFace } from '../../../modules/badges/index.ts';

/**
 * Badges are read by README renderers and image proxies (GitHub's camo caches by these headers): a minute of
 * public caching, so a change, a rotation or a revocation shows within about a minute. The JSON is open to any
 * origin (widgets and shields.io's endpoint badge read it).
 */
export const BADGE_CACHE = 'public, max-age=60';

/**
 * Every machine-readable public answer (badges, summary.json): readable from any origin; loads nothing and runs
 * nothing, even an SVG opened on its own (its colours and font are attributes, not style); never sniffed as
 * something else; no referrer sent on.
 */
export const PUBLIC_READ_HEADERS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'content-security-policy': "default-src 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

export function sendBadge(reply: FastifyReply, face: BadgeFace, format: 'svg' | 'json'): FastifyReply {
  reply.headers(PUBLIC_READ_HEADERS).header('cache-control', BADGE_CACHE);
  if (format === 'json') return reply.type('application/json; charset=utf-8').send(shieldsEndpointJson(face));
  return reply.type('image/svg+xml; charset=utf-8').send(renderBadgeSvg(face));
}
