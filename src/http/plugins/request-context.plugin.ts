import type { FastifyInstance, FastifyRequest, FastifyRequestContext } from 'fastify';
import pino from 'pino';
import { newId } from '../../platform/ids.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The matched route's config (scope, public, url…), read once per request: Fastify's
     * `request.routeOptions` getter builds a new object of a dozen fields on every access.
     */
    routeConfig: FastifyRequestContext['config'];
  }
}

// Only characters that need no escaping in JSON: the request line writes the id without JSON.stringify.
const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** A valid client-sent X-Request-Id is echoed; otherwise `req_…` is generated (DECISIONS §1). */
export function requestIdFor(request: { headers: Record<string, string | string[] | undefined> }): string {
  const sent = request.headers['x-request-id'];
  return typeof sent === 'string' && CLIENT_REQUEST_ID.test(sent) ? sent : newId('req');
}

/** The URL as logged: secrets carried in path parameters (heartbeat tokens) are masked. */
function loggableUrl(request: FastifyRequest): string {
  const params = request.params as Record<string, string> | undefined;
  let url = request.url;
  if (params?.token) url = url.replace(params.token, '[redacted]');
  return url;
}

export function installRequestContext(app: FastifyInstance): void {
  // The request line carries only reqId, method, url (path tokens masked above), route, status and
  // duration: none of the redacted paths can occur in it, so it goes through a child logger without
  // redaction (walking the paths on every line was ~7 % of a read's CPU). Every other line is still
  // redacted. Keep it that way: a field added to `entry` must not be able to hold a secret.
  const requestLog = app.log.child({}, { redact: { paths: [] } });
  const stream = (app.log as unknown as Record<symbol, { write(line: string): unknown } | undefined>)[
    pino.symbols.streamSym
  ];
  // Sync hooks (done callbacks): an async hook costs a promise and a tick on every request.
  app.decorateRequest('routeConfig', null as unknown as FastifyRequestContext['config']);
  app.addHook('onRequest', (request, reply, done) => {
    request.routeConfig = request.routeOptions.config;
    reply.header('x-request-id', request.id);
    done();
  });
  // One log line per request, with its id, status and duration.
  app.addHook('onResponse', (request, reply, done) => {
    const status = reply.statusCode;
    const entry = {
      reqId: request.id,
      method: request.method,
      url: loggableUrl(request),
      // (null when the request failed before its onRequest hooks, e.g. a malformed URL)
      route: ((request.routeConfig as FastifyRequestContext['config'] | null) ?? request.routeOptions.config).url as
        string | undefined,
      status,
      durationMs: Math.round(reply.elapsedTime * 100) / 100,
    };
    if (status >= 500) requestLog.error(entry, 'request failed');
    else if (stream && (app.log as unknown as pino.Logger).isLevelEnabled('info')) {
      // The same line pino would write for `requestLog.info(entry, 'request')`, built directly: going through
      // pino's generic path was the largest single cost of a fast read after the socket write. The id (ours,
      // or a client's that matched CLIENT_REQUEST_ID) and the method (an HTTP token, checked by Node's parser)
      // hold no character JSON would escape; the url may, and goes through JSON.stringify.
      stream.write(
        `{"level":30,"time":${Date.now()},"reqId":"${entry.reqId}","method":"${entry.method}",` +
          `"url":${JSON.stringify(entry.url)},"route":${JSON.stringify(entry.route ?? null)},"status":${status},` +
          `"durationMs":${entry.durationMs},"msg":"request"}\n`,
      );
    } else requestLog.info(entry, 'request');
    done();
  });
}
