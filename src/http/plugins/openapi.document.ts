/**
 * The document-wide parts of the OpenAPI description, added once the routes are described: response headers,
 * the Idempotency-Key parameter, the public status page's HTML, and the outgoing webhooks. Route schemas
 * describe what a route validates and returns; what the plugins around every route add (request id, rate
 * limit, idempotency) is added here from the same facts those plugins act on: the operation's security
 * (an API key is required) and its method.
 */
import {
  headerRef,
  IDEMPOTENCY_KEY_PARAMETER,
  IDEMPOTENCY_KEY_REF,
  RESPONSE_HEADERS,
  type ResponseHeaderName,
} from '../schemas/headers.schemas.ts';
import { WebhookPayload, WebhookPayloadLegacy, webhooksSection } from '../schemas/webhooks.schemas.ts';

type Json = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
/** The methods the idempotency plugin honours, on a request made with an API key. */
const MUTATING = new Set(['post', 'put', 'patch', 'delete']);
/**
 * Statuses a replay can answer with: what the handler answered and the idempotency plugin stored (< 500). Refusals
 * written before the handler (400, 401, 413, 414, 415, 429, 431) never reach it.
 */
const REPLAYABLE = (status: string): boolean => status.startsWith('2') || ['403', '404', '409', '422'].includes(status);

function asObject(value: unknown): Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
}

function requiresKey(op: Json): boolean {
  return (
    Array.isArray(op.security) &&
    op.security.some((requirement) => 'bearerAuth' in asObject(requirement) || 'sessionCookie' in asObject(requirement))
  );
}

function headersFor(status: string, authenticated: boolean, idempotent: boolean): Json {
  const names: ResponseHeaderName[] = ['X-Request-Id'];
  if (authenticated) names.push('RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset');
  if (status === '429') names.push('Retry-After');
  if (idempotent && REPLAYABLE(status)) names.push('Idempotent-Replayed');
  return Object.fromEntries(names.map((name) => [name, headerRef(name)]));
}

function describeOperation(method: string, op: Json): void {
  const authenticated = requiresKey(op);
  const idempotent = authenticated && MUTATING.has(method);
  if (idempotent) {
    const parameters = Array.isArray(op.parameters) ? op.parameters : [];
    op.parameters = [...parameters, IDEMPOTENCY_KEY_REF];
  }
  const responses = asObject(op.responses);
  for (const [status, response] of Object.entries(responses)) {
    const existing = asObject(asObject(response).headers);
    responses[status] = {
      ...asObject(response),
      headers: { ...headersFor(status, authenticated, idempotent), ...existing },
    };
  }
}

/** GET /status/{slug}: HTML (or JSON for `{slug}.json`); its 404 is an HTML page, or the envelope for JSON. */
function describePublicStatusPage(op: Json): void {
  const responses = asObject(op.responses);
  const envelope = { schema: { $ref: '#/components/schemas/ErrorEnvelope' } };
  const html = (description: string) => ({ schema: { type: 'string', description } });
  op.responses = {
    ...responses,
    '200': {
      description:
        'The page: `text/html` at /status/{slug} (no JavaScript, works at 360 px), `application/json` ' +
        '(PublicStatusPage) at /status/{slug}.json. Cache-Control: public, max-age=30; a weak ETag; gzip when ' +
        'Accept-Encoding allows it (Vary: accept-encoding).',
      content: {
        'text/html': html('A complete HTML document.'),
        'application/json': { schema: { $ref: '#/components/schemas/PublicStatusPage' } },
      },
    },
    '304': { description: "If-None-Match holds the page's current ETag: not modified, no body." },
    '404': {
      description: 'No public page with this slug: an HTML "not found" page, or the error envelope for .json.',
      content: { 'text/html': html('A complete HTML document.'), 'application/json': envelope },
    },
  };
  for (const status of ['422', '500']) {
    const response = asObject(asObject(op.responses)[status]);
    if (response.content) asObject(op.responses)[status] = { ...response, content: { 'application/json': envelope } };
  }
}

