import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { BadgeKind, BadgesService, MonitorBadge } from '../../../modules/badges/index.ts';
import { toIso } from '../../../platform/clock.ts';
import { notFound, validationFailed } from '../../../platform/errors.ts';
import { contextOf } from '../../request-context.ts';
import { IdParams } from '../../schemas/common.schemas.ts';
import { sendBadge } from './badge.reply.ts';
import { BADGE_FILES, BadgeFileParams, BadgeFileQuery, MonitorBadgeRecord, ShieldsEndpoint } from './badge.schemas.ts';

const tags = ['badges'];

export function presentBadge(badge: MonitorBadge, publicUrl: string): Static<typeof MonitorBadgeRecord> {
  const base = `${publicUrl}/badge/${badge.token}`;
  return {
    token: badge.token,
    monitor_id: badge.monitorId,
    created_at: toIso(badge.createdAt),
    urls: {
      status_svg: `${base}/status.svg`,
      status_json: `${base}/status.json`,
      uptime_svg: `${base}/uptime.svg`,
      uptime_json: `${base}/uptime.json`,
      response_time_svg: `${base}/response-time.svg`,
      response_time_json: `${base}/response-time.json`,
    },
  };
}

function parseFile(file: string): { kind: BadgeKind; format: 'svg' | 'json' } | null {
  if (!(BADGE_FILES as readonly string[]).includes(file)) return null;
  const dot = file.lastIndexOf('.');
  return { kind: file.slice(0, dot) as BadgeKind, format: file.slice(dot + 1) as 'svg' | 'json' };
}

/** Monitor badges: the owner's token API and the public badge files (DECISIONS §18). */
export function registerBadgeRoutes(app: FastifyInstance, deps: { badges: BadgesService; publicUrl: string }): void {
  const { badges, publicUrl } = deps;
  for (const schema of [MonitorBadgeRecord, ShieldsEndpoint]) app.addSchema(schema);
  const badgeRef = Type.Ref(MonitorBadgeRecord);

  app.post<{ Params: Static<typeof IdParams> }>(
    '/api/v1/monitors/:id/badge',
    {
      config: { scope: 'monitors:write' },
      schema: {
        tags,
        summary: "Create or rotate a monitor's badge token",
        description: 'A new token each time: the previous one (if any) stops working at once.',
        operationId: 'createMonitorBadge',
        params: IdParams,
        response: { 201: badgeRef },
      },
    },
    async (request, reply) =>
      reply.code(201).send(presentBadge(await badges.create(contextOf(request), request.params.id), publicUrl)),
  );

  app.get<{ Params: Static<typeof IdParams> }>(
    '/api/v1/monitors/:id/badge',
    {
      config: { scope: 'monitors:read' },
      schema: {
        tags,
        summary: "Read a monitor's badge token and URLs",
        description: '404 when the monitor has no badge (never made, or revoked).',
        operationId: 'getMonitorBadge',
        params: IdParams,
        response: { 200: badgeRef },
      },
    },
    async (request) => presentBadge(await badges.get(contextOf(request), request.params.id), publicUrl),
  );

  app.delete<{ Params: Static<typeof IdParams> }>(
    '/api/v1/monitors/:id/badge',
    {
      config: { scope: 'monitors:write' },
      schema: {
        tags,
        summary: "Revoke a monitor's badge",
        description: 'Its URLs answer 404 from now on (caches may keep the last image for up to a minute).',
        operationId: 'revokeMonitorBadge',
        params: IdParams,
        response: { 204: Type.Null({ description: 'Revoked.' }) },
      },
    },
    async (request, reply) => {
      await badges.revoke(contextOf(request), request.params.id);
      return reply.code(204).send();
    },
  );

  app.get<{ Params: Static<typeof BadgeFileParams>; Querystring: Static<typeof BadgeFileQuery> }>(
    '/badge/:token/:file',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Public monitor badge: status, uptime over N days, or median response time (24 h)',
        description:
          'SVG (`image/svg+xml`) or shields.io endpoint JSON. An unknown, malformed or revoked token and an ' +
          'unknown file name all answer the same 404. Cache-Control: public, max-age=60; ' +
          'Access-Control-Allow-Origin: *.',
        operationId: 'publicMonitorBadge',
        params: BadgeFileParams,
        querystring: BadgeFileQuery,
      },
    },
    async (request, reply) => {
      const file = parseFile(request.params.file);
      if (request.query.days !== undefined && file && file.kind !== 'uptime')
        throw validationFailed([{ field: 'days', issue: 'only uptime badges cover a number of days' }]);
      const face = file ? await badges.face(request.params.token, file.kind, request.query.days) : null;
      if (!file || !face) throw notFound('Badge');
      return sendBadge(reply, face, file.format);
    },
  );
}
