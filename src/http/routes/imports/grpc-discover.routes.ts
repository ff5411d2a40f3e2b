import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { GrpcDiscovery } from '../../../modules/imports/index.ts';

const tags = ['monitors'];

const GrpcDiscoverBody = Type.Object(
  {
    target: Type.String({ minLength: 1, maxLength: 512, description: 'host:port of the gRPC server.' }),
    tls: Type.Boolean({ description: 'Connect with TLS.' }),
    tls_skip_verify: Type.Optional(
      Type.Boolean({ default: false, description: 'Accept any certificate (self-signed servers).' }),
    ),
    timeout_ms: Type.Optional(
      Type.Integer({ minimum: 100, maximum: 60_000, default: 10_000, description: 'For the whole discovery.' }),
    ),
  },
  { additionalProperties: false },
);

const DiscoveredMethod = Type.Object({
  name: Type.String(),
  input_type: Type.String({ description: 'Full message name, e.g. pkg.v1.GetItemRequest.' }),
  output_type: Type.String(),
  client_streaming: Type.Boolean(),
  server_streaming: Type.Boolean(),
  request_template: Type.Object(
    {},
    {
      additionalProperties: true,
      description:
        'A request with every field at its zero value (field names as in the .proto file): a starting point ' +
        'for a grpc monitor’s config.request.',
    },
  ),
});

const GrpcDiscoverResult = Type.Object(
  {
    services: Type.Array(
      Type.Object({ name: Type.String({ description: 'Full service name.' }), methods: Type.Array(DiscoveredMethod) }),
    ),
  },
  { $id: 'GrpcDiscoverResult', title: 'GrpcDiscoverResult' },
);

/** POST /monitors/grpc/discover (DECISIONS §9, docs/imports.md). */
export function registerGrpcDiscoverRoutes(app: FastifyInstance, deps: { discovery: GrpcDiscovery }): void {
  app.addSchema(GrpcDiscoverResult);
  app.post<{ Body: Static<typeof GrpcDiscoverBody> }>(
    '/api/v1/monitors/grpc/discover',
    {
      config: { scope: 'monitors:create' },
      schema: {
        tags,
        summary: 'List the services and methods of a gRPC server (reflection)',
        description:
          'Server reflection v1, or v1alpha when v1 is not implemented. 422 target_unreachable when the server ' +
          'cannot be reached, reflection_unavailable when it has no reflection service.',
        operationId: 'discoverGrpc',
        body: GrpcDiscoverBody,
        response: { 200: Type.Ref(GrpcDiscoverResult) },
      },
    },
    async (request) => deps.discovery.discover(request.body),
  );
}
