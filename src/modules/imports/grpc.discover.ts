import { DomainError, validationFailed } from '../../platform/errors.ts';
import {
  indexTypes,
  reflectServer,
  ReflectionError,
  type GrpcEndpoint,
  type ServerReflection,
} from '../../platform/grpc/index.ts';
import {
  PrivateTargetError,
  createOutboundConnector,
  type NetworkPolicy,
  type OutboundConnector,
} from '../../platform/net/index.ts';
import { requestTemplate } from './grpc.request-template.ts';

export interface GrpcDiscoverInput {
  target: string;
  tls: boolean;
  tls_skip_verify?: boolean;
  timeout_ms?: number;
}

export interface DiscoveredMethod {
  name: string;
  input_type: string;
  output_type: string;
  client_streaming: boolean;
  server_streaming: boolean;
  request_template: Record<string, unknown>;
}

export interface DiscoveredService {
  name: string;
  methods: DiscoveredMethod[];
}

const DEFAULT_TIMEOUT_MS = 10_000;
const HOST_PORT = /^(?:\[([0-9a-fA-F:.]+)\]|([^\s:[\]/]+)):(\d{1,5})$/;

/** `host:port` (IPv6 in brackets), the form a grpc monitor's target takes. */
export function parseGrpcTarget(target: string): { host: string; port: number } {
  const match = HOST_PORT.exec(target.trim());
  const port = match ? Number(match[3]) : 0;
  if (!match || port < 1 || port > 65_535) {
    throw validationFailed([{ field: 'target', issue: 'must be host:port' }]);
  }
  return { host: match[1] ?? match[2]!, port };
}

/**
 * Services and methods of a gRPC server by reflection (DECISIONS §9), each method with a request template built from
 * its descriptors. The target passes the same private-address rule as monitor targets, and the connection goes to
 * the address that was vetted.
 */
export class GrpcDiscovery {
  private readonly connector: OutboundConnector;
  constructor(policy: NetworkPolicy) {
    this.connector = createOutboundConnector(policy);
  }

  async discover(input: GrpcDiscoverInput): Promise<{ services: DiscoveredService[] }> {
    const { host, port } = parseGrpcTarget(input.target);
    const timeoutMs = input.timeout_ms ?? DEFAULT_TIMEOUT_MS;
    let vetted;
    try {
      vetted = await this.connector.vet(host);
    } catch (error) {
      if (error instanceof PrivateTargetError) throw validationFailed([{ field: 'target', issue: error.message }]);
      throw new DomainError('target_unreachable', `Could not resolve ${host}.`);
    }
    const endpoint: GrpcEndpoint = {
      vetted,
      host,
      port,
      tls: input.tls,
      skipVerify: input.tls_skip_verify === true,
    };
    let reflection: ServerReflection;
    try {
      reflection = await reflectServer(endpoint, timeoutMs);
    } catch (error) {
      if (!(error instanceof ReflectionError)) throw error;
      if (error.failure === 'unavailable') throw new DomainError('reflection_unavailable', capitalised(error.message));
      if (error.failure === 'not_grpc')
        throw new DomainError(
          'target_unreachable',
          `The server at ${input.target} did not answer as a gRPC server (it speaks HTTP/1.1 or another protocol, ` +
            'e.g. a web server); check the port and the tls setting.',
        );
      throw new DomainError('target_unreachable', `${input.target} could not be reached: ${error.message}.`);
    }
    return { services: servicesOf(reflection) };
  }
}

function servicesOf(reflection: ServerReflection): DiscoveredService[] {
  const files = reflection.files.map((f) => f.file);
  const types = indexTypes(files);
  const out: DiscoveredService[] = [];
  for (const file of files) {
    const scope = file.package ? `${file.package}.` : '';
    for (const service of file.service ?? []) {
      const name = `${scope}${service.name}`;
      if (name.startsWith('grpc.reflection.')) continue;
      out.push({
        name,
        methods: (service.method ?? []).map((m) => ({
          name: m.name,
          input_type: m.inputType.replace(/^\./, ''),
          output_type: m.outputType.replace(/^\./, ''),
          client_streaming: m.clientStreaming === true,
          server_streaming: m.serverStreaming === true,
          request_template: requestTemplate(m.inputType, types),
        })),
      });
    }
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

function capitalised(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}
