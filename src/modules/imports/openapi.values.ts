import { unresolvedOf } from './openapi.document.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A value for a parameter or a body, and whether it was made up rather than documented. */
export interface Sample {
  value: unknown;
  guessed: boolean;
  /** `$ref`s met on the way that could not be followed. */
  unresolved: string[];
}

const documented = (value: unknown): Sample => ({ value, guessed: false, unresolved: [] });

/** The first documented value of an object that may carry `example`, `examples` (3.x map or 3.1 array) or `x-example`. */
export function documentedExample(node: unknown): { value: unknown } | null {
  if (!isObject(node)) return null;
  if (node.example !== undefined) return { value: node.example };
  if (node['x-example'] !== undefined) return { value: node['x-example'] };
  const examples = node.examples;
  if (Array.isArray(examples) && examples.length > 0) return { value: examples[0] };
  if (isObject(examples)) {
    for (const e of Object.values(examples)) {
      if (isObject(e) && e.value !== undefined) return { value: e.value };
    }
  }
  return null;
}

/**
 * A parameter's value: its example, its schema's example, default, first enum value or const (documented), else
 * a plausible value of its type and format (guessed). Swagger 2.0 parameters carry type/enum/default themselves.
 */
export function parameterSample(parameter: Json): Sample {
  const own = documentedExample(parameter);
  if (own) return documented(own.value);
  const schema = isObject(parameter.schema) ? parameter.schema : parameter;
  const fromSchema = schemaDocumentedValue(schema);
  if (fromSchema) return documented(fromSchema.value);
  return sampleOfSchema(schema);
}

function schemaDocumentedValue(schema: Json): { value: unknown } | null {
  const example = documentedExample(schema);
  if (example) return example;
  if (schema.default !== undefined) return { value: schema.default };
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return { value: schema.enum[0] };
  if (schema.const !== undefined) return { value: schema.const };
  return null;
}

const MAX_DEPTH = 8;
const MAX_PROPERTIES = 50;

/**
 * A value shaped like the schema: documented values where the schema has them, plausible ones elsewhere. Cycles (a
 * `$ref` left in place by the dereference, or the same schema object met again on the path) stop with null.
 */
export function sampleOfSchema(schema: unknown): Sample {
  const unresolved: string[] = [];
  let guessed = false;
  const path = new Set<object>();
  const walk = (node: unknown, depth: number): unknown => {
    const missing = unresolvedOf(node);
    if (missing) {
      unresolved.push(missing.ref);
      return null;
    }
    if (!isObject(node)) {
      guessed = true;
      return null;
    }
    if (typeof node.$ref === 'string' || path.has(node) || depth > MAX_DEPTH) return null;
    const known = schemaDocumentedValue(node);
    if (known) return known.value;
    path.add(node);
    try {
      return shaped(node, depth);
    } finally {
      path.delete(node);
    }
  };
  const shaped = (node: Json, depth: number): unknown => {
    if (Array.isArray(node.allOf)) {
      const parts = node.allOf.map((s) => walk(s, depth + 1));
      if (parts.every((p) => isObject(p))) return Object.assign({}, ...parts);
      return parts.find((p) => p !== null) ?? null;
    }
    for (const key of ['oneOf', 'anyOf'] as const) {
      const options = node[key];
      if (Array.isArray(options) && options.length > 0) return walk(options[0], depth + 1);
    }
    guessed = true;
    const type = Array.isArray(node.type) ? node.type.find((t) => t !== 'null') : node.type;
    if (type === 'object' || (type === undefined && isObject(node.properties))) {
      const out: Json = {};
      const properties = isObject(node.properties) ? node.properties : {};
      for (const [name, s] of Object.entries(properties).slice(0, MAX_PROPERTIES)) {
        // A request body leaves out what the server fills in.
        if (isObject(s) && s.readOnly === true) continue;
        out[name] = walk(s, depth + 1);
      }
      return out;
    }
    if (type === 'array') return node.items === undefined ? [] : [walk(node.items, depth + 1)];
    return scalarOf(type, node);
  };
  const value = walk(schema, 0);
  return { value, guessed, unresolved };
}

function scalarOf(type: unknown, schema: Json): unknown {
  const format = typeof schema.format === 'string' ? schema.format : '';
  switch (type) {
    case 'integer':
      return typeof schema.minimum === 'number' ? Math.ceil(schema.minimum) : 1;
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1.5;
    case 'boolean':
      return true;
    case 'string':
      return STRING_FORMATS[format] ?? 'example';
    default:
      return null;
  }
}

const STRING_FORMATS: Record<string, string> = {
  'date-time': '2026-01-01T00:00:00Z',
  date: '2026-01-01',
  time: '00:00:00Z',
  email: 'user@example.com',
  uuid: '00000000-0000-4000-8000-000000000000',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  byte: 'ZXhhbXBsZQ==',
  password: 'password',
};

/** A scalar (or list of scalars) as it goes into a URL path or query (RFC 3986 percent-encoded). */
export function urlText(value: unknown): string {
  if (Array.isArray(value)) return value.map(urlText).join(',');
  return encodeURIComponent(scalarText(value));
}

/** A documented value as text: objects as JSON, nothing as empty. */
export function scalarText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value as string | number | boolean | bigint);
}
