import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { laterPosition, parsePosition, type LiveHub } from '../../../modules/live/index.ts';
import { actorOf } from '../../plugins/auth.plugin.ts';
import { LiveConnection } from './live.connection.ts';

const StreamHeaders = Type.Object(
  {
    'last-event-id': Type.Optional(
      Type.String({ maxLength: 64, description: 'The id of the last event received, to resume after it.' }),
    ),
  },
  { additionalProperties: true },
);

export interface EventStreamDeps {
  live: LiveHub;
  /** The most a slow client may have waiting before it is disconnected. */
  maxQueuedBytes?: number;
}

/** GET /api/v1/events/stream: the organization's live events as server-sent events (DECISIONS §14). */
export function registerEventStreamRoutes(app: FastifyInstance, deps: EventStreamDeps): void {
  const maxQueuedBytes = deps.maxQueuedBytes ?? 256 * 1024;
  // The streams stay open until the client leaves: end them before the server waits for its connections.
  app.addHook('preClose', (done) => {
    deps.live.close();
    done();
  });

  app.get<{ Headers: Static<typeof StreamHeaders> }>(
    '/api/v1/events/stream',
    {
      config: { scope: 'monitors:read' },
      schema: {
        tags: ['events'],
        summary: 'Live events of the organization (server-sent events)',
        description:
          'A `text/event-stream` of `monitor.status` `{monitor_id, status, previous_status, at}` (every status ' +
          'change: pending → up, up → down, down → up, paused, resumed), `incident.opened`, ' +
          '`incident.acknowledged`, `incident.resolved` `{incident_id, monitor_id, number, title, status, at}` and ' +
          '`execution.recorded` `{monitor_id, execution_id, status, duration_ms, at}`. A key receives incident ' +
          'events only with `incidents:read`, execution events only with `executions:read`, and only for monitors ' +
          'of its environments; a session receives all of its organization. Every event has an `id:`; reconnect ' +
          'with `Last-Event-ID` to receive what was missed (at most 1,000 events, else a `resync` event asks the ' +
          'client to reload). The first event is `ready`; a comment `: heartbeat` comes every 15 s. A client that ' +
          'does not read is disconnected once 256 KiB wait for it.',
        operationId: 'streamEvents',
        headers: StreamHeaders,
        response: {
          200: {
            description: 'The event stream (text/event-stream).',
            content: { 'text/event-stream': { schema: { type: 'string' } } },
          },
        },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const from = parsePosition(request.headers['last-event-id']);
      reply.hijack();
      const res = reply.raw;
      const headers: Record<string, string | number | string[]> = {};
      for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) headers[name] = value;
      res.writeHead(200, {
        ...headers,
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        'x-accel-buffering': 'no',
      });
      res.write('retry: 3000\n\n');
      let unsubscribe = (): void => undefined;
      const connection = new LiveConnection({
        out: res,
        actor,
        maxQueuedBytes,
        onEnd: (reason) => {
          unsubscribe();
          if (reason === 'overflow') request.log.warn({ actor: actor.keyId }, 'live feed: a slow client was cut off');
        },
      });
      // The response closes when the client goes away (the request's own 'close' only says its body was read).
      res.on('close', () => connection.end('closed'));
      try {
        const subscribed = await deps.live.subscribe(connection);
        unsubscribe = subscribed.unsubscribe;
        if (connection.isEnded) return unsubscribe();
        // Subscribed first, then the replay reads up to the stored head (which may be ahead of the feed's rounds):
        // all that was committed before this client came back is sent before `ready`, and the live events that carry
        // some of it again are dropped by the connection.
        const head = from === null ? subscribed.position : laterPosition(subscribed.position, await deps.live.head());
        const missed =
          from !== null && (from.seq < head.seq || from.executionKey < head.executionKey)
            ? await deps.live.read(from, head)
            : { events: [], complete: true };
        connection.start(missed.events, missed.complete, head);
      } catch (err) {
        request.log.warn({ err: (err as Error).message }, 'live feed: could not start a stream');
        connection.end('closed');
      }
    },
  );
}
