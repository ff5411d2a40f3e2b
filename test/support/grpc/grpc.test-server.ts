/**
 * A real gRPC server for tests: grpc.health.v1 and the tocsin.test.v1.Inventory service (test/support/grpc/
 * inventory.proto), with server reflection v1, v1alpha, both or none, in plaintext or TLS.
 */
import {
  loadPackageDefinition,
  Server,
  ServerCredentials,
  status,
  type ServerDuplexStream,
  type ServiceDefinition,
  type sendUnaryData,
  type ServerUnaryCall,
} from '@grpc/grpc-js';
import { fromJSON, loadSync, type PackageDefinition } from '@grpc/proto-loader';
import { fileURLToPath } from 'node:url';
import descriptor from 'protobufjs/ext/descriptor/index.js';
import { HEALTH_PROTO_JSON } from '../../../src/modules/checks/probes/grpc/grpc.health.ts';
import { decodeProtoFile, reflectionPackage } from '../../../src/platform/grpc/index.ts';

export interface GrpcTestServerOptions {
  reflection: Array<'v1' | 'v1alpha'>;
  tls?: { key: string; cert: string };
  /** What GetItem answers (default: an item named "Widget" for any id but "missing"). */
  getItem?: (request: Record<string, unknown>, metadata: Record<string, unknown>) => { code?: number; item?: object };
}

export interface GrpcTestServer {
  port: number;
  /** Every GetItem request received, with its metadata. */
  calls: Array<{ request: Record<string, unknown>; metadata: Record<string, unknown> }>;
  setServing(serving: 'SERVING' | 'NOT_SERVING'): void;
  close(): Promise<void>;
}

type LoadedService = Record<string, { requestType: { fileDescriptorProtos: Buffer[] } }>;

const LOAD = { keepCase: true, longs: String, enums: String, defaults: true, oneofs: true };

export async function startGrpcTestServer(options: GrpcTestServerOptions): Promise<GrpcTestServer> {
  const inventory = loadSync(fileURLToPath(new URL('./inventory.proto', import.meta.url)), LOAD);
  const health = fromJSON(HEALTH_PROTO_JSON as unknown as Parameters<typeof fromJSON>[0], LOAD);
  const server = new Server();
  const calls: GrpcTestServer['calls'] = [];
  let serving: 'SERVING' | 'NOT_SERVING' = 'SERVING';

  const inventoryService = inventory['tocsin.test.v1.Inventory'] as ServiceDefinition;
  server.addService(inventoryService, {
    GetItem(call: ServerUnaryCall<Record<string, unknown>, object>, callback: sendUnaryData<object>) {
      const metadata = call.metadata.getMap();
      calls.push({ request: call.request, metadata });
      const answer = options.getItem?.(call.request, metadata) ?? defaultItem(call.request);
      if (answer.code !== undefined && answer.code !== Number(status.OK)) {
        callback({ code: answer.code, details: 'refused by the test server' });
        return;
      }
      callback(null, answer.item ?? {});
    },
    WatchItems(call: { end(): void }) {
      call.end();
    },
    UploadItems(_call: unknown, callback: sendUnaryData<object>) {
      callback(null, { count: 0 });
    },
  });
  const healthService = (
    loadPackageDefinition(health) as unknown as {
      grpc: { health: { v1: { Health: { service: ServiceDefinition } } } };
    }
  ).grpc.health.v1.Health.service;
  server.addService(healthService, {
    Check(_call: unknown, callback: sendUnaryData<object>) {
      callback(null, { status: serving });
    },
    Watch(call: { end(): void }) {
      call.end();
    },
  });
  const files = filesOf([inventory, health]);
  const services = ['tocsin.test.v1.Inventory', 'grpc.health.v1.Health'];
  const reflection = reflectionPackage();
  for (const version of options.reflection) {
    const definition = reflection[`grpc.reflection.${version}.ServerReflection`] as ServiceDefinition;
    server.addService(definition, {
      ServerReflectionInfo: (call: ServerDuplexStream<Record<string, unknown>, object>) =>
        serveReflection(call, files, [...services, `grpc.reflection.${version}.ServerReflection`]),
    });
  }
  const credentials = options.tls
    ? ServerCredentials.createSsl(null, [
        { private_key: Buffer.from(options.tls.key), cert_chain: Buffer.from(options.tls.cert) },
      ])
    : ServerCredentials.createInsecure();
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', credentials, (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  return {
    port,
    calls,
    setServing(next) {
      serving = next;
    },
    close: () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())),
  };
}

