import type { FastifyInstance } from 'fastify';
import fastJson from 'fast-json-stringify';

type Serializer = (data: unknown) => string;

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
        const external = { ...(app.getSchemas() as Record<string, fastJson.Schema>) };
        if (typeof s.$id === 'string') delete external[s.$id];
        compiled = fastJson(schema as fastJson.Schema, { schema: external }) as Serializer;
      }
      return compiled(data);
    };
  });
}
