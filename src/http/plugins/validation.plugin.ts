import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError, validationFailed, type ErrorDetail } from '../../platform/errors.ts';

type JsonSchema = Record<string, unknown>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The rules a body schema cannot say (a real time zone, a weekly schedule's day, a known scope …), run on a body
     * the schema refused: their problems join the schema's in the one 422, so a client fixes everything at once.
     * They check only the fields of the right type (the schema names the others) and must not write anything.
     * On a body the schema accepts the service applies the same rules itself.
     */
    bodyRules?: (body: Record<string, unknown>, request: FastifyRequest) => ErrorDetail[] | Promise<ErrorDetail[]>;
  }
}

/**
 * The schema's details and those of the route's `bodyRules`, in that order; a field the schema already named is not
 * named again (the schema's word on it is the more basic one).
 */
export async function withBodyRules(request: FastifyRequest, schemaDetails: ErrorDetail[]): Promise<ErrorDetail[]> {
  const rules = request.routeOptions.config.bodyRules;
  const body = request.body;
  if (!rules || typeof body !== 'object' || body === null || Array.isArray(body)) return schemaDetails;
  let more: ErrorDetail[];
  try {
    more = await rules(body as Record<string, unknown>, request);
  } catch (err) {
    // The schema's answer stands on its own: a rule that could not run (a refusal of its own, such as a plan without
    // the feature, or a failure) only leaves its problems for the next try.
    if (!(err instanceof DomainError))
      request.log.warn({ err, reqId: request.id }, 'body rules failed on a refused body');
    return schemaDetails;
  }
  const named = new Set(schemaDetails.map((d) => d.field));
  return [...schemaDetails, ...more.filter((d) => !named.has(d.field))];
}

/**
 * Unknown body fields are rejected (DECISIONS §1): every object schema in a body that does not say
 * otherwise gets `additionalProperties: false`, so no route can forget it.
 */
function closeObjects(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closeObjects);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(schema)) out[k] = closeObjects(v);
  if (out.type === 'object' && out.properties !== undefined && out.additionalProperties === undefined) {
    out.additionalProperties = false;
  }
  // A discriminator tag with a default is optional for clients, but Ajv needs it required: it is filled in before
  // validation (`fillDefaultTag`), so requiring it here changes nothing for them.
  const discriminator = out.discriminator as { propertyName?: unknown; 'x-default'?: unknown } | undefined;
  if (typeof discriminator?.propertyName === 'string' && discriminator['x-default'] !== undefined) {
    const required = Array.isArray(out.required) ? (out.required as string[]) : [];
    if (!required.includes(discriminator.propertyName)) out.required = [...required, discriminator.propertyName];
  }
  return out;
}

function newAjv(coerce: boolean): Ajv.default {
  const ajv = new Ajv.default({
    allErrors: true,
    coerceTypes: coerce ? 'array' : false,
    useDefaults: coerce,
    removeAdditional: false,
    strict: false,
    // A `oneOf` with a `discriminator` (e.g. per-type config) validates only the branch its tag names.
    discriminator: true,
    // Errors carry their schema, so a schema's own `x-issue` text can be reported.
    verbose: true,
  });
  addFormats.default(ajv);
  return ajv;
}

const JSON_MEDIA_TYPE = /^application\/json\s*(;|$)/i;

/**
 * A route that takes a JSON body answers 415 to any other media type. Fastify would otherwise hand a
 * text/plain body to the handler as a string (its built-in parser), which then reads as a 422.
 */
