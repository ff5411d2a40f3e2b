import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { DomainError, type ErrorCode, type ErrorDetail } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { STATUS_OF } from '../error-status.ts';
import { logRefusedRequest } from './request-context.plugin.ts';
import { detailsFromAjv, withBodyRules } from './validation.plugin.ts';

export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  code: ErrorCode,
  message: string,
  details?: ErrorDetail[],
): FastifyReply {
  const error: Record<string, unknown> = { code, message, request_id: request.id };
  if (details && details.length > 0) error.details = details;
  // Set here too: a request refused before its onRequest hooks (a bad URL) has not got the header yet.
  return reply
    .code(STATUS_OF[code])
    .header('x-request-id', request.id)
    .type('application/json; charset=utf-8')
    .send({ error });
}

/**
 * Fastify's errors before routing (its `frameworkErrors` option): bad percent-encoding in the path, a path
 * parameter over the router's length limit, a failed routing constraint.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === 'FST_ERR_BAD_URL') {
    sendError(request, reply, 'bad_request', 'The path is not valid: it holds a broken percent-encoding.');
    logRefusedRequest(request, reply.statusCode);
  } else if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    sendError(request, reply, 'uri_too_long', 'A path segment is longer than any id or token of this API.');
    logRefusedRequest(request, reply.statusCode);
  } else {
    request.log.error({ err: error, reqId: request.id }, 'routing failed');
    sendError(request, reply, 'internal_error', 'Something went wrong on our side; quote the request id.');
  }
}

const CLIENT_ERRORS: Record<string, { code: ErrorCode; message: string }> = {
  HPE_HEADER_OVERFLOW: {
    code: 'request_header_fields_too_large',
    message: 'The request headers are larger than the server accepts.',
  },
  ERR_HTTP_REQUEST_TIMEOUT: { code: 'request_timeout', message: 'The request was not received in time.' },
  HPE_HEADERS_TIMEOUT: { code: 'request_timeout', message: 'The request headers were not received in time.' },
};
const MALFORMED = { code: 'bad_request' as const, message: 'The request is not valid HTTP.' };
const REASON: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/**
 * Requests Node's HTTP parser refuses never reach Fastify (its `clientErrorHandler` option): the answer is
 * written on the socket by hand, still in the envelope and with a request id of its own, logged with it.
 */
export function clientErrorHandler(this: FastifyInstance, err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const { code, message } = (err.code !== undefined && CLIENT_ERRORS[err.code]) || MALFORMED;
  const status = STATUS_OF[code];
  const requestId = newId('req');
  this.log.info({ reqId: requestId, status, parserError: err.code }, 'request refused by the HTTP parser');
  if (socket.writable) {
    const body = JSON.stringify({ error: { code, message, request_id: requestId } });
    socket.write(
      `HTTP/1.1 ${status} ${REASON[status] ?? 'Error'}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

const FASTIFY_CODES: Record<string, { code: ErrorCode; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'invalid_json', message: 'The body is not valid JSON.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    code: 'invalid_json',
    message: 'The body is empty but Content-Type is application/json; send a JSON value.',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    code: 'payload_too_large',
    message: 'The body is larger than the limit for this route.',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'unsupported_media_type',
    message: 'Send the body as application/json.',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'invalid_json', message: 'Content-Length does not match the body.' },
  FST_ERR_CTP_INVALID_TYPE: { code: 'unsupported_media_type', message: 'Content-Type header is not valid.' },
};

/**
 * Answers an unknown path for a browser (the web app's not-found page) or returns null to keep the JSON 404.
 * Given by the web routes, which know the build; the plugin only decides when to ask.
 */
export type BrowserNotFound = (request: FastifyRequest, reply: FastifyReply) => FastifyReply | null;

export function installErrorHandling(app: FastifyInstance, options: { browserNotFound?: BrowserNotFound } = {}): void {
  // Which methods each path answers, so a wrong method gets 405 with Allow rather than 404.
  const known = FindMyWay();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const m of methods) {
      try {
        known.on(m as HTTPMethod, route.url, () => undefined);
      } catch {
        // Same path and method registered twice through HEAD auto-routes; nothing to add.
      }
    }
  });

  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    if (error instanceof DomainError) {
      if (error.code === 'rate_limited' && !reply.hasHeader('retry-after')) reply.header('retry-after', '1');
      return sendError(request, reply, error.code, error.message, error.details);
    }
    if (error.validation) {
      const prefix = error.validationContext === 'body' ? '' : '';
      let details = detailsFromAjv(error.validation as Parameters<typeof detailsFromAjv>[0], prefix);
      if (error.validationContext === 'body') details = await withBodyRules(request, details);
      const where = error.validationContext === 'querystring' ? 'query string' : (error.validationContext ?? 'request');
      return sendError(request, reply, 'validation_failed', `The ${where} is not valid.`, details);
    }
    const mapped = error.code ? FASTIFY_CODES[error.code] : undefined;
    if (mapped) return sendError(request, reply, mapped.code, mapped.message);
    if (error instanceof SyntaxError && error.statusCode === 400) {
      return sendError(request, reply, 'invalid_json', 'The body is not valid JSON.');
    }
    if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
      const status = error.statusCode;
      const code: ErrorCode = status === 404 ? 'not_found' : status === 413 ? 'payload_too_large' : 'validation_failed';
      return sendError(request, reply, code, error.message);
    }
    request.log.error({ err: error, reqId: request.id }, 'unhandled error');
    return sendError(request, reply, 'internal_error', 'Something went wrong on our side; quote the request id.');
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = (['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const).filter(
      (m) => m !== request.method && known.find(m, path) !== null,
    );
    if (allowed.length > 0) {
      reply.header('allow', allowed.join(', '));
      return sendError(
        request,
        reply,
        'method_not_allowed',
        `${request.method} is not allowed here; use ${allowed.join(', ')}.`,
      );
    }
    const page = options.browserNotFound?.(request, reply);
    if (page) return page;
    return sendError(request, reply, 'not_found', `No route ${request.method} ${path}.`);
  });
}
