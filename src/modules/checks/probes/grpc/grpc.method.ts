/**
 * A grpc monitor with `config.method`: calls that unary method with `config.request` and `config.metadata`, using the
 * descriptors the server gives by reflection, and judges the status code and the response (JSON-path assertions).
 */
import { Client, Metadata, status as grpcStatus, type ServiceError } from '@grpc/grpc-js';
import { loadFileDescriptorSetFromBuffer, type MethodDefinition, type PackageDefinition } from '@grpc/proto-loader';
import {
  channelCredentials,
  channelTarget,
  descriptorSetOf,
  entriesToMaps,
  indexTypes,
  mapsToEntries,
  reflectServer,
  ReflectionError,
  resolveTypeName,
  type GrpcEndpoint,
  type TypeIndex,
} from '../../../../platform/grpc/index.ts';
import { evaluateAssertions } from '../../assertions/index.ts';
import type { ProbeError } from '../probe.contract.ts';
import type { Outcome, ProbeRun } from '../probe.run.ts';

/** Descriptors are asked again after this long, so a server's new version is seen. */
const DESCRIPTORS_TTL_MS = 10 * 60_000;
const CACHE_MAX = 1000;
const LOAD = { keepCase: true, longs: String, enums: String, bytes: String, defaults: true, oneofs: true, json: true };

export interface MethodCall {
  /** `package.Service/Method` */
  method: string;
  request: Record<string, unknown>;
  metadata: Record<string, string>;
  /** The gRPC status name that counts as up (default OK). */
  expectedStatus: string;
  assertions: Array<Record<string, unknown>>;
}

interface Descriptors {
  loadedAt: number;
  pkg: PackageDefinition;
  types: TypeIndex;
  /** Input and output type names of each `package.Service/Method`. */
  methods: Map<string, { input: string; output: string }>;
}

/** The method caller of one probe registry: its descriptor cache lives as long as the registry. */
export function createGrpcMethodCaller(now: () => number = Date.now) {
  const cache = new Map<string, Descriptors>();

  async function descriptorsOf(endpoint: GrpcEndpoint, service: string, timeoutMs: number, fresh: boolean) {
    const key = `${endpoint.host}:${endpoint.port}|${endpoint.tls}|${endpoint.skipVerify === true}|${service}`;
    const cached = cache.get(key);
    if (!fresh && cached && now() - cached.loadedAt < DESCRIPTORS_TTL_MS) return cached;
    const reflection = await reflectServer(endpoint, timeoutMs, [service]);
    const pkg = loadFileDescriptorSetFromBuffer(descriptorSetOf(reflection.files.map((f) => f.bytes)), LOAD);
    const files = reflection.files.map((f) => f.file);
    const methods = new Map<string, { input: string; output: string }>();
    for (const file of files) {
      const scope = file.package ? `.${file.package}` : '';
      for (const s of file.service ?? []) {
        for (const m of s.method ?? []) {
          methods.set(`${scope.slice(1)}${scope ? '.' : ''}${s.name}/${m.name}`, {
            input: m.inputType,
            output: m.outputType,
          });
        }
      }
    }
    const descriptors: Descriptors = { loadedAt: now(), pkg, types: indexTypes(files), methods };
    cache.delete(key);
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
    cache.set(key, descriptors);
    return descriptors;
  }

  async function definitionOf(endpoint: GrpcEndpoint, call: MethodCall, timeoutMs: number) {
    const [service = '', name = ''] = call.method.split('/');
    for (const fresh of [false, true]) {
      const descriptors = await descriptorsOf(endpoint, service, timeoutMs, fresh);
      const definition = (descriptors.pkg[service] as Record<string, MethodDefinition<object, object>> | undefined)?.[
        name
      ];
      const types = descriptors.methods.get(call.method);
      if (definition && types) {
        const scope = `.${service.slice(0, Math.max(0, service.lastIndexOf('.')))}`;
        return {
          definition,
          types: descriptors.types,
          input: resolveTypeName(descriptors.types, types.input, scope),
          output: resolveTypeName(descriptors.types, types.output, scope),
        };
      }
    }
    return null;
  }

  return async function callMethod(
    endpoint: GrpcEndpoint,
    call: MethodCall,
    timeoutMs: number,
    run: ProbeRun,
  ): Promise<Outcome> {
    let found: Awaited<ReturnType<typeof definitionOf>>;
    try {
      found = await run.race(definitionOf(endpoint, call, timeoutMs));
    } catch (error) {
      if (error instanceof ReflectionError) {
        return failure('grpc_error', `the method's descriptors could not be read by reflection: ${error.message}`);
      }
      throw error;
    }
    if (!found) return failure('grpc_error', `the server has no method ${call.method}`);
    const { definition, types, input, output } = found;
    if (definition.requestStream || definition.responseStream) {
      return failure('grpc_error', `${call.method} is a streaming method; only unary methods can be monitored`);
    }
    let payload: Buffer;
    try {
      payload = definition.requestSerialize(mapsToEntries(call.request, input, types) as object);
    } catch (error) {
      return failure('grpc_error', `config.request does not fit ${call.method}'s request: ${(error as Error).message}`);
    }
    const { target, options } = channelTarget(endpoint);
    const client = new Client(target, channelCredentials(endpoint), options);
    try {
      const metadata = new Metadata();
      for (const [key, value] of Object.entries(call.metadata)) metadata.set(key, value);
      const result = await new Promise<{ error: ServiceError | null; response?: object }>((resolve) => {
        const pending = client.makeUnaryRequest(
          definition.path,
          () => payload,
          definition.responseDeserialize,
          call.request,
          metadata,
          { deadline: Date.now() + timeoutMs },
          (error, response) => resolve({ error, response }),
        );
        run.onAbort(() => pending.cancel());
      });
      if (run.abortReason) throw run.abortReason;
      const response = result.response === undefined ? undefined : entriesToMaps(result.response, output, types);
      return verdictOf(call, { error: result.error, response: response as object | undefined }, run.elapsed());
    } finally {
      client.close();
    }
  };
}

function verdictOf(
  call: MethodCall,
  result: { error: ServiceError | null; response?: object },
  elapsed: number,
): Outcome {
  const code = result.error ? result.error.code : grpcStatus.OK;
  const statusName = grpcStatus[code] ?? String(code);
  const details = { grpc_status: statusName, method: call.method };
  if (statusName !== call.expectedStatus) {
    const reason = result.error ? `${statusName}: ${result.error.details}` : statusName;
    return { ...failure('grpc_error', `status ${reason}, expected ${call.expectedStatus}`), details };
  }
  const body = result.response === undefined ? undefined : JSON.stringify(result.response);
  const assertions = evaluateAssertions(call.assertions, { status: 200, headers: {}, body, duration_ms: elapsed });
  const failed = assertions.filter((a) => !a.passed);
  const error: ProbeError | null =
    failed.length === 0
      ? null
      : { code: 'assertion_failed', message: `${failed.length} of ${assertions.length} assertions failed` };
  return { error, assertions: assertions as Outcome['assertions'], details, duration_ms: elapsed };
}

function failure(code: ProbeError['code'], message: string): Outcome {
  return { error: { code, message } };
}
