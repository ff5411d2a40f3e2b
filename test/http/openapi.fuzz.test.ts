/**
 * Property: for every operation of the served OpenAPI document, a request made invalid in one way (wrong type,
 * out-of-range number, too long or NUL-bearing string, value outside an enum, broken JSON, non-object body,
 * missing or unknown field, bad id, bad query value) and sent with a key that has every scope answers 4xx with
 * the error envelope and X-Request-Id, and changes nothing in the database.
 *
 * Invalid parts are derived from the document itself (so a schema change moves the fuzzing with it), injected
 * into a body that is otherwise valid where one is known (so the one invalid part is what the server must catch).
 * Seeded and bounded: every kind of fault of every operation (each path parameter's bad id, each query parameter's
 * bad value, each body field's and nested field's bad value, broken JSON, unknown and missing fields, the wrong media
 * type …) is sent FUZZ_RUNS times, on every dialect of testDialects(). It drew 250 requests per operation from one
 * mix of all its kinds (15,000 per dialect): the body's share of an operation's draws was split over all its fields,
 * so a field of a large body got a few values or none, while a bad id got dozens. Now each of the 575 kinds gets 8
 * (4,600 requests per dialect), and none is left out.
 * Reproduce a failure with TOCSIN_FUZZ_SEED=<seed> (printed by fast-check) and the same run count.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/modules/auth/index.ts';
import { createTestApp, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { createPerson, signIn, type Browser } from '../support/sessions.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON schemas and documents read back from the API
type Json = Record<string, any>;

const SEED = Number(process.env.TOCSIN_FUZZ_SEED ?? 20_261_123);
const FUZZ_RUNS = Number(process.env.TOCSIN_FUZZ_RUNS ?? 8);
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Tables that record the requests themselves (usage per key, idempotency), not the organization's resources. */
const ACCOUNTING_TABLES = new Set(['api_key_usage', 'idempotency_key']);
/** Columns every authenticated request updates: a key's last use, a runner's last contact. */
const ACCOUNTING_COLUMNS = new Set(['last_used_at', 'last_seen_at']);

interface Operation {
  name: string;
  method: string;
  path: string;
  op: Json;
  pathParams: string[];
  query: Json[];
  body: Json | null;
}

interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
  /** What kind of fault it carries (no values), to group failures. */
  kind: string;
}

// ---------------------------------------------------------------------------------------------------------------
// Schema helpers

function resolve(doc: Json, schema: Json | undefined): Json {
  let s = schema ?? {};
  for (let i = 0; i < 10 && typeof s.$ref === 'string'; i++) {
    const name = (s.$ref as string).replace('#/components/schemas/', '');
    s = doc.components.schemas[name] ?? {};
  }
  return s;
}

/** The branches a value may match: the schema itself, or each member of a top-level anyOf/oneOf (flattened). */
function branches(doc: Json, schema: Json): Json[] {
  const s = resolve(doc, schema);
  const members = (s.anyOf ?? s.oneOf) as Json[] | undefined;
  if (!members) return [s];
  return members.flatMap((m) => branches(doc, m));
}

const JSON_TYPES = ['string', 'number', 'integer', 'boolean', 'null', 'array', 'object'] as const;
type JsonType = (typeof JSON_TYPES)[number];

/** The JSON types a schema admits, or null when it does not say (anything goes). */
function admittedTypes(doc: Json, schema: Json): Set<JsonType> | null {
  const out = new Set<JsonType>();
  for (const b of branches(doc, schema)) {
    const types: unknown[] = Array.isArray(b.type) ? b.type : b.type !== undefined ? [b.type] : [];
    if (types.length === 0) {
      const values: unknown[] = b.const !== undefined ? [b.const] : Array.isArray(b.enum) ? b.enum : [];
      if (values.length === 0) return null;
      for (const v of values) out.add(v === null ? 'null' : Array.isArray(v) ? 'array' : (typeof v as JsonType));
    }
    for (const t of types) out.add(t as JsonType);
  }
  if (out.has('number')) out.add('integer');
  return out;
}