async function requireJsonBody(request: FastifyRequest): Promise<void> {
  if (request.body === undefined) return;
  const type = request.headers['content-type'];
  if (typeof type !== 'string' || !JSON_MEDIA_TYPE.test(type)) {
    throw new DomainError('unsupported_media_type', 'Send the body as application/json.');
  }
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * An API-key action that declares no body (DELETE, pause, test, resend …) refuses one rather than ignoring it
 * and acting: an empty body, `null` or `{}` is fine, anything else is unknown fields (DECISIONS §1).
 */
async function refuseBody(request: FastifyRequest): Promise<void> {
  const body = request.body;
  if (body === undefined || body === null) return;
  const isObject = typeof body === 'object' && !Array.isArray(body);
  if (isObject && Object.keys(body).length === 0) return;
  throw validationFailed(
    isObject
      ? Object.keys(body).map((field) => ({ field, issue: 'is not a known field; this operation takes no body' }))
      : [{ field: 'body', issue: 'must be empty or {}' }],
    'This operation takes no body.',
  );
}

/**
 * For actions that take no body (pause, resume, delete, acknowledge, resolve): an empty one or `{}` is fine,
 * anything else is an unknown field.
 */
export function requireNoBody(body: unknown): void {
  if (body === undefined || body === null) return;
  if (typeof body === 'object' && !Array.isArray(body)) {
    const keys = Object.keys(body);
    if (keys.length === 0) return;
    throw validationFailed(
      keys.map((k) => ({ field: k, issue: 'is not a known field; this operation takes no body' })),
    );
  }
  throw validationFailed([{ field: 'body', issue: 'must be empty or {}' }]);
}

/**
 * A body chosen by a discriminator that names a default tag (`'x-default'`: a monitor's `type` is `http` unless
 * given) gets the tag filled in when absent, so the default's branch is the one validated (Ajv needs the tag).
 */
function fillDefaultTag(schema: JsonSchema, data: unknown): void {
  const discriminator = schema.discriminator as { propertyName?: unknown; 'x-default'?: unknown } | undefined;
  const tag = discriminator?.propertyName;
  const fallback = discriminator?.['x-default'];
  if (typeof tag !== 'string' || fallback === undefined) return;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return;
  const body = data as Record<string, unknown>;
  if (body[tag] === undefined) body[tag] = fallback;
}

/** The app's shared schemas (`app.addSchema`), so a body may `$ref` one (e.g. a monitor's per-type config). */
function addSharedSchemas(ajv: Ajv.default, app: FastifyInstance): void {
  for (const [id, schema] of Object.entries(app.getSchemas() as Record<string, JsonSchema>)) {
    if (!ajv.getSchema(id)) ajv.addSchema(closeObjects(schema) as JsonSchema, id);
  }
}

/** Bodies are validated strictly (no coercion: "5" is not 5); query strings and params are coerced. */
export function installValidation(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (!route.schema?.body) {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      if (route.config?.scope && methods.some((m) => MUTATING.has(m)))
        route.preValidation = [refuseBody, ...(route.preValidation === undefined ? [] : [route.preValidation].flat())];
      return;
    }
    const existing =
      route.preValidation === undefined
        ? []
        : Array.isArray(route.preValidation)
          ? route.preValidation
          : [route.preValidation];
    route.preValidation = [requireJsonBody, ...existing];
  });
  const strict = newAjv(false);
  const coercing = newAjv(true);
  // Compiled on first use: compiling every route's schemas up front made each app start take seconds.
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? strict : coercing;
    let compiled: ValidateFunction | undefined;
    const validate = (data: unknown): boolean => {
      if (!compiled) {
        addSharedSchemas(ajv, app);
        compiled = ajv.compile(closeObjects(schema) as JsonSchema);
      }
      fillDefaultTag(schema as JsonSchema, data);
      const ok = compiled(data);
      validate.errors = compiled.errors ?? null;
      return ok;
    };
    validate.errors = null as ErrorObject[] | null;
    return validate;
  });
}

function pathToField(instancePath: string): string {
  let field = '';
  for (const part of instancePath.split('/').slice(1)) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    field += /^\d+$/.test(key) ? `[${key}]` : field === '' ? key : `.${key}`;
  }
  return field;
}

function join(base: string, key: string): string {
  return base === '' ? key : `${base}.${key}`;
}

