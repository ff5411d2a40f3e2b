/** Local HTTP and HTTPS servers on 127.0.0.1 random ports for probe tests. */
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Pem } from './certificates.ts';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface RunningTarget {
  port: number;
  /** `http(s)://127.0.0.1:port` */
  url: string;
  close(): Promise<void>;
}

const okHandler: Handler = (_req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end('ok');
};

async function listen(server: Server, scheme: string, host: string): Promise<RunningTarget> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `${scheme}://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function startHttpTarget(handler: Handler = okHandler, host = '127.0.0.1'): Promise<RunningTarget> {
  return listen(createHttpServer(handler), 'http', host);
}

export function startHttpsTarget(
  opts: { cert: Pem; chain?: string[] },
  handler: Handler = okHandler,
  host = '127.0.0.1',
): Promise<RunningTarget> {
  const cert = [opts.cert.cert, ...(opts.chain ?? [])].join('\n');
  return listen(createHttpsServer({ key: opts.cert.key, cert }, handler), 'https', host);
}
