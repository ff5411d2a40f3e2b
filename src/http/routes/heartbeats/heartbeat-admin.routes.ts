import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { HeartbeatSettings, HeartbeatSignalRow } from '../../../modules/checks/index.ts';
import { nextExpectedPing } from '../../../modules/checks/index.ts';
import { toIso } from '../../../platform/clock.ts';
import { decodeIdCursor, pageOf } from '../../../platform/cursor.ts';
import { actorOf } from '../../plugins/auth.plugin.ts';
import { contextOf } from '../../request-context.ts';
import { IdParams, PageQuery } from '../../schemas/common.schemas.ts';
import type { AppServices } from '../../app.deps.ts';

const tags = ['heartbeats'];
/** A ping's body in a list: its first characters (the whole body: `?full_body=1`). */
const PREVIEW_CHARS = 1000;

const PingRecord = Type.Object(
  {
    id: Type.String(),
    kind: Type.String({ description: 'success, start, fail or log' }),
    at: Type.String({ format: 'date-time' }),
    rid: Type.Union([Type.String(), Type.Null()]),
    duration_ms: Type.Union([Type.Integer(), Type.Null()], { description: 'An end paired with its start.' }),
    exit_code: Type.Union([Type.Integer(), Type.Null()]),
    body: Type.Union([Type.String(), Type.Null()], { description: 'The kept body, or its preview in a list.' }),
    body_preview: Type.Boolean({ description: 'True when `body` is cut to 1,000 characters (see full_body).' }),
    body_bytes: Type.Integer({ description: 'The size of the body received.' }),
    truncated: Type.Boolean({ description: 'The body was over 100 KB: only its first 100 KB were kept.' }),
    source_ip: Type.Union([Type.String(), Type.Null()]),
    user_agent: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: 'HeartbeatPing', title: 'HeartbeatPing' },
);
const PingList = Type.Object(
  {
    data: Type.Array(Type.Ref(PingRecord)),
    next_cursor: Type.Union([Type.String(), Type.Null()]),
    next_expected_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'When the next ping is due (before the grace); null when the schedule never fires.',
    }),
  },
  { $id: 'HeartbeatPingList', title: 'HeartbeatPingList' },
);
const PingListQuery = Type.Object({
  ...PageQuery,
  full_body: Type.Optional(Type.Union([Type.Literal('1'), Type.Literal('0')], { description: '1: whole bodies.' })),
});
const Settings = Type.Object(
  {
    ping_key: Type.Union([Type.String(), Type.Null()], {
      description: 'The key of /api/v1/ping/{ping_key}/{slug}; null when none was made.',
    }),
    heartbeat_auto_create: Type.Boolean({ description: 'A ping with ?create=1 may create its heartbeat monitor.' }),
  },
  { $id: 'HeartbeatSettings', title: 'HeartbeatSettings' },
);
const SettingsPatch = Type.Object(
  {
    heartbeat_auto_create: Type.Optional(Type.Boolean()),
    ping_key: Type.Optional(
      Type.Union([Type.Literal('rotate'), Type.Null()], {
        description: '"rotate": make a new key (the old one stops at once); null: remove the key.',
      }),
    ),
  },
  { additionalProperties: false, 'x-issues': { additionalProperties: 'is not a known heartbeat setting' } },
);

function presentPing(p: HeartbeatSignalRow, full: boolean) {
  const preview = !full && p.body !== null && p.body.length > PREVIEW_CHARS;
  return {
    id: p.id,
    kind: p.kind,
    at: toIso(p.at),
    rid: p.rid,
    duration_ms: p.duration_ms,
    exit_code: p.exit_code,
    body: preview ? p.body!.slice(0, PREVIEW_CHARS) : p.body,
    body_preview: preview,
    body_bytes: p.body_bytes,
    truncated: p.truncated === 1,
    source_ip: p.source_ip,
    user_agent: p.user_agent,
  };
}

const presentSettings = (s: HeartbeatSettings) => ({ ping_key: s.pingKey, heartbeat_auto_create: s.autoCreate });

/** A heartbeat monitor's pings, and the organization's ping key and auto-create setting. */
export function registerHeartbeatAdminRoutes(app: FastifyInstance, services: AppServices): void {
  for (const s of [PingRecord, PingList, Settings]) app.addSchema(s);
  const { heartbeats, heartbeatKeys } = services.checks;

  app.get<{ Params: Static<typeof IdParams>; Querystring: Static<typeof PingListQuery> }>(
    '/api/v1/monitors/:id/pings',
    {
      config: { scope: 'monitors:read' },
      schema: {
        tags,
        summary: "List a heartbeat monitor's pings, newest first",
        operationId: 'listMonitorPings',
        params: IdParams,
        querystring: PingListQuery,
        response: { 200: Type.Ref(PingList) },
      },
    },
    async (request) => {
      const monitor = await services.monitors.get(contextOf(request), request.params.id);
      const limit = request.query.limit ?? 50;
      const before = decodeIdCursor(request.query.cursor);
      const rows = monitor.type === 'heartbeat' ? await heartbeats.listSignals(monitor.id, limit + 1, before) : [];
      const page = pageOf(rows, limit, (r) => r.id);
      const last = monitor.type === 'heartbeat' ? await heartbeats.lastPingAt(monitor.id) : null;
      const next =
        monitor.type === 'heartbeat'
          ? nextExpectedPing(
              { interval_seconds: monitor.intervalSeconds, config: monitor.config },
              last ?? monitor.createdAt,
            )
          : null;
      return {
        data: page.data.map((p) => presentPing(p, request.query.full_body === '1')),
        next_cursor: page.next_cursor,
        next_expected_at: next === null ? null : toIso(next),
      };
    },
  );

  app.get(
    '/api/v1/auth/organization/heartbeats',
    {
      config: { scope: 'destinations:read' },
      schema: {
        tags,
        summary: "Read the organization's heartbeat settings (ping key, auto-create)",
        operationId: 'getHeartbeatSettings',
        response: { 200: Type.Ref(Settings) },
      },
    },
    async (request) => presentSettings(await heartbeatKeys.settings(actorOf(request).organizationId)),
  );

  app.patch<{ Body: Static<typeof SettingsPatch> }>(
    '/api/v1/auth/organization/heartbeats',
    {
      config: { scope: 'destinations:write' },
      schema: {
        tags,
        summary: 'Make, rotate or remove the ping key; allow ?create=1 (owner/admin)',
        operationId: 'updateHeartbeatSettings',
        body: SettingsPatch,
        response: { 200: Type.Ref(Settings) },
      },
    },
    async (request) => {
      const { heartbeat_auto_create, ping_key } = request.body;
      const change = {
        ...(heartbeat_auto_create !== undefined && { autoCreate: heartbeat_auto_create }),
        ...(ping_key !== undefined && { pingKey: ping_key }),
      };
      return presentSettings(await heartbeatKeys.update(contextOf(request), change));
    },
  );
}
