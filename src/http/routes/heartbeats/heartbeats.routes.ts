import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { PingInput, SignalKind } from '../../../modules/checks/index.ts';
import type { Monitor } from '../../../modules/monitors/index.ts';
import { toIso } from '../../../platform/clock.ts';
import { notFound } from '../../../platform/errors.ts';
import type { AppServices } from '../../app.deps.ts';
import { registerHeartbeatAdminRoutes } from './heartbeat-admin.routes.ts';
import { registerHeartbeatScheduleRoutes } from './heartbeat-schedule.routes.ts';
import { installPingBodyParser, type PingBody } from './heartbeat-ping.body.ts';
import { createdByPing, monitorOfSlug } from './heartbeat-ping.slug.ts';

const SIGNAL = '^(start|fail|log|[0-9]|[1-9][0-9]|1[0-9][0-9]|2[0-4][0-9]|25[0-5])$';
const Signal = Type.String({
  pattern: SIGNAL,
  description: 'start, fail, log, or an exit code 0-255 (0: success, else fail). Absent: success.',
  'x-issues': { pattern: 'must be start, fail, log or an exit code 0-255' },
});
const TokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 128 }) });
const TokenSignalParams = Type.Object({ token: TokenParams.properties.token, signal: Signal });
const Slug = Type.String({ minLength: 1, maxLength: 64 });
const KeyParams = Type.Object({ ping_key: Type.String({ minLength: 1, maxLength: 128 }), slug: Slug });
const KeySignalParams = Type.Object({ ping_key: KeyParams.properties.ping_key, slug: Slug, signal: Signal });
const Rid = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 64,
    description: 'Run id: pairs a /start with its end, which records the run duration.',
  }),
);
// Other query parameters are ignored: a job's URL may carry its own (cache busters, labels).
const PingQuery = Type.Object({ rid: Rid }, { additionalProperties: true });
const KeyPingQuery = Type.Object(
  {
    rid: Rid,
    create: Type.Optional(
      Type.Union([Type.Literal('1'), Type.Literal('0')], {
        description: "1: create the heartbeat monitor on its first ping (when the organization's setting allows it).",
      }),
    ),
  },
  { additionalProperties: true },
);
const Ack = Type.Object(
  {
    status: Type.Literal('ok'),
    monitor_id: Type.String(),
    received_at: Type.String({ format: 'date-time' }),
    signal: Type.String({ description: 'success, start, fail or log' }),
    ping_id: Type.String(),
    duration_ms: Type.Union([Type.Integer(), Type.Null()], { description: 'An end paired with its start: the run.' }),
    truncated: Type.Boolean({ description: 'The body was longer than 100 KB: its first 100 KB are kept.' }),
  },
  { $id: 'HeartbeatPingAck', title: 'HeartbeatPingAck' },
);

interface Parsed {
  signal?: string;
  rid?: string;
}

function pingInput(request: FastifyRequest, params: Parsed): PingInput {
  const s = params.signal;
  let kind: SignalKind = 'success';
  let exitCode: number | null = null;
  if (s === 'start' || s === 'fail' || s === 'log') kind = s;
  else if (s !== undefined) {
    exitCode = Number(s);
    kind = exitCode === 0 ? 'success' : 'fail';
  }
  const body = request.body as PingBody | undefined;
  const ua = request.headers['user-agent'];
  return {
    kind,
    exitCode,
    rid: params.rid ?? null,
    body: body?.kept ?? null,
    bodyBytes: body?.bytes ?? 0,
    sourceIp: request.ip,
    userAgent: typeof ua === 'string' ? ua : null,
  };
}

const description =
  'GET or POST. The body (any type; the first 100 KB are kept) is stored with the ping, which is acknowledged ' +
  "once stored with the monitor's state. Unknown token or slug: 404.";

