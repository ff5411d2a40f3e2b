import type { TSchema } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { JsonSerializerSpec } from '../../../modules/reports/index.ts';
import { simplifyForSerializing } from '../../plugins/serialization.plugin.ts';

/**
 * The input of a route's response serializer for `schema` (as installSerialization compiles it), made on first use:
 * the report worker compiles the same fast-json-stringify code from it, so a report's JSON is the bytes the route's
 * own serializer would write, written off the main thread.
 */
export function jsonSpecOf(app: FastifyInstance, schema: TSchema): () => JsonSerializerSpec {
  let spec: JsonSerializerSpec | undefined;
  return () => {
    if (spec) return spec;
    const external: Record<string, unknown> = {};
    for (const [id, value] of Object.entries(app.getSchemas() as Record<string, unknown>)) {
      if (id !== schema.$id) external[id] = simplifyForSerializing(value);
    }
    spec = { schema: simplifyForSerializing(schema) as Record<string, unknown>, external };
    return spec;
  };
}
