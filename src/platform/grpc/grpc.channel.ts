import { credentials, type ChannelCredentials } from '@grpc/grpc-js';
import { isIP } from 'node:net';
import { grpcTargetOf, type VettedHost } from '../net/index.ts';

/** Where and how to reach a gRPC server: a vetted address, and the name it was reached by. */
export interface GrpcEndpoint {
  /** Where the connection goes: the vetted address (platform/net's resolveVetted; no rebinding). */
  vetted: VettedHost;
  /** The host as the user wrote it: the authority and TLS server name. */
  host: string;
  port: number;
  tls: boolean;
  /** Accept any certificate (self-signed servers). */
  skipVerify?: boolean;
  /** PEM certificates trusted besides the process's roots. */
  ca?: string | null;
}

export function channelCredentials(endpoint: GrpcEndpoint): ChannelCredentials {
  if (!endpoint.tls) return credentials.createInsecure();
  const ca = endpoint.ca ? Buffer.from(endpoint.ca) : null;
  if (!endpoint.skipVerify) return credentials.createSsl(ca);
  return credentials.createSsl(ca, null, null, { rejectUnauthorized: false, checkServerIdentity: () => undefined });
}

/** The channel target (the vetted address) and the options that keep the original name for authority and TLS. */
export function channelTarget(endpoint: GrpcEndpoint): { target: string; options: Record<string, string | number> } {
  const options: Record<string, string | number> = {
    'grpc.enable_retries': 0,
    'grpc.max_receive_message_length': 4 * 1024 * 1024,
  };
  if (!isIP(endpoint.host)) {
    options['grpc.default_authority'] = `${endpoint.host}:${endpoint.port}`;
    if (endpoint.tls) options['grpc.ssl_target_name_override'] = endpoint.host;
  }
  return { target: grpcTargetOf(endpoint.vetted, endpoint.port), options };
}
