import type { FastifyInstance, FastifyRequest } from 'fastify';
import pino from 'pino';
import { newId } from '../../platform/ids.ts';

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
  const stream = (app.log as unknown as Record<symbol, { write(line: string): unknown } | undefined>)[pino.symbols.streamSym];
  // Sync hooks (done callbacks): an async hook costs a promise and a tick on every request.
  app.addHook('onRequest', (request, reply, done) => {
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
      route: request.routeOptions.url,
      status,
      durationMs: Math.round(reply.elapsedTime * 100) / 100,
    };
    if (status >= 500) requestLog.error(entry, 'request failed');
    else if (stream && (app.log as unknown as pino.Logger).isLevelEnabled('info')) {
      // The same line pino would write for `requestLog.info(entry, 'request')`, built directly: going through
      // pino's generic path was the largest single cost of a fast read after the socket write.
      stream.write(
        `{"level":30,"time":${Date.now()},"reqId":${JSON.stringify(entry.reqId)},"method":${JSON.stringify(entry.method)},` +
          `"url":${JSON.stringify(entry.url)},"route":${JSON.stringify(entry.route ?? null)},"status":${status},` +
          `"durationMs":${entry.durationMs},"msg":"request"}\n`,
      );
    } else requestLog.info(entry, 'request');
    done();
  });
}