/** Properties of an object schema (merged over its branches) and whether every branch refuses unknown keys. */
function objectShape(doc: Json, schema: Json): { props: Map<string, Json[]>; required: string[]; closed: boolean } {
  const props = new Map<string, Json[]>();
  let closed = true;
  let required: string[] | null = null;
  for (const b of branches(doc, schema)) {
    if (b.type !== 'object' && b.properties === undefined) {
      closed = false;
      continue;
    }
    // Bodies are closed centrally (validation.plugin.ts) unless a schema opens them explicitly.
    if (b.additionalProperties !== undefined && b.additionalProperties !== false) closed = false;
    if (b.properties === undefined) closed = false;
    for (const [k, v] of Object.entries((b.properties ?? {}) as Json)) props.set(k, [...(props.get(k) ?? []), v]);
    const req: string[] = Array.isArray(b.required) ? b.required : [];
    required = required === null ? req : required.filter((r) => req.includes(r));
  }
  return { props, required: required ?? [], closed };
}

// ---------------------------------------------------------------------------------------------------------------
// Arbitraries

/** A value's class, for grouping failures: the same bug shows once, not once per random value. */
function classOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'string') {
    if (v.includes('\u0000')) return 'string with NUL';
    if (v.length > 255) return 'long string';
    return /^[\x20-\x7e]*$/.test(v) ? 'ascii string' : 'unicode string';
  }
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'fraction';
  return typeof v;
}

const nasty = fc.constantFrom(
  '\u0000',
  'a\u0000b',
  '\uD800',
  '\uDFFF lone',
  '\u202Eevil',
  '\uFEFF',
  '🙂'.repeat(40),
  '../../etc/passwd',
  '%00',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '__proto__',
  'constructor',
  ' ',
  '\r\nX-Injected: 1',
);
const anyString = fc.oneof(
  nasty,
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: fc.constantFrom('\u0000', '\u202E', '\uFEFF', 'a', '€', '\uD83D'), maxLength: 20 }),
);
const withNul = fc.tuple(anyString, anyString).map(([a, b]) => `${a}\u0000${b}`);

function valueOfType(type: JsonType): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string':
      return anyString;
    case 'number':
      return fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(1e308, -1e308, 0.5));
    case 'integer':
      return fc.oneof(fc.integer(), fc.constantFrom(Number.MAX_SAFE_INTEGER + 2, -(2 ** 53) - 2));
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 });
    case 'object':
      return fc.dictionary(anyString, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
  }
}

/** Values that no branch of `schema` admits, or null when the schema admits anything. */
function invalidValue(doc: Json, schema: Json): fc.Arbitrary<unknown> | null {
  const admitted = admittedTypes(doc, schema);
  if (admitted === null) return null;
  const options: Array<fc.Arbitrary<unknown>> = [];
  const wrongTypes = JSON_TYPES.filter((t) => !admitted.has(t) && !(t === 'number' && admitted.has('integer')));
  if (wrongTypes.length > 0) options.push(fc.constantFrom(...wrongTypes).chain(valueOfType));
  if (admitted.has('integer') && !admitted.has('number')) options.push(fc.constantFrom(1.5, -0.25, 1e-9));
  const all = branches(doc, schema);
  // Constraints that hold in every branch of this type make a value of the right type invalid too.
  const only = all.length === 1 ? all[0]! : null;
  if (only) {
    if (typeof only.minimum === 'number') options.push(fc.constant(only.minimum - (only.type === 'integer' ? 1 : 0.5)));
    if (typeof only.maximum === 'number') options.push(fc.constant(only.maximum + 1));
    if (only.type === 'string') {
      if (typeof only.maxLength === 'number')
        options.push(anyString.map((s) => s + '\u00e9'.repeat(only.maxLength + 1)));
      if (only.minLength === 1) options.push(fc.constant(''));
      if (only.format === 'date-time') options.push(fc.constantFrom('yesterday', '2026-13-45T25:61:00Z', '0'));
      // DECISIONS §1 / issue 10.4: U+0000 is refused in every string input.
      options.push(withNul);
    }
    if (only.type === 'array' && typeof only.maxItems === 'number')
      options.push(fc.constant(Array.from({ length: only.maxItems + 1 }, (_, i) => `x${i}`)));
    if (only.type === 'array' && only.items) {
      const item = invalidValue(doc, only.items as Json);
      if (item) options.push(item.map((v) => [v]));
    }
  }
  // A union of string literals: any other string.
  const literals = all.flatMap((b) => (b.const !== undefined ? [b.const] : Array.isArray(b.enum) ? b.enum : []));
  if (literals.length > 0 && literals.length === all.length)
    options.push(anyString.filter((s) => !literals.includes(s)));
  return options.length > 0 ? fc.oneof(...options) : null;
}

