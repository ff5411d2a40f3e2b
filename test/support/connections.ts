/**
 * Records where client sockets of this process were about to connect, and stops them there: a test can then assert
 * which address a connection would have reached (e.g. the vetted public address, never loopback).
 * A socket that looks a name up is stopped right after the lookup, before any packet leaves; a socket given an
 * address is stopped as soon as its connection attempt starts (Node cannot be stopped inside that event).
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';

export interface ConnectionRecorder {
  /** Addresses client sockets tried to reach, in order. */
  readonly addresses: string[];
  stop(): void;
}

const stopped = (): Error => Object.assign(new Error('stopped by the test'), { code: 'ETESTSTOPPED' });

export function stopConnectionsAfterLookup(): ConnectionRecorder {
  const addresses: string[] = [];
  const onSocket = (message: unknown): void => {
    const { socket } = message as { socket: Socket };
    socket.once('lookup', (err: Error | null, address: string) => {
      if (err) return;
      addresses.push(address);
      socket.destroy(stopped());
    });
    socket.once('connectionAttempt', (address: string) => {
      addresses.push(address);
      setImmediate(() => socket.destroy(stopped()));
    });
  };
  subscribe('net.client.socket', onSocket);
  return { addresses, stop: () => unsubscribe('net.client.socket', onSocket) };
}
