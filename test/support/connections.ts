/**
 * Records where client sockets of this process were about to connect, and stops them right after the address
 * lookup, before any packet leaves: a test can then assert which address a connection would have reached
 * (e.g. the vetted public address, never loopback) without touching the network.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';

export interface ConnectionRecorder {
  /** Addresses the lookups of client sockets answered, in order. */
  readonly addresses: string[];
  stop(): void;
}

export function stopConnectionsAfterLookup(): ConnectionRecorder {
  const addresses: string[] = [];
  const onSocket = (message: unknown): void => {
    const { socket } = message as { socket: Socket };
    socket.once('lookup', (err: Error | null, address: string) => {
      if (!err) addresses.push(address);
      socket.destroy(Object.assign(new Error('stopped by the test after lookup'), { code: 'ETESTSTOPPED' }));
    });
  };
  subscribe('net.client.socket', onSocket);
  return { addresses, stop: () => unsubscribe('net.client.socket', onSocket) };
}
