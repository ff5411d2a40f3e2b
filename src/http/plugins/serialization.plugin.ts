import type { FastifyInstance } from 'fastify';
import fastJson from 'fast-json-stringify';

type Serializer = (data: unknown) => string;

/**
 * For serializing only, two shapes get a cheaper equivalent (same JSON for every valid value):
 * - a union of string literals (TypeBox `Union([Literal('a'), …])`, i.e. `anyOf: [{const: 'a'}, …]`) becomes
 *   `{type: 'string', enum: [...]}`: fast-json-stringify would otherwise run one Ajv validator per branch to
 *   pick the branch (two of those per monitor were ~5 % of a read's CPU), and every branch writes the same
 *   JSON string;
 * - an open object without properties (a monitor's `config`) becomes `{}`, one JSON.stringify of the value,
 *   instead of a loop calling JSON.stringify per key (~4 % of a read). Not at the top of a schema, where
 *   fast-json-stringify's handling of a missing body differs from JSON.stringify's.
 * Returns copies; the route schemas (validation, OpenAPI) are untouched.
 */
export function simplifyForSerializing(schema: unknown, nested = false): unknown {
  if (Array.isArray(schema)) return schema.map((s) => simplifyForSerializing(s, true));
  if (typeof schema !== 'object' || schema === null) return schema;
  const s = schema as Record<string, unknown>;
  if (
    nested &&
    s.type === 'object' &&
    s.additionalProperties === true &&
    (s.properties === undefined || Object.keys(s.properties as object).length === 0) &&
    s.patternProperties === undefined &&
    s.required === undefined
  ) {
    const { type: _type, additionalProperties: _additional, properties: _properties, ...rest } = s;
    return rest;
  }
  const branches = s.anyOf;
  if (
    Array.isArray(branches) &&
    branches.length > 0 &&
    branches.every((b) => typeof (b as { const?: unknown } | null)?.const === 'string')
  ) {
    const { anyOf: _anyOf, ...rest } = s;
    return { ...rest, type: 'string', enum: branches.map((b) => (b as { const: string }).const) };
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s)) out[k] = simplifyForSerializing(v, true);
  return out;
}

/**
 * Response serializers built from the route schemas, compiled on first use rather than at start
 * (each route declares a dozen responses; compiling them all made every start take seconds).
 * Error envelopes are rare and small, so plain JSON.stringify serves them.
 */
export function installSerialization(app: FastifyInstance): void {
  app.setSerializerCompiler(({ schema }) => {
    const s = schema as Record<string, unknown>;
    if (s.$ref === 'ErrorEnvelope#' || s.$ref === 'ErrorEnvelope') return (data: unknown) => JSON.stringify(data);
    let compiled: Serializer | undefined;
    return (data: unknown) => {
      if (!compiled) {
        const external: Record<string, fastJson.Schema> = {};
        for (const [id, value] of Object.entries(app.getSchemas() as Record<string, fastJson.Schema>)) {
          if (id !== s.$id) external[id] = simplifyForSerializing(value) as fastJson.Schema;
        }
        compiled = fastJson(simplifyForSerializing(schema) as fastJson.Schema, { schema: external }) as Serializer;
      }
      return compiled(data);
    };
  });
}
