import type { FastifyInstance, FastifyRequest, FastifyRequestContext } from 'fastify';
import { DomainError } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { createRequestLineLogger, type Logger } from '../../platform/logger.ts';
import { wasShed } from '../loop-turn.budget.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The matched route's config (scope, public, url…), read once per request: Fastify's
     * `request.routeOptions` getter builds a new object of a dozen fields on every access.
     */
    routeConfig: FastifyRequestContext['config'];
  }
}

// A client's id is echoed in a header and in logs: a short token of safe characters only.
const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** A valid client-sent X-Request-Id is echoed; otherwise `req_…` is generated (DECISIONS §1). */
export function requestIdFor(request: { headers: Record<string, string | string[] | undefined> }): string {
  const sent = request.headers['x-request-id'];
  return typeof sent === 'string' && CLIENT_REQUEST_ID.test(sent) ? sent : newId('req');
}

// The token segment of a heartbeat push URL, read from the raw path (not the route's params: a request refused
// before routing, e.g. for broken percent-encoding, has none, and params are decoded while the URL is not).
const HEARTBEAT_TOKEN = /^([^?#]*\/(?:heartbeats|ping)\/)[^/?#]+/i;

/** The URL as logged: a heartbeat token (the monitor's credential) is always masked, however it is encoded. */
export function loggableUrl(url: string): string {
  return url.replace(HEARTBEAT_TOKEN, '$1[redacted]');
}

/**
 * The request line of a request Fastify refused before routing (broken percent-encoding, an over-long path
 * parameter): no route hooks run for those, so their error handler writes the line through this.
 */
export function logRefusedRequest(request: FastifyRequest, status: number): void {
  request.log.info({ method: request.method, url: loggableUrl(request.url), status }, 'request');
}

export function installRequestContext(app: FastifyInstance): void {
  const requestLog = createRequestLineLogger(app.log as Logger);
  // Requests that still arrive while the server drains get 503 in the envelope (Fastify's own 503 is not).
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  // Sync hooks (done callbacks): an async hook costs a promise and a tick on every request.
  app.decorateRequest('routeConfig', null as unknown as FastifyRequestContext['config']);
  app.addHook('onRequest', (request, reply, done) => {
    request.routeConfig = request.routeOptions.config;
    reply.header('x-request-id', request.id);
    if (closing) {
      reply.header('connection', 'close');
      return done(new DomainError('service_unavailable', 'The server is shutting down; retry on another instance.'));
    }
    if (wasShed(request.raw)) {
      reply.header('retry-after', '1');
      return done(new DomainError('service_unavailable', 'The server is overloaded; retry in a second.'));
    }
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
      reply.header('connection', 'close');
      return done(new DomainError('bad_request', 'An HTTP/1.1 request must carry a Host header.'));
    }
    done();
  });
  // One log line per request, with its id, status and duration.
  app.addHook('onResponse', (request, reply, done) => {
    const status = reply.statusCode;
    if (status >= 500) requestLog.error(requestLine(request, status, reply.elapsedTime), 'request failed');
    else if (requestLog.isLevelEnabled('info'))
      requestLog.info(requestLine(request, status, reply.elapsedTime), 'request');
    done();
  });
}

function requestLine(request: FastifyRequest, status: number, elapsedMs: number): Record<string, unknown> {
  return {
    reqId: request.id,
    method: request.method,
    url: loggableUrl(request.url),
    // (null when the request failed before its onRequest hooks, e.g. a malformed URL)
    route: ((request.routeConfig as FastifyRequestContext['config'] | null) ?? request.routeOptions.config).url as
      string | undefined,
    status,
    durationMs: Math.round(elapsedMs * 100) / 100,
  };
}
