import type { OpenApiDocument } from './openapi.document.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Credentials an operation needs, as placeholders the user replaces before the monitor can pass. */
export interface Credentials {
  headers: Record<string, string>;
  query: Record<string, string>;
  cookies: Record<string, string>;
  warnings: string[];
  /** True when a placeholder stands where a real secret must go. */
  needed: boolean;
}

/**
 * The operation's security (its own `security`, else the document's): the first requirement's schemes become
 * placeholder headers, query parameters or cookies (`<token>`), each with a warning to fill it in.
 */
export function credentialsOf(api: OpenApiDocument, operation: Json): Credentials {
  const out: Credentials = { headers: {}, query: {}, cookies: {}, warnings: [], needed: false };
  const requirements = Array.isArray(operation.security) ? operation.security : api.doc.security;
  if (!Array.isArray(requirements) || requirements.length === 0) return out;
  // `{}` among the alternatives means the operation may also be called without credentials.
  if (requirements.some((r) => isObject(r) && Object.keys(r).length === 0)) return out;
  const first = requirements[0];
  if (!isObject(first)) return out;
  if (requirements.length > 1) {
    out.warnings.push(`the first of ${requirements.length} alternative security requirements was used`);
  }
  const schemes = schemesOf(api);
  for (const name of Object.keys(first)) {
    const scheme = schemes[name];
    if (!isObject(scheme)) {
      out.warnings.push(`the security scheme "${name}" is not defined`);
      continue;
    }
    applyScheme(out, name, scheme);
  }
  return out;
}

function schemesOf(api: OpenApiDocument): Json {
  if (api.version === 'swagger_2.0') return isObject(api.doc.securityDefinitions) ? api.doc.securityDefinitions : {};
  const components = api.doc.components;
  return isObject(components) && isObject(components.securitySchemes) ? components.securitySchemes : {};
}

function applyScheme(out: Credentials, name: string, scheme: Json): void {
  const type = scheme.type;
  const placeholder = `<${name}>`;
  const fill = (where: string) => {
    out.needed = true;
    out.warnings.push(`${where} holds a placeholder for the "${name}" credential: replace it before enabling`);
  };
  if (type === 'apiKey' && typeof scheme.name === 'string') {
    if (scheme.in === 'header') out.headers[scheme.name] = placeholder;
    else if (scheme.in === 'query') out.query[scheme.name] = placeholder;
    else if (scheme.in === 'cookie') out.cookies[scheme.name] = placeholder;
    fill(`the ${String(scheme.in)} "${scheme.name}"`);
    return;
  }
  if (type === 'basic' || (type === 'http' && String(scheme.scheme).toLowerCase() === 'basic')) {
    out.headers.Authorization = 'Basic <base64 of user:password>';
    fill('the Authorization header');
    return;
  }
  if (type === 'http') {
    const httpScheme = typeof scheme.scheme === 'string' ? scheme.scheme : 'Bearer';
    const label = httpScheme.toLowerCase() === 'bearer' ? 'Bearer' : httpScheme;
    out.headers.Authorization = `${label} <token>`;
    fill('the Authorization header');
    return;
  }
  if (type === 'oauth2' || type === 'openIdConnect') {
    out.headers.Authorization = 'Bearer <access token>';
    fill('the Authorization header');
    return;
  }
  if (type === 'mutualTLS') {
    out.needed = true;
    out.warnings.push(`"${name}" needs a client certificate, which HTTP monitors do not send`);
    return;
  }
  out.warnings.push(`the security scheme "${name}" (${String(type)}) is not supported`);
}