/** Push URLs of heartbeat monitors: public, the token (or the organization's ping key) is the secret. */
export function registerHeartbeatRoutes(app: FastifyInstance, services: AppServices): void {
  app.addSchema(Ack);
  registerHeartbeatAdminRoutes(app, services);
  registerHeartbeatScheduleRoutes(app, services);
  const { heartbeats } = services.checks;
  const ack = (r: Awaited<ReturnType<typeof heartbeats.record>>) => ({
    status: 'ok' as const,
    monitor_id: r.monitor.id,
    received_at: toIso(r.receivedAt),
    signal: r.signal.kind,
    ping_id: r.signal.id,
    duration_ms: r.signal.duration_ms,
    truncated: r.signal.truncated === 1,
  });

  // A scope of their own: these routes read any body as bytes.
  void app.register(async (scope) => {
    installPingBodyParser(scope);
    const common = { tags: ['heartbeats'], description, response: { 200: Type.Ref(Ack) } };
    for (const method of ['POST', 'GET'] as const) {
      const suffix = method === 'GET' ? 'Get' : '';
      scope.route<{ Params: Static<typeof TokenParams>; Querystring: Static<typeof PingQuery> }>({
        method,
        url: '/api/v1/heartbeats/:token',
        config: { public: true },
        schema: {
          ...common,
          summary: 'Record a heartbeat ping (success)',
          operationId: `pingHeartbeat${suffix}`,
          params: TokenParams,
          querystring: PingQuery,
        },
        handler: async (request) =>
          ack(await heartbeats.ping(request.params.token, pingInput(request, { ...request.query }))),
      });
      scope.route<{ Params: Static<typeof TokenSignalParams>; Querystring: Static<typeof PingQuery> }>({
        method,
        url: '/api/v1/heartbeats/:token/:signal',
        config: { public: true },
        schema: {
          ...common,
          summary: 'Record a heartbeat signal: /start, /fail, /log or /{exit_code}',
          operationId: `pingHeartbeatSignal${suffix}`,
          params: TokenSignalParams,
          querystring: PingQuery,
        },
        handler: async (request) => {
          const { token, signal } = request.params;
          return ack(await heartbeats.ping(token, pingInput(request, { signal, ...request.query })));
        },
      });
      const byKey = async (
        request: FastifyRequest,
        params: Static<typeof KeySignalParams> | Static<typeof KeyParams>,
      ) => {
        const query = request.query as Static<typeof KeyPingQuery>;
        const signal = 'signal' in params ? params.signal : undefined;
        const input = pingInput(request, {
          ...(signal !== undefined && { signal }),
          ...(query.rid && { rid: query.rid }),
        });
        let monitor: Monitor | null = await monitorOfSlug(services, params.ping_key, params.slug);
        if (!monitor && query.create === '1') monitor = await createdByPing(services, request, params);
        if (!monitor) throw notFound('Heartbeat monitor');
        return ack(await heartbeats.record(monitor, input));
      };
      scope.route<{ Params: Static<typeof KeyParams>; Querystring: Static<typeof KeyPingQuery> }>({
        method,
        url: '/api/v1/ping/:ping_key/:slug',
        config: { public: true },
        schema: {
          ...common,
          summary: "Record a heartbeat ping by the organization's ping key and the monitor's slug",
          operationId: `pingHeartbeatSlug${suffix}`,
          params: KeyParams,
          querystring: KeyPingQuery,
        },
        handler: (request) => byKey(request, request.params),
      });
      scope.route<{ Params: Static<typeof KeySignalParams>; Querystring: Static<typeof KeyPingQuery> }>({
        method,
        url: '/api/v1/ping/:ping_key/:slug/:signal',
        config: { public: true },
        schema: {
          ...common,
          summary: 'Record a heartbeat signal by ping key and slug: /start, /fail, /log or /{exit_code}',
          operationId: `pingHeartbeatSlugSignal${suffix}`,
          params: KeySignalParams,
          querystring: KeyPingQuery,
        },
        handler: (request) => byKey(request, request.params),
      });
    }
  });
}
