/**
 * The gRPC server reflection protocol (grpc.reflection.v1 and its older twin v1alpha: the same messages under two
 * package names), defined inline for @grpc/proto-loader `fromJSON`.
 */
import { loadPackageDefinition, type ServiceClientConstructor } from '@grpc/grpc-js';
import { fromJSON } from '@grpc/proto-loader';

const MESSAGES = {
  ServerReflectionRequest: {
    oneofs: {
      message_request: {
        oneof: [
          'file_by_filename',
          'file_containing_symbol',
          'file_containing_extension',
          'all_extension_numbers_of_type',
          'list_services',
        ],
      },
    },
    fields: {
      host: { type: 'string', id: 1 },
      file_by_filename: { type: 'string', id: 3 },
      file_containing_symbol: { type: 'string', id: 4 },
      file_containing_extension: { type: 'ExtensionRequest', id: 5 },
      all_extension_numbers_of_type: { type: 'string', id: 6 },
      list_services: { type: 'string', id: 7 },
    },
  },
  ExtensionRequest: {
    fields: { containing_type: { type: 'string', id: 1 }, extension_number: { type: 'int32', id: 2 } },
  },
  ServerReflectionResponse: {
    oneofs: {
      message_response: {
        oneof: [
          'file_descriptor_response',
          'all_extension_numbers_response',
          'list_services_response',
          'error_response',
        ],
      },
    },
    fields: {
      valid_host: { type: 'string', id: 1 },
      original_request: { type: 'ServerReflectionRequest', id: 2 },
      file_descriptor_response: { type: 'FileDescriptorResponse', id: 4 },
      all_extension_numbers_response: { type: 'ExtensionNumberResponse', id: 5 },
      list_services_response: { type: 'ListServiceResponse', id: 6 },
      error_response: { type: 'ErrorResponse', id: 7 },
    },
  },
  FileDescriptorResponse: { fields: { file_descriptor_proto: { rule: 'repeated', type: 'bytes', id: 1 } } },
  ExtensionNumberResponse: {
    fields: {
      base_type_name: { type: 'string', id: 1 },
      extension_number: { rule: 'repeated', type: 'int32', id: 2 },
    },
  },
  ListServiceResponse: { fields: { service: { rule: 'repeated', type: 'ServiceResponse', id: 1 } } },
  ServiceResponse: { fields: { name: { type: 'string', id: 1 } } },
  ErrorResponse: { fields: { error_code: { type: 'int32', id: 1 }, error_message: { type: 'string', id: 2 } } },
  ServerReflection: {
    methods: {
      ServerReflectionInfo: {
        requestType: 'ServerReflectionRequest',
        requestStream: true,
        responseType: 'ServerReflectionResponse',
        responseStream: true,
      },
    },
  },
};

export type ReflectionVersion = 'v1' | 'v1alpha';

export interface ReflectionRequest {
  host?: string;
  file_by_filename?: string;
  file_containing_symbol?: string;
  list_services?: string;
}

export interface ReflectionResponse {
  file_descriptor_response?: { file_descriptor_proto: Buffer[] } | null;
  list_services_response?: { service: Array<{ name: string }> } | null;
  error_response?: { error_code: number; error_message: string } | null;
  message_response?: string;
}

/** The reflection service's package definition (both versions), e.g. to serve reflection in a test server. */
export function reflectionPackage(): ReturnType<typeof fromJSON> {
  const json = {
    nested: {
      grpc: {
        nested: { reflection: { nested: { v1: { nested: MESSAGES }, v1alpha: { nested: MESSAGES } } } },
      },
    },
  };
  return fromJSON(json as unknown as Parameters<typeof fromJSON>[0], {
    keepCase: true,
    longs: String,
    enums: String,
    defaults: true,
    oneofs: true,
  });
}

/** Client constructors of both versions. */
export function reflectionClients(): Record<ReflectionVersion, ServiceClientConstructor> {
  const loaded = loadPackageDefinition(reflectionPackage()) as unknown as {
    grpc: { reflection: Record<ReflectionVersion, { ServerReflection: ServiceClientConstructor }> };
  };
  return { v1: loaded.grpc.reflection.v1.ServerReflection, v1alpha: loaded.grpc.reflection.v1alpha.ServerReflection };
}