function defaultItem(request: Record<string, unknown>): { code?: number; item?: object } {
  if (request.id === 'missing') return { code: status.NOT_FOUND };
  return {
    item: {
      id: request.id,
      name: 'Widget',
      colour: 'GREEN',
      stock: '12',
      tags: ['a', 'b'],
      price: { cents: 1999, currency: 'EUR' },
    },
  };
}

/**
 * Every .proto file (serialized) of the packages by name, and the files each symbol needs: the file that defines it
 * first, then the files it depends on (what real servers send; protobufjs-made descriptors do not list imports).
 */
function filesOf(packages: PackageDefinition[]): { byName: Map<string, Buffer>; bySymbol: Map<string, string[]> } {
  const byName = new Map<string, Buffer>();
  const bySymbol = new Map<string, string[]>();
  for (const pkg of packages) {
    for (const definition of Object.values(pkg)) {
      const protos =
        'fileDescriptorProtos' in definition
          ? (definition.fileDescriptorProtos as Buffer[])
          : Object.values(definition as LoadedService).flatMap((m) => m.requestType.fileDescriptorProtos);
      const names = protos.map((raw) => {
        const bytes = asProtocWouldWrite(raw);
        const file = decodeProtoFile(bytes);
        byName.set(file.name, bytes);
        return file.name;
      });
      for (const raw of protos) {
        const file = decodeProtoFile(raw);
        const scope = file.package ? `${file.package}.` : '';
        const needed = [file.name, ...new Set(names.filter((n) => n !== file.name))];
        for (const s of file.service ?? []) bySymbol.set(`${scope}${s.name}`, needed);
        for (const m of file.messageType ?? [])
          if (!bySymbol.has(`${scope}${m.name}`)) bySymbol.set(`${scope}${m.name}`, needed);
      }
    }
  }
  return { byName, bySymbol };
}

/**
 * protobufjs describes a map field's entry type by the field's name (`Weights`) where protoc writes `WeightsEntry`
 * (what readers such as protobufjs's own `fromDescriptor` look for): rename them, as a protoc-built server sends them.
 */
function asProtocWouldWrite(bytes: Buffer): Buffer {
  const Files = descriptor.FileDescriptorProto;
  const file = Files.toObject(Files.decode(bytes)) as { messageType?: DescribedMessage[] };
  const visit = (message: DescribedMessage) => {
    for (const nested of message.nestedType ?? []) {
      if (!nested.options?.mapEntry) continue;
      const field = (message.field ?? []).find((f) => f.typeName === nested.name);
      if (!field) continue;
      const entry = `${field.name.replace(/(^|_)([a-z])/g, (_m, _u, c: string) => c.toUpperCase())}Entry`;
      field.typeName = entry;
      nested.name = entry;
    }
    for (const nested of message.nestedType ?? []) visit(nested);
  };
  for (const message of file.messageType ?? []) visit(message);
  return Buffer.from(Files.encode(Files.fromObject(file)).finish());
}

interface DescribedMessage {
  name: string;
  field?: Array<{ name: string; typeName?: string }>;
  nestedType?: DescribedMessage[];
  options?: { mapEntry?: boolean };
}

function serveReflection(
  call: ServerDuplexStream<Record<string, unknown>, object>,
  files: { byName: Map<string, Buffer>; bySymbol: Map<string, string[]> },
  services: string[],
): void {
  call.on('data', (request: Record<string, unknown>) => {
    const original_request = request;
    if (typeof request.list_services === 'string') {
      call.write({ original_request, list_services_response: { service: services.map((name) => ({ name })) } });
      return;
    }
    const names =
      typeof request.file_by_filename === 'string'
        ? [request.file_by_filename]
        : (files.bySymbol.get(String(request.file_containing_symbol)) ?? []);
    const protos = names.map((n) => files.byName.get(n)).filter((b): b is Buffer => b !== undefined);
    if (protos.length === 0) {
      call.write({ original_request, error_response: { error_code: status.NOT_FOUND, error_message: 'not found' } });
      return;
    }
    call.write({ original_request, file_descriptor_response: { file_descriptor_proto: protos } });
  });
  call.on('end', () => call.end());
}
