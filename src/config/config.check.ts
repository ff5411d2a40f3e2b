import type { TSchema } from '@sinclair/typebox';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { newAjv, type AjvInstance } from '../platform/schema/index.ts';

type SchemaNode = Record<string, unknown>;

/** One refused value: the key that names it, what the key allows and what was given (already redacted). */
export interface ConfigProblem {
  key: string;
  allowed: string;
  got: unknown;
}

/** A URL that does not parse may still carry a password before its `@`. */
export function withoutUserinfo(raw: unknown): unknown {
  if (typeof raw !== 'string' || !raw.includes('@')) return raw;
  const scheme = /^[a-z][a-z0-9+.-]*:\/*/i.exec(raw)?.[0] ?? '';
  return `${scheme}[redacted]@${raw.slice(raw.lastIndexOf('@') + 1)}`;
}

/** The schema one step down: a named property, the schema of the other properties, or an array's items. */
function childOf(node: SchemaNode, segment: string): SchemaNode | undefined {
  const properties = node.properties as Record<string, SchemaNode> | undefined;
  if (properties && Object.hasOwn(properties, segment)) return properties[segment];
  if (typeof node.additionalProperties === 'object') return node.additionalProperties as SchemaNode;
  if (typeof node.items === 'object' && /^\d+$/.test(segment)) return node.items as SchemaNode;
  return undefined;
}

function valueAt(value: unknown, segments: string[]): unknown {
  let at = value;
  for (const s of segments) at = (at as Record<string, unknown>)[s];
  return at;
}

/**
 * The problem a validator error stands for, in the file's words: the deepest key on the error's path whose schema
 * says what it allows (`x-allowed`), or, for an unknown key, that key and what its object knows (`x-unknown`).
 */
function problemOf(root: SchemaNode, error: ErrorObject, value: unknown, prefix: string[]): ConfigProblem {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  let node = root;
  let reached = 0;
  let named = { depth: 0, node: root };
  for (const segment of segments) {
    const next = childOf(node, segment);
    if (!next) break;
    node = next;
    reached++;
    if (typeof node['x-allowed'] === 'string') named = { depth: reached, node };
  }
  if (error.keyword === 'additionalProperties' && reached === segments.length) {
    const extra = String(error.params.additionalProperty);
    const known = Object.keys((node.properties as SchemaNode | undefined) ?? {});
    return {
      key: [...prefix, ...segments, extra].join('.'),
      allowed: typeof node['x-unknown'] === 'string' ? node['x-unknown'] : `a known key (${known.join(', ')})`,
      got: extra,
    };
  }
  const path = segments.slice(0, named.depth);
  const got = valueAt(value, path);
  const redact = named.node['x-redact'];
  return {
    key: typeof named.node['x-key'] === 'string' ? named.node['x-key'] : [...prefix, ...path].join('.'),
    allowed: typeof named.node['x-allowed'] === 'string' ? named.node['x-allowed'] : 'a valid value',
    got: redact === 'all' ? '<redacted>' : redact === 'userinfo' ? withoutUserinfo(got) : got,
  };
}

/**
 * Compiled validators by schema. The schemas are constants and a compiled validator is a pure function of its
 * schema, so one compilation serves every load (compiling the file's schema takes far longer than checking a file).
 */
const compiled = new WeakMap<TSchema, ValidateFunction>();
let ajv: AjvInstance | undefined;

function validatorOf(schema: TSchema): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    ajv ??= newAjv({ coerce: false, allErrors: false });
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

/**
 * The first problem of `value` under `schema` with the routes' validator, or null. `key` names the value itself
 * (a variable such as REDIS_URL); without it the value is the file and its keys name the problem.
 */
export function configProblem(schema: TSchema, value: unknown, key?: string): ConfigProblem | null {
  const validate = validatorOf(schema);
  if (validate(value)) return null;
  const problem = problemOf(schema as SchemaNode, validate.errors![0]!, value, key === undefined ? [] : [key]);
  return key !== undefined && problem.key === '' ? { ...problem, key } : problem;
}
