/**
 * The only raw sockets the product opens to a target: TCP and TLS to an address that {@link resolveVetted} returned,
 * and the gRPC channel target of one.
 * Taking a `VettedHost` (not a host name) is the point: nothing here resolves, so a second DNS answer cannot move the
 * connection (DNS rebinding), and the TLS server name is set apart from the address.
 */
import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions, type TLSSocket } from 'node:tls';
import type { VettedHost } from './host.resolution.ts';

/** TLS settings of a pinned connection: everything but where it goes (host, port, lookup, an existing socket). */
export type PinnedTlsOptions = Omit<ConnectionOptions, 'host' | 'port' | 'lookup' | 'socket' | 'path'>;

/** A TCP connection to exactly the vetted address. */
export function connectTcpTo(vetted: VettedHost, port: number): Socket {
  return netConnect({ host: vetted.address, port });
}

/**
 * A TLS connection to exactly the vetted address; `options.servername` carries the name for SNI and certificate
 * checks (leave it out for an IP target). `options` is taken over, not copied: the check engine's probes call this
 * per check, and a copy would be one allocation more each time.
 */
export function connectTlsTo(vetted: VettedHost, port: number, options: PinnedTlsOptions): TLSSocket {
  const pinned = options as ConnectionOptions;
  pinned.host = vetted.address;
  pinned.port = port;
  return tlsConnect(pinned);
}

/**
 * TLS over a connection {@link connectTcpTo} opened (STARTTLS: SMTP's upgrade after EHLO). The socket already goes to
 * the vetted address, so nothing is resolved; `options.servername` names the host as in {@link connectTlsTo}.
 */
export function startTlsOn(socket: Socket, options: PinnedTlsOptions): TLSSocket {
  const upgraded = options as ConnectionOptions;
  upgraded.socket = socket;
  return tlsConnect(upgraded);
}

/**
 * The gRPC channel target of the vetted address (`ip:port`, `[v6]:port`): grpc-js resolves nothing for an IP target,
 * so the channel cannot be moved by DNS; the name goes in `grpc.default_authority` / `grpc.ssl_target_name_override`.
 */
export function grpcTargetOf(vetted: VettedHost, port: number): string {
  return vetted.family === 6 ? `[${vetted.address}]:${port}` : `${vetted.address}:${port}`;
}
