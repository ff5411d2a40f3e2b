import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError, notFound, validationFailed, type ErrorDetail } from '../../platform/errors.ts';

/**
 * Object keys refused anywhere in a body: assigned to a plain object they change its prototype instead of
 * adding a field, so a module would drop them silently (or worse); no field of the API has these names.
 */
const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);
const NUL = '\u0000';
// The same wording as the schemas' own control-character rule, so a field reads the same whichever refuses it.
const NUL_ISSUE = 'must not contain control characters';

/** What a path segment names, for the 404 message (`/api/v1/monitors/:id` → "Monitor not found."). */
const RESOURCE_OF_SEGMENT: Readonly<Record<string, string>> = {
  monitors: 'Monitor',
  incidents: 'Incident',
  executions: 'Execution',
  'status-pages': 'Status page',
  'api-keys': 'API key',
  'service-accounts': 'Service account',
  webhooks: 'Destination',
  members: 'Member',
  heartbeats: 'Heartbeat monitor',
  intelligence: 'Intelligence event',
};

function childPath(base: string, key: string): string {
  return base === '' ? key : `${base}.${key}`;
}

/**
 * How deeply arrays and objects may nest in an input. No field of the API nests beyond a dozen levels (an imported
 * OpenAPI document is the deepest); past this, a body is refused before anything recursive (schema validation,
 * serialization, the importers) walks it, whatever its depth.
 */
export const MAX_INPUT_DEPTH = 64;

/**
 * What no input may hold, at any depth: a string with U+0000 (PostgreSQL refuses it in text, SQLite would
 * store it), the keys above, and nesting deeper than MAX_INPUT_DEPTH. One detail per offending field, with its
 * dotted path. The walk keeps its own stack, so no input can overflow the call stack.
 */
export function unsafeInputDetails(value: unknown, path = ''): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  // Each entry is a value still to walk, or a detail found in its parent (kept in line for document order).
  type Pending = { v: unknown; at: string; depth: number } | { detail: ErrorDetail };
  const pending: Pending[] = [{ v: value, at: path, depth: 0 }];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if ('detail' in next) {
      details.push(next.detail);
      continue;
    }
    const { v, at, depth } = next;
    if (typeof v === 'string') {
      if (v.includes(NUL)) details.push({ field: at || 'body', issue: NUL_ISSUE });
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (depth >= MAX_INPUT_DEPTH) {
      // The whole input is refused: deeper levels are not walked, so one detail says it.
      return [{ field: at || 'body', issue: `must not nest arrays and objects more than ${MAX_INPUT_DEPTH} deep` }];
    }
    // Pushed in reverse so that details come out in document order.
    const children: Pending[] = [];
    if (Array.isArray(v)) {
      v.forEach((item, i) => children.push({ v: item, at: `${at}[${i}]`, depth: depth + 1 }));
    } else {
      for (const key of Object.keys(v)) {
        const field = childPath(at, key);
        if (FORBIDDEN_KEYS.has(key)) children.push({ detail: { field, issue: `${key} is not an allowed field name` } });
        else if (key.includes(NUL)) children.push({ detail: { field, issue: `a field name ${NUL_ISSUE}` } });
        else children.push({ v: (v as Record<string, unknown>)[key], at: field, depth: depth + 1 });
      }
    }
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]!);
  }
  return details;
}

/** Parses a JSON body and refuses what `unsafeInputDetails` finds (422 naming each field). */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    const err = new Error('The body is not valid JSON.') as Error & { code: string; statusCode: number };
    err.code = 'FST_ERR_CTP_INVALID_JSON_BODY';
    err.statusCode = 400;
    throw err;
  }
  const details = unsafeInputDetails(parsed);
  if (details.length > 0) throw validationFailed(details, 'The body is not valid.');
  return parsed;
}

/** The resource a route's path parameter names: the collection segment just before it. */
function resourceNamedBy(routeUrl: string | undefined, param: string): string {
  const segments = (routeUrl ?? '').split('/');
  const at = segments.indexOf(`:${param}`);
  return (at > 0 && RESOURCE_OF_SEGMENT[segments[at - 1]!]) || 'Resource';
}

function checkPathAndQuery(request: FastifyRequest): void {
  const params = (request.params ?? {}) as Record<string, unknown>;
  // A path id holding NUL names nothing that can exist.
  for (const [name, value] of Object.entries(params)) {
    if (typeof value === 'string' && value.includes(NUL)) {
      throw notFound(resourceNamedBy(request.routeConfig.url as string | undefined, name));
    }
  }
  const details = unsafeInputDetails(request.query, '');
  if (details.length > 0) {
    throw new DomainError('validation_failed', 'The query string is not valid.', details);
  }
}

/**
 * Every input passes here: JSON bodies through the content-type parser (in app.ts, `parseJsonBody`), path
 * parameters and query strings in a preValidation hook (after authentication, before schema validation and
 * before anything is stored). An empty JSON body means "no body", which bodiless actions accept.
 */
export function installInputSafety(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(typeof body === 'string' ? body : body.toString('utf8')));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
  app.addHook('preValidation', (request, _reply, done) => {
    // A NUL reaches a URL only percent-encoded (Node refuses the raw byte): most requests stop here.
    if (!request.url.includes('%00')) return done();
    try {
      checkPathAndQuery(request);
    } catch (err) {
      return done(err as Error);
    }
    done();
  });
}