/** Badge files: an SVG image, or shields.io's endpoint JSON for the `.json` ones; a 404 is the error envelope. */
function describeBadge(op: Json, withJson: boolean): void {
  const responses = asObject(op.responses);
  const svg = { schema: { type: 'string', description: 'An SVG document (role="img", with a <title>).' } };
  const json = { schema: { $ref: '#/components/schemas/ShieldsEndpointBadge' } };
  op.responses = {
    ...responses,
    '200': {
      description:
        'The badge: `image/svg+xml`' +
        (withJson ? ', or `application/json` in the shields.io endpoint shape for the .json files' : '') +
        '. Cache-Control: public, max-age=60.',
      content: withJson ? { 'image/svg+xml': svg, 'application/json': json } : { 'image/svg+xml': svg },
    },
  };
}

/** GET /api/v1/config/schema.json: a JSON Schema document (draft 7), served as application/schema+json. */
function describeConfigSchema(op: Json): void {
  op.responses = {
    ...asObject(op.responses),
    '200': {
      description: 'The JSON Schema of a configuration document (draft 7); Cache-Control: public, max-age=300.',
      content: { 'application/schema+json': { schema: { type: 'object', additionalProperties: true } } },
    },
  };
}

/** GET /status/{slug}/feed.atom|feed.rss: the XML feed; its 404 is the HTML "not found" page. */
function describeStatusPageFeed(op: Json, mediaType: string, format: string): void {
  const html = { schema: { type: 'string', description: 'A complete HTML document.' } };
  op.responses = {
    ...asObject(op.responses),
    '200': {
      description: `The ${format} feed of the page's published notices (drafts never), the latest activity first, at most 50; Cache-Control: public, max-age=60.`,
      content: { [mediaType]: { schema: { type: 'string', description: `A ${format} XML document.` } } },
    },
    '404': { description: 'No public page with this slug: an HTML "not found" page.', content: { 'text/html': html } },
  };
}

const FEED_OPERATIONS: Record<string, [string, string]> = {
  statusPageAtomFeed: ['application/atom+xml', 'Atom (RFC 4287)'],
  statusPageRssFeed: ['application/rss+xml', 'RSS 2.0'],
};

/** Strips the TypeBox `$id` (the document names a schema by its key under components.schemas). */
function componentSchema(schema: object): Json {
  const { $id: _id, ...rest } = JSON.parse(JSON.stringify(schema)) as Json;
  return rest;
}

export function completeDocument<T extends object>(document: T): T {
  const doc = document as Json;
  const components = (doc.components = asObject(doc.components));
  components.headers = { ...RESPONSE_HEADERS, ...asObject(components.headers) };
  components.parameters = { ...asObject(components.parameters), IdempotencyKey: IDEMPOTENCY_KEY_PARAMETER };
  components.schemas = {
    ...asObject(components.schemas),
    WebhookPayload: componentSchema(WebhookPayload),
    WebhookPayloadLegacy: componentSchema(WebhookPayloadLegacy),
  };
  for (const item of Object.values(asObject(doc.paths))) {
    for (const [method, op] of Object.entries(asObject(item))) {
      if (!METHODS.includes(method)) continue;
      if (asObject(op).operationId === 'publicStatusPage') describePublicStatusPage(asObject(op));
      if (asObject(op).operationId === 'publicMonitorBadge') describeBadge(asObject(op), true);
      if (asObject(op).operationId === 'statusPageBadgeSvg') describeBadge(asObject(op), false);
      if (asObject(op).operationId === 'getConfigDocumentSchema') describeConfigSchema(asObject(op));
      const feed = FEED_OPERATIONS[String(asObject(op).operationId)];
      if (feed) describeStatusPageFeed(asObject(op), ...feed);
      describeOperation(method, asObject(op));
    }
  }
  doc.webhooks = webhooksSection();
  return document;
}