/** Bodies known to be valid for an operation, so that one injected fault is the only one. */
function validBase(operationId: string, ids: SeededIds): Json {
  switch (operationId) {
    case 'createMonitor':
      return { name: 'fuzz', type: 'http', target: 'https://example.com/health', interval_seconds: 60 };
    case 'createIncident':
      return { title: 'fuzz' };
    case 'createStatusPage':
      return { slug: 'fuzz-page', title: 'Fuzz', monitor_ids: [ids.monitor] };
    case 'createApiKey':
      return { name: 'fuzz', scopes: ['monitors:read'] };
    case 'createServiceAccount':
      return { name: 'fuzz', role: 'member' };
    case 'createDestination':
      return { type: 'email', name: 'fuzz', config: { address: 'ops@example.com' } };
    case 'inviteMember':
      return { email: 'fuzz-invite@example.com' };
    default:
      return {};
  }
}

/** The kinds of fault in a body, one arbitrary each, as JSON text (so keys like __proto__ survive). */
function bodyFaults(
  doc: Json,
  operation: Operation,
  ids: SeededIds,
): Array<fc.Arbitrary<{ text: string; kind: string }>> {
  const schema = operation.body!;
  const path = operation.path;
  const base = validBase(String(operation.op.operationId), ids);
  const shape = objectShape(doc, schema);
  const faults: Array<fc.Arbitrary<{ text: string; kind: string }>> = [
    fc
      .constantFrom('{', '{"a":', '[1,', 'nul', '{"name": "x",}', "{'a': 1}", '{"a":1}{"b":2}', '\u0000', '{"a":"\\u"}')
      .map((text) => ({ text, kind: 'broken JSON' })),
    fc
      .oneof(fc.integer(), anyString, fc.constant(null), fc.boolean(), fc.array(fc.jsonValue({ maxDepth: 1 })))
      // `null` reads as "no body", which an operation without required fields accepts (e.g. rotate: default grace).
      .filter((v) => v !== null || shape.required.length > 0)
      .map((v) => ({ text: JSON.stringify(v), kind: 'not an object' })),
    fc
      .constantFrom(1_100_000, 2_000_000)
      .map((n) => ({ text: JSON.stringify({ ...base, name: 'x'.repeat(n) }), kind: 'body over the limit' })),
  ];
  if (shape.closed) {
    const unknownKey = fc.oneof(
      anyString.filter((k) => !shape.props.has(k) && k !== ''),
      fc.constantFrom('__proto__', 'constructor', 'prototype', 'id', 'organization_id', 'created_at'),
    );
    faults.push(
      fc
        .tuple(
          unknownKey.filter((k) => !shape.props.has(k)),
          fc.jsonValue({ maxDepth: 1 }),
        )
        .map(([k, v]) => ({
          // Spliced into the text: an object literal would turn "__proto__" into a prototype.
          text: `{${JSON.stringify(k)}:${JSON.stringify(v)}${Object.keys(base).length ? ',' : ''}${JSON.stringify(base).slice(1)}`,
          kind: `unknown field ${k === '__proto__' || k === 'constructor' ? k : 'x'}`,
        })),
    );
  }
  if (shape.required.length > 0) {
    faults.push(
      fc.constantFrom(...shape.required).map((k) => {
        const { [k]: _dropped, ...rest } = base;
        return { text: JSON.stringify(rest), kind: `missing ${k}` };
      }),
    );
  }
  for (const [key, schemas] of shape.props) {
    // A key whose schemas differ by branch is only invalid if the value is invalid in each; take the first
    // when they agree, else the types none admits.
    const target = schemas.length === 1 ? schemas[0]! : { anyOf: schemas };
    const bad = invalidValue(doc, target);
    if (bad)
      faults.push(bad.map((v) => ({ text: JSON.stringify({ ...base, [key]: v }), kind: `${key} = ${classOf(v)}` })));
    // One level down (config.*, rate_limits.*): a fault inside a nested object.
    if (schemas.length === 1) {
      const nested = objectShape(doc, schemas[0]!);
      for (const [inner, innerSchemas] of nested.props) {
        const innerBad = invalidValue(doc, innerSchemas.length === 1 ? innerSchemas[0]! : { anyOf: innerSchemas });
        if (!innerBad || nested.props.size === 0) continue;
        faults.push(
          // In a monitor's config, null means "the default" (docs/api.md), whatever the key's schema says.
          (key === 'config' && path.startsWith('/api/v1/monitors') ? innerBad.filter((v) => v !== null) : innerBad).map(
            (v) => ({
              text: JSON.stringify({ ...base, [key]: { ...(base[key] as Json | undefined), [inner]: v } }),
              kind: `${key}.${inner} = ${classOf(v)}`,
            }),
          ),
        );
      }
    }
  }
  return faults;
}

