import { validationFailed } from '../../platform/errors.ts';
import { dereferenced, unresolvedOf, type OpenApiDocument } from './openapi.document.ts';
import { requestBodyOf } from './openapi.request-body.ts';
import { credentialsOf } from './openapi.security.ts';
import { serverOf } from './openapi.servers.ts';
import { readSpecSource } from './openapi.source.ts';
import { parameterSample, scalarText, urlText } from './openapi.values.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A `POST /monitors` body for one operation (an `http` monitor). */
export interface OperationMonitor {
  name: string;
  type: 'http';
  target: string;
  config: {
    method: string;
    headers: Record<string, string>;
    body: string | null;
    follow_redirects: boolean;
    assertions: Array<Record<string, unknown>>;
  };
}

export interface ParsedOperation {
  operation_id: string;
  method: string;
  path: string;
  summary: string | null;
  monitor: OperationMonitor;
  /** Whether an import should create it unless told otherwise: safe methods with everything known. */
  create: boolean;
  warnings: string[];
}

/** Methods a monitor can send. TRACE is left out (not an HTTP monitor method). */
const METHODS: ReadonlySet<string> = new Set(['get', 'head', 'post', 'put', 'patch', 'delete', 'options']);
const SAFE = new Set(['GET', 'HEAD']);
const NAME_MAX = 200;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/;
/** Where a made-up base URL stands in for a relative server, so the body stays a valid monitor. */
const PLACEHOLDER_BASE = 'http://localhost';

export interface ParseLimits {
  /** Operations a description may have; more is a 422 before any `$ref` is followed or monitor built. */
  maxOperations: number;
}

/**
 * Every operation of the description (object, JSON or YAML text), each with a ready monitor body and warnings, in
 * the description's order: its paths, and within a path its operations as the path item lists them.
 * Synchronous work of up to seconds for a big description: the routes run it on a worker thread (OpenApiParser).
 */
export async function parseOpenApi(
  spec: unknown,
  baseUrl?: string,
  limits: ParseLimits = { maxOperations: Number.POSITIVE_INFINITY },
): Promise<ParsedOperation[]> {
  const source = readSpecSource(spec);
  checkOperationCount(source, limits.maxOperations);
  const api = await dereferenced(source);
  checkOperationCount(api.doc, limits.maxOperations);
  const out: ParsedOperation[] = [];
  const ids = new Map<string, number>();
  for (const [path, item, method, operation] of operationsOf(api.doc)) {
    out.push(operationEntry(api, path, item, method, operation, baseUrl, ids));
  }
  return out;
}

/** Path, path item, lower-case method and operation of each operation, in document order. */
function* operationsOf(doc: Json): Generator<[string, Json, string, Json]> {
  const paths = isObject(doc.paths) ? doc.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!path.startsWith('/') || !isObject(item)) continue;
    for (const [method, operation] of Object.entries(item)) {
      if (METHODS.has(method) && isObject(operation)) yield [path, item, method, operation];
    }
  }
}

/**
 * Counted on the document as written, so the refusal comes before the costly part (following references, building
 * monitors), and again once references are followed (path items given by `$ref`).
 */
function checkOperationCount(doc: Json, max: number): void {
  let count = 0;
  for (const _ of operationsOf(doc)) count++;
  if (count > max) {
    throw validationFailed(
      [{ field: 'spec', issue: `has ${count} operations; at most ${max} are read (imports.openapi_max_operations)` }],
      'The description has more operations than an import reads.',
    );
  }
}

