/** A TCP listener, and a port that refuses connections. */
import { createServer, type AddressInfo, type Socket } from 'node:net';

export interface TcpTarget {
  port: number;
  target: string;
  connections(): number;
  /** Silent target: the connections still open (a probe that gave up must have closed its own). */
  open?(): number;
  close(): Promise<void>;
}

export async function startTcpTarget(host = '127.0.0.1'): Promise<TcpTarget> {
  const sockets = new Set<Socket>();
  let count = 0;
  const server = createServer((s) => {
    count++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => undefined);
    s.end();
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    target: `${host}:${port}`,
    connections: () => count,
    open: () => sockets.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A port on 127.0.0.1 that nothing listens on (bound then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A TCP server that accepts connections and never answers (for timeouts). */
export async function startSilentTarget(host = '127.0.0.1'): Promise<TcpTarget> {
  const sockets = new Set<Socket>();
  let count = 0;
  const server = createServer((s) => {
    count++;
    sockets.add(s);
    s.on('error', () => undefined);
    s.on('close', () => sockets.delete(s));
    // Reads (and ignores) what arrives, so a client's close is seen (`open()`); it still never answers.
    s.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    target: `${host}:${port}`,
    connections: () => count,
    open: () => sockets.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
