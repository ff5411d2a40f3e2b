import type { ErrorObject, ValidateFunction } from 'ajv';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError, validationFailed, type ErrorDetail } from '../../platform/errors.ts';
import { newAjv, type AjvInstance } from '../../platform/schema/index.ts';

/** The error details of a refused schema live with the validator (src/platform/schema): routes import them here. */
export { detailsFromAjv } from '../../platform/schema/index.ts';

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

const JSON_MEDIA_TYPE = /^application\/json\s*(;|$)/i;
const FORM_MEDIA_TYPE = /^application\/x-www-form-urlencoded\s*(;|$)/i;

/**
 * A route that takes a JSON body answers 415 to any other media type. Fastify would otherwise hand a
 * text/plain body to the handler as a string (its built-in parser), which then reads as a 422.
 */
async function requireJsonBody(request: FastifyRequest): Promise<void> {
  if (request.body === undefined) return;
  const type = request.headers['content-type'];
  if (typeof type === 'string' && request.routeOptions.config.formBody && FORM_MEDIA_TYPE.test(type)) return;
  if (typeof type !== 'string' || !JSON_MEDIA_TYPE.test(type)) {
    throw new DomainError('unsupported_media_type', 'Send the body as application/json.');
  }
}

/** requireJsonBody for a route that also takes an HTML form (a public page's form without script). */
async function requireJsonOrFormBody(request: FastifyRequest): Promise<void> {
  if (request.body === undefined) return;
  const type = request.headers['content-type'];
  if (typeof type !== 'string' || !(JSON_MEDIA_TYPE.test(type) || FORM_MEDIA_TYPE.test(type))) {
    throw new DomainError('unsupported_media_type', 'Send the body as application/json or as an HTML form.');
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

/**
 * The app's shared schemas (`app.addSchema`), so a body may `$ref` one (e.g. a monitor's per-type config). Added, not
 * compiled: Ajv compiles a schema when something refers to it. (`ajv.getSchema(id)` as the presence test compiled
 * every shared schema at the app's first validated request: seconds of CPU under load, 7 % of a heartbeat bench run.)
 */
function addSharedSchemas(ajv: AjvInstance, app: FastifyInstance): void {
  for (const [id, schema] of Object.entries(app.getSchemas() as Record<string, JsonSchema>)) {
    if (ajv.schemas[id] === undefined && ajv.refs[id] === undefined)
      ajv.addSchema(closeObjects(schema) as JsonSchema, id);
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
    route.preValidation = [route.config?.formBody ? requireJsonOrFormBody : requireJsonBody, ...existing];
  });
  const strict = newAjv({ coerce: false });
  const coercing = newAjv({ coerce: true });
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