function operationEntry(
  api: OpenApiDocument,
  path: string,
  item: Json,
  lowerMethod: string,
  operation: Json,
  baseUrl: string | undefined,
  ids: Map<string, number>,
): ParsedOperation {
  const method = lowerMethod.toUpperCase();
  const warnings: string[] = [];
  const parameters = mergedParameters(item, operation, warnings);
  const server = serverOf(api, item, operation, baseUrl);
  warnings.push(...server.warnings);
  const credentials = credentialsOf(api, operation);
  warnings.push(...credentials.warnings);
  const headers: Record<string, string> = { ...credentials.headers };
  const query: Array<[string, string]> = Object.entries(credentials.query);
  const cookies: Array<[string, string]> = Object.entries(credentials.cookies);
  let pathText = path;
  for (const p of parameters) {
    const name = String(p.name);
    if (p.in === 'path') {
      const sample = parameterSample(p);
      if (sample.guessed) warnings.push(`the path parameter "${name}" was given a made-up value: check it`);
      pathText = pathText.split(`{${name}}`).join(urlText(sample.value));
    } else if (p.required === true && (p.in === 'query' || p.in === 'header' || p.in === 'cookie')) {
      const sample = parameterSample(p);
      if (sample.guessed) warnings.push(`the ${String(p.in)} parameter "${name}" was given a made-up value: check it`);
      const text = Array.isArray(sample.value) ? sample.value.map(scalarText).join(',') : scalarText(sample.value);
      if (p.in === 'query') query.push([name, text]);
      else if (p.in === 'cookie') cookies.push([name, text]);
      else if (HEADER_NAME.test(name) && !/[\r\n]/.test(text)) headers[name] = text;
      else warnings.push(`the header parameter "${name}" cannot be sent as given`);
    }
  }
  if (/\{[^}]+\}/.test(pathText)) warnings.push('the path has parameters the description does not define');
  const body = requestBodyOf(api, operation, parameters);
  warnings.push(...body.warnings);
  if (body.contentType && body.body !== null) headers['Content-Type'] = body.contentType;
  if (cookies.length > 0) headers.Cookie = cookies.map(([k, v]) => `${k}=${v}`).join('; ');
  const search = query.map(([k, v]) => `${encodeURIComponent(k)}=${urlText(v)}`).join('&');
  const base = server.base ?? PLACEHOLDER_BASE;
  const target = `${base}${pathText}${search ? `?${search}` : ''}`;
  const expected = expectedStatuses(operation, warnings);
  const operationId = uniqueId(operation, method, path, ids, warnings);
  const safe = SAFE.has(method);
  if (!safe) warnings.push(`${method} is not a safe method: not selected for creation by default`);
  return {
    operation_id: operationId,
    method,
    path,
    summary: typeof operation.summary === 'string' ? operation.summary : null,
    monitor: {
      name: nameOf(method, path),
      type: 'http',
      target,
      config: {
        method,
        headers,
        body: body.body,
        // A description whose only answers are redirects documents the redirect itself.
        follow_redirects: !expected.redirectsOnly,
        assertions: expected.assertions,
      },
    },
    create: safe && server.base !== null && !credentials.needed && !body.missing,
    warnings,
  };
}

/** Path-level parameters, overridden by the operation's of the same name and location; dangling refs warned. */
function mergedParameters(item: Json, operation: Json, warnings: string[]): Json[] {
  const byKey = new Map<string, Json>();
  for (const list of [item.parameters, operation.parameters]) {
    if (!Array.isArray(list)) continue;
    for (const p of list) {
      const missing = unresolvedOf(p);
      if (missing) {
        warnings.push(`the parameter ${missing.ref} ${missing.reason}`);
        continue;
      }
      if (isObject(p) && typeof p.name === 'string') byKey.set(`${String(p.in)}:${p.name}`, p);
    }
  }
  return [...byKey.values()];
}

/** A status assertion from the documented 2xx/3xx responses; none (the default 2xx/3xx rule) when only ranges are. */
function expectedStatuses(
  operation: Json,
  warnings: string[],
): { assertions: Array<Record<string, unknown>>; redirectsOnly: boolean } {
  const documented = isObject(operation.responses) ? operation.responses : {};
  const responses = Object.keys(documented);
  for (const [code, response] of Object.entries(documented)) {
    const missing = unresolvedOf(response);
    if (missing) warnings.push(`the response ${code} ${missing.ref} ${missing.reason}`);
  }
  const codes = responses.filter((c) => /^[23]\d\d$/.test(c)).map(Number);
  if (codes.length === 0) {
    warnings.push('no 2xx or 3xx response is documented: the monitor is up on any 2xx or 3xx');
    return { assertions: [], redirectsOnly: false };
  }
  const redirectsOnly = codes.every((c) => c >= 300);
  const assertion = codes.length === 1 ? { type: 'status', equals: codes[0] } : { type: 'status', in: codes };
  return { assertions: [assertion], redirectsOnly };
}

function uniqueId(operation: Json, method: string, path: string, ids: Map<string, number>, warnings: string[]): string {
  const given =
    typeof operation.operationId === 'string' && operation.operationId !== '' ? operation.operationId : null;
  const base = given ?? `${method.toLowerCase()} ${path}`;
  const seen = ids.get(base) ?? 0;
  ids.set(base, seen + 1);
  if (seen === 0) return base;
  warnings.push(`the operationId "${base}" is used more than once: this one is "${base}_${seen + 1}"`);
  return `${base}_${seen + 1}`;
}

function nameOf(method: string, path: string): string {
  // eslint-disable-next-line no-control-regex -- monitor names refuse control characters
  const name = `${method} ${path}`.replace(/[\u0000-\u001f\u007f]/g, '');
  return name.length <= NAME_MAX ? name : `${name.slice(0, NAME_MAX - 1)}…`;
}
