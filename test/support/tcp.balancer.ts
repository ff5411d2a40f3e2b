/**
 * A minimal TCP load balancer for multi-process tests: each client connection goes to the next backend in turn, and
 * to the one after when that backend refuses the connection (a killed process), as any load balancer in front of
 * several `tocsin serve` would do. Bytes are piped as they come; either side closing closes the other.
 */
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

export interface TcpBalancer {
  url: string;
  /** Sets the backends (ports on 127.0.0.1) new connections go to. */
  setBackends(ports: number[]): void;
  close(): Promise<void>;
}

export async function startTcpBalancer(initial: number[] = []): Promise<TcpBalancer> {
  let backends = [...initial];
  let next = 0;
  const open = new Set<Socket>();
  const server = createServer((client) => {
    open.add(client);
    client.on('close', () => open.delete(client));
    client.on('error', () => client.destroy());
    client.pause();
    const tryBackend = (attempt: number) => {
      if (attempt >= backends.length) {
        client.destroy();
        return;
      }
      const port = backends[next++ % backends.length]!;
      const upstream = connect(port, '127.0.0.1');
      open.add(upstream);
      upstream.on('close', () => open.delete(upstream));
      let connected = false;
      upstream.once('connect', () => {
        connected = true;
        client.pipe(upstream);
        upstream.pipe(client);
        client.resume();
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      upstream.on('error', () => {
        if (!connected) tryBackend(attempt + 1);
        else client.destroy();
      });
    };
    tryBackend(0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    setBackends: (ports) => {
      backends = [...ports];
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => resolve());
      }),
  };
}