/** Turns Ajv errors into `details` with dotted field paths like `config.assertions[0].equals`. */
export function detailsFromAjv(errors: ErrorObject[], prefix = ''): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const seen = new Set<string>();
  const push = (field: string, issue: string) => {
    const key = `${field}|${issue}`;
    if (seen.has(key)) return;
    seen.add(key);
    details.push({ field: field === '' ? prefix || 'body' : prefix ? join(prefix, field) : field, issue });
  };
  // A union of literals fails once per branch: report one "must be one of …" per field instead.
  const constsAt = new Map<string, unknown[]>();
  for (const e of errors) {
    if (e.keyword === 'const')
      constsAt.set(e.instancePath, [...(constsAt.get(e.instancePath) ?? []), e.params.allowedValue]);
  }
  // Union branches produce one error per branch; keep the most useful ones.
  for (const e of errors) {
    const field = pathToField(e.instancePath);
    const schema = e.parentSchema as Record<string, unknown> | undefined;
    // A pattern may name its own issue (e.g. one that means "no control characters").
    const custom = schema?.['x-issue'];
    if (typeof custom === 'string' && e.keyword === 'pattern') {
      push(field, custom);
      continue;
    }
    // A schema may word the issue of any of its keywords (`'x-issues': { minimum: 'must be between 1 and 100' }`).
    const worded = (schema?.['x-issues'] as Record<string, unknown> | undefined)?.[e.keyword];
    const say = (at: string, issue: string) => push(at, typeof worded === 'string' ? worded : issue);
    const allowed = constsAt.get(e.instancePath);
    if (allowed && allowed.length > 1 && (e.keyword === 'const' || e.keyword === 'anyOf' || e.keyword === 'oneOf')) {
      push(field, `must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`);
      continue;
    }
    switch (e.keyword) {
      case 'required':
        say(join(field, String(e.params.missingProperty)), 'is required');
        break;
      case 'additionalProperties':
        say(join(field, String(e.params.additionalProperty)), 'is not a known field');
        break;
      case 'type':
        say(field, `must be ${String(e.params.type).replace(/,/g, ' or ')}`);
        break;
      case 'enum':
        say(field, `must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`);
        break;
      case 'const':
        say(field, `must be ${JSON.stringify(e.params.allowedValue)}`);
        break;
      case 'discriminator': {
        const tags = ((e.parentSchema?.oneOf ?? []) as Array<{ properties?: Record<string, { const?: unknown }> }>)
          .map((branch) => branch.properties?.[String(e.params.tag)]?.const)
          .filter((v) => v !== undefined);
        say(join(field, String(e.params.tag)), `must be one of ${tags.map((v) => JSON.stringify(v)).join(', ')}`);
        break;
      }
      case 'anyOf':
      case 'oneOf':
        if (!errors.some((o) => o !== e && o.instancePath === e.instancePath && o.keyword !== e.keyword)) {
          say(field, 'does not match any allowed shape');
        }
        break;
      case 'minimum':
        say(field, `must be at least ${String(e.params.limit)}`);
        break;
      case 'maximum':
        say(field, `must be at most ${String(e.params.limit)}`);
        break;
      case 'minLength':
        say(
          field,
          Number(e.params.limit) === 1 ? 'must not be empty' : `must be at least ${String(e.params.limit)} characters`,
        );
        break;
      case 'maxLength':
        say(field, `must be at most ${String(e.params.limit)} characters`);
        break;
      case 'uniqueItems':
        // Ajv names the later of the two equal items as `j`: that one is the repeat.
        say(`${field}[${String(e.params.j)}]`, 'is listed twice');
        break;
      case 'format':
        say(field, `must be a valid ${String(e.params.format)}`);
        break;
      default:
        say(field, e.message ?? 'is not valid');
    }
  }
  return oneDetailPerUnion(details, errors, prefix);
}

/**
 * A value that matches no branch of a union fails once per branch ("must be a valid date-time", "must be null"),
 * which reads as a contradiction: say it once per field ("must be a valid date-time or null").
 */
function oneDetailPerUnion(details: ErrorDetail[], errors: ErrorObject[], prefix: string): ErrorDetail[] {
  const unionFields = new Set(
    errors
      .filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf')
      .map((e) => {
        const field = pathToField(e.instancePath);
        return field === '' ? prefix || 'body' : prefix ? join(prefix, field) : field;
      }),
  );
  const merged: ErrorDetail[] = [];
  for (const d of details) {
    if (!unionFields.has(d.field)) {
      merged.push(d);
      continue;
    }
    const first = merged.find((m) => m.field === d.field);
    if (!first) merged.push({ ...d });
    else if (first.issue.startsWith('must be ') && d.issue.startsWith('must be '))
      first.issue = `${first.issue} or ${d.issue.slice('must be '.length)}`;
  }
  return merged;
}
