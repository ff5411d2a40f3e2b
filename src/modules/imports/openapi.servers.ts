import type { OpenApiDocument } from './openapi.document.ts';
import { scalarText } from './openapi.values.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface ServerChoice {
  /** Absolute base URL without a trailing slash, or null when the description only gives a relative one. */
  base: string | null;
  warnings: string[];
}

/**
 * The base URL of an operation: `base_url` when given (it replaces the description's servers); else the first of the
 * operation's, path item's or document's `servers` (3.x) with its variables at their defaults, or Swagger 2.0's
 * scheme, host and basePath.
 */
export function serverOf(
  api: OpenApiDocument,
  pathItem: Json,
  operation: Json,
  baseUrl: string | undefined,
): ServerChoice {
  if (baseUrl !== undefined) return { base: trimSlash(baseUrl), warnings: [] };
  return api.version === 'swagger_2.0' ? swaggerServer(api.doc) : openApiServer(api.doc, pathItem, operation);
}

function openApiServer(doc: Json, pathItem: Json, operation: Json): ServerChoice {
  const warnings: string[] = [];
  const servers = [operation.servers, pathItem.servers, doc.servers].find((s) => Array.isArray(s) && s.length > 0) as
    unknown[] | undefined;
  const first = servers?.[0];
  if (!isObject(first) || typeof first.url !== 'string') {
    return { base: null, warnings: ['the description names no server: pass base_url'] };
  }
  if (servers!.length > 1) warnings.push(`the first of ${servers!.length} servers was used (${first.url})`);
  const variables = isObject(first.variables) ? first.variables : {};
  const url = first.url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const variable = variables[name];
    if (isObject(variable) && variable.default !== undefined) return scalarText(variable.default);
    if (isObject(variable) && Array.isArray(variable.enum) && variable.enum.length > 0)
      return scalarText(variable.enum[0]);
    warnings.push(`the server variable {${name}} has no default`);
    return whole;
  });
  if (!/^https?:\/\//i.test(url)) {
    return { base: null, warnings: [...warnings, `the server URL "${url}" is not absolute: pass base_url`] };
  }
  return { base: trimSlash(url), warnings };
}

function swaggerServer(doc: Json): ServerChoice {
  const warnings: string[] = [];
  if (typeof doc.host !== 'string' || doc.host === '') {
    return { base: null, warnings: ['the description names no host: pass base_url'] };
  }
  const schemes = Array.isArray(doc.schemes) ? doc.schemes.filter((s): s is string => typeof s === 'string') : [];
  const scheme = schemes.includes('https') ? 'https' : (schemes.find((s) => s === 'http') ?? 'https');
  if (schemes.length === 0) warnings.push('the description names no scheme: https was assumed');
  const basePath = typeof doc.basePath === 'string' ? doc.basePath : '';
  return { base: trimSlash(`${scheme}://${doc.host}${basePath}`), warnings };
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