/** Percent-encodes every byte outside the unreserved set (lone surrogates become U+FFFD, as UTF-8 does). */
function encodeSegment(s: string): string {
  return [...Buffer.from(s, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

const badId = fc.oneof(
  anyString.filter((s) => s.length > 0),
  fc.constantFrom(
    'mon_00000000000000000000000000',
    'dst_00000000000000000000000000',
    'inc_00000000000000000000000000',
    'key_00000000000000000000000000',
    'x'.repeat(65),
    'a'.repeat(500),
    '0',
    '-1',
    'null',
    '%',
  ),
);

interface SeededIds {
  monitor: string;
  incident: string;
  statusPage: string;
  destination: string;
  apiKey: string;
  serviceAccount: string;
  user: string;
  /** A runner token of the default region: the runner routes authenticate runners, not API keys. */
  runnerToken: string;
}

/** A real id for a path parameter, when the path names a resource the organization has. */
function realIdFor(path: string, param: string, ids: SeededIds): string | null {
  if (param === 'user_id') return ids.user;
  if (param !== 'id') return null;
  if (path.startsWith('/api/v1/monitors/')) return ids.monitor;
  if (path.startsWith('/api/v1/incidents/')) return ids.incident;
  if (path.startsWith('/api/v1/status-pages/')) return ids.statusPage;
  if (path.startsWith('/api/v1/auth/organization/webhooks/')) return ids.destination;
  if (path.startsWith('/api/v1/api-keys/')) return ids.apiKey;
  if (path.startsWith('/api/v1/service-accounts/')) return ids.serviceAccount;
  return null;
}

/** Query values that the parameter's schema refuses (strings are coerced: types are judged as text). */
function invalidQueryValue(doc: Json, param: Json): fc.Arbitrary<string> | null {
  const s = resolve(doc, param.schema);
  const type = s.type as string | undefined;
  const options: Array<fc.Arbitrary<string>> = [withNul];
  if (type === 'integer' || type === 'number') {
    options.push(fc.constantFrom('abc', '1.5x', '1e400', 'NaN', '--1', '1,2'));
    if (type === 'integer') options.push(fc.constant('1.5'));
    if (typeof s.minimum === 'number') options.push(fc.constant(String(s.minimum - 1)));
    if (typeof s.maximum === 'number') options.push(fc.constant(String(s.maximum + 1)));
  }
  if (type === 'boolean') options.push(fc.constantFrom('maybe', '2', 'yes please'));
  if (type === 'string') {
    if (typeof s.maxLength === 'number') options.push(fc.constant('q'.repeat(s.maxLength + 1)));
    if (s.format === 'date-time') options.push(fc.constantFrom('yesterday', '2026-02-30T00:00:00Z', '1700000000'));
  }
  const literals = branches(doc, s).flatMap((b) => (b.const !== undefined ? [b.const] : (b.enum ?? [])));
  if (literals.length > 0) options.push(anyString.filter((v) => !literals.includes(v)));
  // A cursor is opaque: one the server did not issue must be refused, not read as "from the start".
  if (param.name === 'cursor') options.push(fc.constantFrom('garbage', 'eyJpZCI6Im1vbl8xIn0', '!!!'));
  return fc.oneof(...options);
}

/** An operation about the caller's own browser sessions: called with a session cookie, never a key. */
function sessionOnly(operation: Operation): boolean {
  return JSON.stringify(operation.op.security) === JSON.stringify([{ sessionCookie: [] }]);
}

/** The kinds of fault an operation can be sent (bad id, each query parameter's, each body field's …), one arbitrary each. */
function faultKinds(
  doc: Json,
  operation: Operation,
  ids: SeededIds,
  key: string,
  browser: Browser,
): Array<fc.Arbitrary<FuzzRequest>> {
  const bearer = operation.path.startsWith('/api/v1/runners/') ? ids.runnerToken : key;
  const headers: Record<string, string> = sessionOnly(operation)
    ? { cookie: browser.cookie, 'x-csrf-token': browser.csrf }
    : { authorization: `Bearer ${bearer}` };
  const faults: Array<fc.Arbitrary<FuzzRequest>> = [];
  const canUseRealIds = operation.body !== null || operation.query.length > 0;
  const pathWith = (values: Record<string, string>) =>
    operation.path.replace(/\{([A-Za-z0-9_]+)\}/g, (_m, p: string) => encodeSegment(values[p]!));
  const validPath = (): Record<string, string> | null => {
    const values: Record<string, string> = {};
    for (const p of operation.pathParams) {
      const real = realIdFor(operation.path, p, ids);
      if (real === null) return null;
      values[p] = real;
    }
    return values;
  };
  const realPath = canUseRealIds ? validPath() : null;

  // A bad id in one path parameter (the others real where possible): nothing is found, nothing changes.
  for (const param of operation.pathParams) {
    faults.push(
      badId.map((id) => {
        const values: Record<string, string> = {};
        for (const p of operation.pathParams) values[p] = p === param ? id : (realIdFor(operation.path, p, ids) ?? id);
        const body = operation.body
          ? { payload: JSON.stringify(validBase(String(operation.op.operationId), ids)) }
          : {};
        return {
          method: operation.method,
          url: pathWith(values),
          headers: operation.body ? { ...headers, 'content-type': 'application/json' } : headers,
          ...body,
          kind: `bad ${param}: ${classOf(id)}`,
        };
      }),
    );
  }
  // Path parameters are either all real (so the fault below is what must be caught) or a bad id.
  const pathArb: fc.Arbitrary<Record<string, string>> | null =
    operation.pathParams.length === 0 ? fc.constant({}) : realPath ? fc.constant(realPath) : null;
  if (pathArb && operation.query.length > 0) {
    const perParam = operation.query
      .map((q) => ({ q, bad: invalidQueryValue(doc, q) }))
      .filter((x): x is { q: Json; bad: fc.Arbitrary<string> } => x.bad !== null);
    for (const { q, bad } of perParam) {
      const name = q.name as string;
      faults.push(
        fc.tuple(pathArb, bad).map(([values, v]) => ({
          method: operation.method,
          url: `${pathWith(values)}?${encodeSegment(name)}=${encodeSegment(v)}`,
          headers,
          kind: `query ${name} = ${classOf(v)}`,
        })),
      );
    }
  }
  if (pathArb && operation.body) {
    for (const bodyFault of bodyFaults(doc, operation, ids)) {
      faults.push(
        fc.tuple(pathArb, bodyFault).map(([values, { text, kind }]) => ({
          method: operation.method,
          url: pathWith(values),
          headers: { ...headers, 'content-type': 'application/json' },
          payload: text,
          kind,
        })),
      );
    }
  }
  // An action without a body (pause, acknowledge, test …) is sent one: it must be refused, not ignored.
  const actionPath = operation.body === null && operation.method !== 'GET' ? validPath() : null;
  if (actionPath && operation.pathParams.length > 0) {
    faults.push(
      fc.dictionary(anyString, fc.jsonValue({ maxDepth: 1 }), { minKeys: 1, maxKeys: 2 }).map((extra) => ({
        method: operation.method,
        url: pathWith(actionPath),
        headers: { ...headers, 'content-type': 'application/json' },
        payload: JSON.stringify(extra),
        kind: 'unexpected body on a bodiless action',
      })),
    );
  }
  const keyedPath = operation.pathParams.length === 0 ? {} : validPath();
  const base = operation.body ? JSON.stringify(validBase(String(operation.op.operationId), ids)) : undefined;
  // A body that is not JSON (the right fields, the wrong media type).
  if (keyedPath && base !== undefined) {
    faults.push(
      fc
        .constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'multipart/form-data')
        .map((type) => ({
          method: operation.method,
          url: pathWith(keyedPath),
          headers: { ...headers, 'content-type': type },
          payload: base,
          kind: `body as ${type}`,
        })),
    );
  }
  // A mutating operation that honours Idempotency-Key, with an otherwise valid request and a malformed key: the key
  // is checked before anything runs.
  const idempotent = (operation.op.parameters ?? []).some(
    (p: Json) => p.$ref === '#/components/parameters/IdempotencyKey',
  );
  if (idempotent && keyedPath) {
    faults.push(
      fc.constantFrom('', 'k'.repeat(256), 'clé', 'tab\there', 'new\u0085line').map((key) => ({
        method: operation.method,
        url: pathWith(keyedPath),
        headers: {
          ...headers,
          'idempotency-key': key,
          ...(base !== undefined && { 'content-type': 'application/json' }),
        },
        ...(base !== undefined && { payload: base }),
        kind: 'malformed Idempotency-Key',
      })),
    );
  }
  return faults;
}

// ---------------------------------------------------------------------------------------------------------------

function operationsOf(doc: Json): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths as Json)) {
    for (const [method, op] of Object.entries(item as Json)) {
      if (!METHODS.includes(method)) continue;
      const params = ((op as Json).parameters ?? []) as Json[];
      const body = (op as Json).requestBody?.content?.['application/json']?.schema as Json | undefined;
      out.push({
        name: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        op: op as Json,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name as string),
        query: params.filter((p) => p.in === 'query'),
        body: body ?? null,
      });
    }
  }
  return out;
}

