/** The standard gRPC health service (grpc.health.v1), defined inline for @grpc/proto-loader `fromJSON`. */
import { loadPackageDefinition, type ServiceClientConstructor } from '@grpc/grpc-js';
import { fromJSON } from '@grpc/proto-loader';

export const HEALTH_PROTO_JSON = {
  nested: {
    grpc: {
      nested: {
        health: {
          nested: {
            v1: {
              nested: {
                HealthCheckRequest: { fields: { service: { type: 'string', id: 1 } } },
                HealthCheckResponse: {
                  fields: { status: { type: 'ServingStatus', id: 1 } },
                  nested: { ServingStatus: { values: { UNKNOWN: 0, SERVING: 1, NOT_SERVING: 2, SERVICE_UNKNOWN: 3 } } },
                },
                Health: {
                  methods: {
                    Check: { requestType: 'HealthCheckRequest', responseType: 'HealthCheckResponse' },
                    Watch: {
                      requestType: 'HealthCheckRequest',
                      responseType: 'HealthCheckResponse',
                      responseStream: true,
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
};

export type ServingStatus = 'UNKNOWN' | 'SERVING' | 'NOT_SERVING' | 'SERVICE_UNKNOWN';

export interface HealthDefinition {
  /** Client constructor for grpc.health.v1.Health. */
  Health: ServiceClientConstructor;
}

/** Builds the Health service definition (call once per registry, not per check). */
export function loadHealthDefinition(): HealthDefinition {
  const pkg = fromJSON(HEALTH_PROTO_JSON as unknown as Parameters<typeof fromJSON>[0], {
    keepCase: true,
    enums: String,
    defaults: true,
  });
  const loaded = loadPackageDefinition(pkg) as unknown as {
    grpc: { health: { v1: { Health: ServiceClientConstructor } } };
  };
  return { Health: loaded.grpc.health.v1.Health };
}
