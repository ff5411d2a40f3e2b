import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { ErrorEnvelope } from '../schemas/common.schemas.ts';
import { completeDocument } from './openapi.document.ts';

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'invalid_json: the body is not parseable JSON; bad_request: broken percent-encoding in the path.',
  401: 'unauthorized: key missing, malformed, unknown, expired or revoked.',
  403: 'insufficient_scope, forbidden, plan_upgrade_required or plan_limit_exceeded.',
  404: 'not_found: missing, or in another organization or environment.',
  405: 'method_not_allowed.',
  409: 'idempotency_in_progress: a request with the same Idempotency-Key is still running.',
  413: 'payload_too_large: body over the limit.',
  414: 'uri_too_long: a path segment over 100 characters (longer than any id or token).',
  415: 'unsupported_media_type: the body is not JSON.',
  422: 'validation_failed (with details), or idempotency_key_mismatch.',
  429: 'rate_limited: the budget is exhausted; see Retry-After.',
  431: 'request_header_fields_too_large: the headers are over the server limit.',
  500: 'internal_error: quote the request id.',
  503: 'service_unavailable: the server is shutting down; retry (another instance).',
};

const errorRef = { $ref: 'ErrorEnvelope#' };

/** Adds the error responses, security requirement and required scope of every route to its schema. */
function describeRoute(route: RouteOptions): void {
  const schema = (route.schema ??= {}) as Record<string, unknown>;
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  const mutating = methods.some((m) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(m));
  const hasBody = methods.some((m) => ['POST', 'PUT', 'PATCH'].includes(m));
  const scope = route.config?.scope;
  const sessionOnly = route.config?.session === true;
  // Every route may meet the errors written before routing or by the HTTP parser (docs/api.md).
  const statuses = [400, 431, 500, 503];
  if (scope || sessionOnly) statuses.push(401, 403, 429);
  if (route.url.includes(':')) statuses.push(404, 414);
  if (schema.querystring || schema.body || schema.params || schema.headers) statuses.push(422);
  if (hasBody) statuses.push(413, 415);
  if (mutating && scope) statuses.push(409);
  const response = (schema.response ??= {}) as Record<string, unknown>;
  for (const status of statuses.sort()) {
    response[status] ??= { description: ERROR_DESCRIPTIONS[status], ...errorRef };
  }
  if (sessionOnly) {
    schema.security = [{ sessionCookie: [] }];
  } else if (scope) {
    // A key with the scope, or a session whose role allows the operation (DECISIONS §14).
    schema.security = [{ bearerAuth: [scope] }, { sessionCookie: [] }];
    const note = `Requires scope \`${scope}\`.`;
    const text = typeof schema.description === 'string' ? schema.description : '';
    if (!text.includes(note)) schema.description = text ? `${text}\n\n${note}` : note;
    (schema as Record<string, unknown>)['x-required-scope'] = scope;
  } else if (route.config?.public) {
    schema.security = [];
  }
}

export async function installOpenApi(
  app: FastifyInstance,
  options: { version: string; publicUrl: string },
): Promise<void> {
  app.addSchema(ErrorEnvelope);
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/docs')) return;
    describeRoute(route);
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Tocsin API',
        version: options.version,
        // package.json says UNLICENSED: the software is proprietary, no open-source licence is granted.
        license: { name: 'Proprietary (UNLICENSED): all rights reserved', identifier: 'LicenseRef-Proprietary' },
        description:
          'Monitoring, alerting and reporting. Every call under /api/v1 carries `Authorization: Bearer <API_KEY>`; ' +
          'errors use one envelope `{"error": {"code", "message", "request_id", "details"}}`; lists are ' +
          '`{"data": [...], "next_cursor"}`; mutating calls accept `Idempotency-Key`.',
      },
      servers: [{ url: options.publicUrl }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key: tsk_…' },
          sessionCookie: {
            type: 'apiKey',
            in: 'cookie',
            name: 'tocsin_session',
            description:
              'A web-app session (POST /api/v1/auth/sessions). It acts with the person’s role instead of scopes; ' +
              'every POST, PUT, PATCH and DELETE in a session carries the header `X-CSRF-Token` (the session’s ' +
              '`csrf_token`), else 403 `csrf_failed`.',
          },
        },
      },
    },
    // Headers, Idempotency-Key, the status page's HTML and the outgoing webhooks (see openapi.document.ts).
    transformObject: (input) =>
      'openapiObject' in input ? completeDocument(input.openapiObject) : input.swaggerObject,
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: true,
    // Everything /docs loads comes from this server: no validator badge from validator.swagger.io, and a
    // policy that allows no other host for styles, fonts or images.
    transformStaticCSP: (header) => header.replace(/ https:/g, '').replace(/ validator\.swagger\.io/g, ''),
    uiConfig: { deepLinking: true, validatorUrl: null },
  });
}
