import { unresolvedOf, type OpenApiDocument } from './openapi.document.ts';
import { documentedExample, sampleOfSchema } from './openapi.values.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What HTTP monitors send at most (docs/monitors.md). */
export const BODY_MAX_CHARS = 65_536;

export interface RequestBody {
  /** null: the operation takes no body, or none could be built (then `warnings` say why). */
  body: string | null;
  contentType: string | null;
  warnings: string[];
  /** True when the operation needs a body that could not be built. */
  missing: boolean;
}

const NONE: RequestBody = { body: null, contentType: null, warnings: [], missing: false };

/** The body to send: a documented example where there is one, else one shaped like the schema (with a warning). */
export function requestBodyOf(api: OpenApiDocument, operation: Json, parameters: Json[]): RequestBody {
  if (api.version === 'swagger_2.0') return swaggerBody(api, operation, parameters);
  const requestBody = operation.requestBody;
  const missing = unresolvedOf(requestBody);
  if (missing) return { ...NONE, missing: true, warnings: [`the request body ${missing.ref} ${missing.reason}`] };
  if (!isObject(requestBody) || !isObject(requestBody.content)) return NONE;
  const types = Object.keys(requestBody.content);
  const chosen =
    types.find((t) => /^application\/(.+\+)?json\b/i.test(t)) ??
    types.find((t) => /^application\/x-www-form-urlencoded\b/i.test(t)) ??
    types.find((t) => /^text\//i.test(t)) ??
    types[0];
  if (chosen === undefined) return NONE;
  const media = requestBody.content[chosen];
  return encoded(chosen, isObject(media) ? media : {}, requestBody.required === true);
}

function swaggerBody(api: OpenApiDocument, operation: Json, parameters: Json[]): RequestBody {
  const bodyParameter = parameters.find((p) => p.in === 'body');
  const consumes = [operation.consumes, api.doc.consumes].find((c) => Array.isArray(c) && c.length > 0) as
    string[] | undefined;
  if (bodyParameter) {
    const type = consumes?.find((t) => /json/i.test(t)) ?? consumes?.[0] ?? 'application/json';
    return encoded(
      type,
      { schema: bodyParameter.schema, ...exampleOf(bodyParameter) },
      bodyParameter.required === true,
    );
  }
  const form = parameters.filter((p) => p.in === 'formData');
  if (form.length === 0) return NONE;
  const properties = Object.fromEntries(form.map((p) => [String(p.name), p]));
  if (form.some((p) => p.type === 'file')) {
    return {
      ...NONE,
      missing: true,
      warnings: ['the operation uploads a file (multipart), which monitors do not send'],
    };
  }
  return encoded('application/x-www-form-urlencoded', { schema: { type: 'object', properties } }, true);
}

function exampleOf(parameter: Json): Json {
  const schema = isObject(parameter.schema) ? parameter.schema : {};
  const example = documentedExample(parameter) ?? documentedExample(schema);
  return example ? { example: example.value } : {};
}

function encoded(contentType: string, media: Json, required: boolean): RequestBody {
  const warnings: string[] = [];
  if (/^multipart\//i.test(contentType)) {
    return { ...NONE, missing: required, warnings: ['the request body is multipart, which monitors do not send'] };
  }
  const documented = documentedExample(media);
  let value: unknown;
  if (documented) {
    value = documented.value;
  } else {
    const sample = sampleOfSchema(media.schema);
    value = sample.value;
    for (const ref of sample.unresolved) warnings.push(`the body schema uses ${ref}, which was not followed`);
    warnings.push('the request body was built from the schema (no example given): check its values');
  }
  const text = bodyText(contentType, value);
  if (text.length > BODY_MAX_CHARS) {
    return {
      ...NONE,
      missing: true,
      warnings: [...warnings, `the request body is longer than ${BODY_MAX_CHARS} characters`],
    };
  }
  return { body: text, contentType, warnings, missing: false };
}

function bodyText(contentType: string, value: unknown): string {
  if (typeof value === 'string' && !/json/i.test(contentType)) return value;
  if (/^application\/x-www-form-urlencoded\b/i.test(contentType) && isObject(value)) {
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(value)) form.append(k, typeof v === 'string' ? v : JSON.stringify(v));
    return form.toString();
  }
  return JSON.stringify(value ?? null);
}
