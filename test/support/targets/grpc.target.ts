/** A gRPC server implementing grpc.health.v1.Health/Check from a status table. */
import {
  Server,
  ServerCredentials,
  status as grpcStatus,
  type ServerUnaryCall,
  type sendUnaryData,
} from '@grpc/grpc-js';
import { loadHealthDefinition, type ServingStatus } from '../../../src/modules/checks/probes/grpc/grpc.health.ts';
import type { Pem } from './certificates.ts';

export interface GrpcHealthServer {
  port: number;
  target: string;
  setStatus(service: string, status: ServingStatus): void;
  close(): Promise<void>;
}

/** `statusByService[""]` is the overall status; an unknown service answers NOT_FOUND, as the health spec says. */
export async function startGrpcHealthServer(
  statusByService: Record<string, ServingStatus>,
  opts: { tls?: Pem } = {},
): Promise<GrpcHealthServer> {
  const statuses = new Map(Object.entries(statusByService));
  const { Health } = loadHealthDefinition();
  const server = new Server();
  server.addService(Health.service, {
    Check: (
      call: ServerUnaryCall<{ service: string }, { status: ServingStatus }>,
      callback: sendUnaryData<{ status: ServingStatus }>,
    ) => {
      const s = statuses.get(call.request.service ?? '');
      if (s === undefined) callback({ code: grpcStatus.NOT_FOUND, details: 'unknown service' });
      else callback(null, { status: s });
    },
    Watch: () => undefined,
  });
  const creds = opts.tls
    ? ServerCredentials.createSsl(
        null,
        [{ private_key: Buffer.from(opts.tls.key), cert_chain: Buffer.from(opts.tls.cert) }],
        false,
      )
    : ServerCredentials.createInsecure();
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', creds, (err, p) => (err ? reject(err) : resolve(p))),
  );
  return {
    port,
    target: `127.0.0.1:${port}`,
    setStatus: (service, status) => {
      statuses.set(service, status);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.forceShutdown();
        resolve();
      }),
  };
}