/** Every row of every table but the request accounting, as one digest per table. */
async function snapshot(t: TestApp): Promise<Record<string, string>> {
  const db = t.tocsin.database.tables<unknown>();
  const tables = (await db.introspection.getTables()).map((x) => x.name).filter((n) => !ACCOUNTING_TABLES.has(n));
  const out: Record<string, string> = {};
  for (const table of tables.sort()) {
    const result = await sql<Json>`select * from ${sql.table(table)}`.execute(db);
    const rows = result.rows
      .map((r) =>
        JSON.stringify(
          Object.entries(r)
            .filter(([k]) => !ACCOUNTING_COLUMNS.has(k))
            .sort(([a], [b]) => a.localeCompare(b)),
          (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v),
        ),
      )
      .sort();
    out[table] = `${rows.length}:${createHash('sha256').update(rows.join('\n')).digest('hex').slice(0, 16)}`;
  }
  return out;
}

function envelopeProblems(res: { statusCode: number; headers: Json; body: string }, operation: Operation): string[] {
  const problems: string[] = [];
  if (res.statusCode < 400 || res.statusCode > 499) problems.push(`status ${res.statusCode}`);
  const requestId = res.headers['x-request-id'];
  if (typeof requestId !== 'string' || requestId === '') problems.push('no X-Request-Id');
  // An HTML error page where the document says so (the public status page's 404); JSON everywhere else.
  const documented = operation.op.responses?.[String(res.statusCode)]?.content as Json | undefined;
  if (String(res.headers['content-type']).startsWith('text/html') && documented?.['text/html']) return problems;
  let body: Json;
  try {
    body = JSON.parse(res.body) as Json;
  } catch {
    return [...problems, `body is not JSON: ${res.body.slice(0, 120)}`];
  }
  const error = body?.error as Json | undefined;
  if (!error || typeof error !== 'object' || Object.keys(body).length !== 1) problems.push('not {"error": …}');
  else {
    if (typeof error.code !== 'string' || error.code === '') problems.push('error.code');
    if (typeof error.message !== 'string' || error.message === '') problems.push('error.message');
    if (error.request_id !== requestId) problems.push('error.request_id is not the X-Request-Id');
    const extra = Object.keys(error).filter((k) => !['code', 'message', 'request_id', 'details'].includes(k));
    if (extra.length > 0) problems.push(`error has ${extra.join(', ')}`);
    if (error.details !== undefined) {
      const ok =
        Array.isArray(error.details) &&
        (error.details as Json[]).every((d) => typeof d?.field === 'string' && typeof d?.issue === 'string');
      if (!ok) problems.push('error.details is not [{field, issue}]');
    }
  }
  return problems;
}

