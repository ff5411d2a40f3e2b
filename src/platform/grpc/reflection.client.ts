import { status, type Client, type ClientDuplexStream, type ServiceError } from '@grpc/grpc-js';
import { decodeProtoFile, type ProtoFile } from './descriptor.files.ts';
import { channelCredentials, channelTarget, type GrpcEndpoint } from './grpc.channel.ts';
import {
  reflectionClients,
  type ReflectionRequest,
  type ReflectionResponse,
  type ReflectionVersion,
} from './reflection.proto.ts';

/** What a server told about itself: its services and the .proto files that define them (raw and decoded). */
export interface ServerReflection {
  version: ReflectionVersion;
  services: string[];
  files: Array<{ bytes: Buffer; file: ProtoFile }>;
}

/** `not_grpc`: something answered on the port, but not HTTP/2 (a web server, a database …). */
export type ReflectionFailure = 'unreachable' | 'unavailable' | 'timeout' | 'protocol' | 'not_grpc';

export class ReflectionError extends Error {
  readonly failure: ReflectionFailure;
  constructor(failure: ReflectionFailure, message: string) {
    super(message);
    this.name = 'ReflectionError';
    this.failure = failure;
  }
}

type Stream = ClientDuplexStream<ReflectionRequest, ReflectionResponse>;

/**
 * Asks the server for its services and their files over reflection v1, then v1alpha when v1 is not implemented.
 * `symbols`: the services (or other symbols) whose files are needed; default every listed service.
 */
export async function reflectServer(
  endpoint: GrpcEndpoint,
  timeoutMs: number,
  symbols?: readonly string[],
): Promise<ServerReflection> {
  const deadline = Date.now() + timeoutMs;
  const clients = reflectionClients();
  let unimplemented = '';
  for (const version of ['v1', 'v1alpha'] as const) {
    const { target, options } = channelTarget(endpoint);
    const client = new clients[version](target, channelCredentials(endpoint), options);
    try {
      return await exchange(client, version, deadline, symbols);
    } catch (error) {
      const code = (error as Partial<ServiceError>).code;
      if (code === status.UNIMPLEMENTED) {
        unimplemented = (error as ServiceError).details;
        continue;
      }
      throw asReflectionError(error, timeoutMs);
    } finally {
      client.close();
    }
  }
  throw new ReflectionError(
    'unavailable',
    `the server does not implement gRPC reflection (v1 or v1alpha)${unimplemented ? `: ${unimplemented}` : ''}`,
  );
}

async function exchange(
  client: Client,
  version: ReflectionVersion,
  deadline: number,
  symbols: readonly string[] | undefined,
): Promise<ServerReflection> {
  const reflection = client as unknown as { ServerReflectionInfo(options: { deadline: number }): Stream };
  const stream = reflection.ServerReflectionInfo({ deadline });
  const ask = askerOf(stream);
  try {
    const listed = await ask({ list_services: '' });
    const services = (listed.list_services_response?.service ?? []).map((s) => s.name);
    const files = new Map<string, { bytes: Buffer; file: ProtoFile }>();
    const addFiles = (response: ReflectionResponse) => {
      for (const bytes of response.file_descriptor_response?.file_descriptor_proto ?? []) {
        const file = decodeProtoFile(bytes);
        if (!files.has(file.name)) files.set(file.name, { bytes: Buffer.from(bytes), file });
      }
    };
    const wanted = symbols ?? services.filter((s) => !s.startsWith('grpc.reflection.'));
    for (const symbol of wanted) {
      const answer = await ask({ file_containing_symbol: symbol });
      if (answer.error_response) {
        if (symbols) throw new ReflectionError('protocol', `${symbol}: ${answer.error_response.error_message}`);
        continue;
      }
      addFiles(answer);
    }
    // A server may send a file without the files it imports: ask for each missing one by name.
    for (let missing = missingOf(files); missing.length > 0; missing = missingOf(files)) {
      for (const name of missing) {
        const answer = await ask({ file_by_filename: name });
        if (answer.error_response)
          throw new ReflectionError('protocol', `${name}: ${answer.error_response.error_message}`);
        addFiles(answer);
        if (!files.has(name)) throw new ReflectionError('protocol', `the server did not send ${name}`);
      }
    }
    return { version, services, files: [...files.values()] };
  } finally {
    stream.end();
    stream.cancel();
  }
}

function missingOf(files: Map<string, { file: ProtoFile }>): string[] {
  const missing = new Set<string>();
  for (const { file } of files.values()) {
    for (const dependency of file.dependency ?? []) if (!files.has(dependency)) missing.add(dependency);
  }
  return [...missing];
}

/** One request, its one response: reflection answers in order on the stream. */
function askerOf(stream: Stream): (request: ReflectionRequest) => Promise<ReflectionResponse> {
  const waiting: Array<{ resolve(r: ReflectionResponse): void; reject(e: unknown): void }> = [];
  let failed: Error | null = null;
  stream.on('data', (response: ReflectionResponse) => waiting.shift()?.resolve(response));
  stream.on('error', (error: Error) => {
    failed = error;
    for (const w of waiting.splice(0)) w.reject(error);
  });
  stream.on('end', () => {
    const ended = new ReflectionError('protocol', 'the server ended the reflection stream');
    failed ??= ended;
    for (const w of waiting.splice(0)) w.reject(ended);
  });
  return (request) =>
    new Promise((resolve, reject) => {
      if (failed) return reject(failed as Error);
      waiting.push({ resolve, reject });
      stream.write(request);
    });
}

function asReflectionError(error: unknown, timeoutMs: number): ReflectionError {
  if (error instanceof ReflectionError) return error;
  const e = error as Partial<ServiceError>;
  if (e.code === status.DEADLINE_EXCEEDED) {
    return new ReflectionError('timeout', `no reflection answer within ${timeoutMs} ms`);
  }
  if (e.code === status.UNAVAILABLE) {
    // grpc-js wraps the cause: "No connection established. Last error: <cause> (<time>). Resolution note: …".
    const details = e.details ?? '';
    const cause = /Last error: (.*?)(?: \([^)]*\))?\. Resolution note/.exec(details)?.[1] ?? details;
    // The HTTP/2 session could not start: the peer answered in another protocol (an HTTP/1.1 server replies to the
    // connection preface with a 400 page).
    if (/protocol error/i.test(cause)) return new ReflectionError('not_grpc', 'did not answer as a gRPC server');
    return new ReflectionError('unreachable', cause || 'the server is unreachable');
  }
  return new ReflectionError(
    'protocol',
    `${status[e.code ?? status.UNKNOWN] ?? e.code}: ${e.details ?? String(error)}`,
  );
}