for (const dialect of testDialects()) {
  describe(`OpenAPI operations refuse invalid requests and change nothing (${dialect})`, () => {
    let t: TestApp;
    let org: TestOrg;
    let doc: Json;
    let ids: SeededIds;

    beforeAll(async () => {
      t = await createTestApp({ dialect });
      org = await t.createOrg();
      doc = (await t.tocsin.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
      const call = async (method: 'POST', url: string, payload: Json): Promise<Json> => {
        const res = await t.tocsin.app.inject({
          method,
          url,
          headers: { authorization: `Bearer ${org.apiKey}` },
          payload,
        });
        expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
        return res.json();
      };
      const monitor = await call('POST', '/api/v1/monitors', {
        name: 'Seed',
        target: 'https://example.com/',
        interval_seconds: 60,
      });
      ids = {
        monitor: monitor.id,
        incident: (await call('POST', '/api/v1/incidents', { title: 'Seed incident', monitor_id: monitor.id })).id,
        statusPage: (
          await call('POST', '/api/v1/status-pages', { slug: 'seed-page', title: 'Seed', monitor_ids: [monitor.id] })
        ).id,
        destination: (
          await call('POST', '/api/v1/auth/organization/webhooks', {
            type: 'email',
            name: 'Seed',
            config: { address: 'seed@example.com' },
          })
        ).id,
        apiKey: (await call('POST', '/api/v1/api-keys', { name: 'seed', scopes: ['monitors:read'] })).id,
        serviceAccount: (await call('POST', '/api/v1/service-accounts', { name: 'seed', role: 'member' })).id,
        user: org.userId,
        runnerToken: (await t.tocsin.services.checks.runners.createToken(t.config.defaultRegion, 'fuzz')).token,
      };
    }, 60_000);
    afterAll(async () => t?.close());

    it('covers every operation of the document', () => {
      const operations = operationsOf(doc);
      expect(operations.length).toBeGreaterThan(40);
      // Operations with no input at all have nothing to make invalid; they are named here so that one which
      // gains an input is fuzzed (this list then fails).
      const inputless = operations
        .filter((o) => o.pathParams.length === 0 && o.query.length === 0 && o.body === null)
        .map((o) => o.name)
        .sort();
      expect(inputless).toEqual(
        [
          'GET /api/v1/auth/organization',
          'GET /api/v1/auth/organization/members',
          'GET /api/v1/auth/organization/heartbeats',
          'GET /api/v1/auth/setup',
          'GET /api/v1/config/schema.json',
          'GET /api/v1/auth/session',
          'DELETE /api/v1/auth/session',
          'GET /api/v1/auth/sessions',
          // Its one input is the Last-Event-ID header, which the fuzzer does not vary.
          'GET /api/v1/events/stream',
          'GET /api/v1/openapi.json',
          'GET /api/v1/regions',
          'GET /healthz',
          'GET /readyz',
          'POST /api/v1/runners/heartbeat',
        ].sort(),
      );
    });

    it('refuses a body sent to an action that takes none, and does not act', async () => {
      const auth = { authorization: `Bearer ${org.apiKey}`, 'content-type': 'application/json' };
      const before = await snapshot(t);
      for (const [method, url] of [
        ['DELETE', `/api/v1/status-pages/${ids.statusPage}`],
        ['DELETE', `/api/v1/api-keys/${ids.apiKey}`],
        ['DELETE', `/api/v1/service-accounts/${ids.serviceAccount}`],
        ['DELETE', `/api/v1/auth/organization/webhooks/${ids.destination}`],
        ['POST', `/api/v1/auth/organization/members/${ids.user}/resend-verification`],
      ] as const) {
        const res = await t.tocsin.app.inject({ method, url, headers: auth, payload: '{"force": true}' });
        expect(res.statusCode, `${method} ${url}`).toBe(422);
        expect(res.json().error.details).toEqual([
          { field: 'force', issue: 'is not a known field; this operation takes no body' },
        ]);
        const array = await t.tocsin.app.inject({ method, url, headers: auth, payload: '[1]' });
        expect(array.json().error.details).toEqual([{ field: 'body', issue: 'must be empty or {}' }]);
      }
      expect(await snapshot(t)).toEqual(before);
    });

    it('answers JSON nested at any depth with 4xx in the envelope on every operation with a body, and changes nothing', async () => {
      // Sessions' own operations (sign-in, setup) are sent unauthenticated as a browser would; the rest with a key.
      await createPerson(t, org.organizationId, 'owner', 'fuzz-nest@example.com', 'fuzz password 1');
      const browser = await signIn(t, 'fuzz-nest@example.com', 'fuzz password 1');
      const nested = (depth: number, kind: 'array' | 'object'): string =>
        kind === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
      const failures: string[] = [];
      const before = await snapshot(t);
      let sent = 0;
      for (const operation of operationsOf(doc).filter((o) => o.body !== null)) {
        const headers = sessionOnly(operation)
          ? { cookie: browser.cookie, 'x-csrf-token': browser.csrf }
          : { authorization: `Bearer ${operation.path.startsWith('/api/v1/runners/') ? ids.runnerToken : org.apiKey}` };
        const values: Record<string, string> = {};
        for (const p of operation.pathParams) values[p] = realIdFor(operation.path, p, ids) ?? 'x';
        const url = operation.path.replace(/\{([A-Za-z0-9_]+)\}/g, (_m, p: string) => encodeSegment(values[p]!));
        for (const depth of [10, 1_000, 100_000]) {
          for (const kind of ['array', 'object'] as const) {
            sent += 1;
            const res = await t.tocsin.app.inject({
              method: operation.method as 'POST',
              url,
              headers: { ...headers, 'content-type': 'application/json' },
              payload: nested(depth, kind),
            });
            const problems = envelopeProblems(res, operation);
            if (problems.length > 0)
              failures.push(`${operation.name} | ${kind} depth ${depth} | ${problems.join('; ')}`);
          }
        }
      }
      expect(failures).toEqual([]);
      expect(sent).toBeGreaterThan(100);
      expect(await snapshot(t)).toEqual(before);
    }, 120_000);

    it('answers every generated invalid request with 4xx, the envelope and X-Request-Id, and changes nothing', async () => {
      // A key with every scope and the largest budgets, so that no answer is a 429 instead of the real refusal.
      const fuzzKey = await t.tocsin.services.auth.issueKey({
        organizationId: org.organizationId,
        name: 'fuzz',
        scopes: [...SCOPES],
        environments: ['production', 'staging', 'development'],
        rateLimits: { read_per_minute: 100_000, write_per_minute: 100_000, delete_per_minute: 100_000 },
        userId: org.userId,
        createdBy: org.userId,
      });
      // The operations on one's own sessions are called in a session.
      await createPerson(t, org.organizationId, 'owner', 'fuzz-owner@example.com', 'fuzz password 1');
      const browser = await signIn(t, 'fuzz-owner@example.com', 'fuzz password 1');
      /** One entry per operation and kind of fault that failed, with the first example. */
      const failures = new Map<string, string>();
      let sent = 0;
      let kindsSent = 0;
      const statuses = new Set<number>();
      const kindless: string[] = [];
      for (const operation of operationsOf(doc)) {
        if (operation.pathParams.length === 0 && operation.query.length === 0 && operation.body === null) continue;
        const kinds = faultKinds(doc, operation, ids, fuzzKey.key, browser);
        if (kinds.length === 0) kindless.push(operation.name);
        const before = await snapshot(t);
        // Every generated request is sent (no stop at the first failure), so one known failure does not hide others.
        for (const kind of kinds) {
          kindsSent += 1;
          await fc.assert(
            fc.asyncProperty(kind, async (request) => {
              sent += 1;
              const res = await t.tocsin.app.inject({
                method: request.method as 'GET',
                url: request.url,
                headers: request.headers,
                ...(request.payload !== undefined && { payload: request.payload }),
              });
              statuses.add(res.statusCode);
              const problems = envelopeProblems(res, operation);
              if (res.statusCode === 429) problems.push('rate limited instead of refused');
              // The caller may do everything: a 401/403 means the request never reached the fault under test.
              if (res.statusCode === 401 || res.statusCode === 403)
                problems.push(`refused as ${res.statusCode}, not for the fault`);
              if (problems.length === 0) return;
              const kind = `${operation.name} | ${request.kind} | ${problems.join('; ')}`;
              if (!failures.has(kind))
                failures.set(
                  kind,
                  `${request.method} ${request.url.slice(0, 120)} ${JSON.stringify(request.payload?.slice(0, 160) ?? '')} → ` +
                    res.body.slice(0, 160),
                );
            }),
            { seed: SEED, numRuns: FUZZ_RUNS },
          );
        }
        const after = await snapshot(t);
        const changed = Object.keys({ ...before, ...after }).filter((k) => before[k] !== after[k]);
        if (changed.length > 0) failures.set(`${operation.name} | changed ${changed.join(', ')}`, '');
      }
      const report = [...failures].map(([kind, example]) => `${kind}\n    e.g. ${example}`);
      expect(report).toEqual([]);
      expect(kindless).toEqual([]);
      // Every kind of fault of every operation was sent FUZZ_RUNS times.
      expect(sent).toBe(kindsSent * FUZZ_RUNS);
      expect(kindsSent).toBeGreaterThan(300);
      console.log(`openapi fuzz: ${kindsSent} kinds of fault, ${sent} requests`);
      // The faults reach every layer: parser (400), routing and lookup (404), size (413), media type (415), schema
      // and domain validation (422).
      expect([400, 404, 413, 415, 422].filter((status) => !statuses.has(status))).toEqual([]);
    }, 180_000);
  });
}
