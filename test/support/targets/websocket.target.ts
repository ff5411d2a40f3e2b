/**
 * A minimal RFC 6455 server for the websocket probe (written here rather than adding the `ws` package): by path,
 * `/echo` echoes text messages, `/greet` sends "hello from tocsin" at once, `/ping-first` pings then greets,
 * `/silent` upgrades and never sends, `/forbidden` refuses the upgrade with 403, `/bad-accept` answers a wrong
 * Sec-WebSocket-Accept, `/close` closes with 1008. Over TLS when given a certificate.
 */
import { createHash } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { Pem } from './certificates.ts';

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC11B65';

export interface WebSocketTarget {
  port: number;
  /** `ws://127.0.0.1:<port>` or `wss://…` (no path). */
  url: string;
  /** The upgrade requests seen (their headers, lower-case names). */
  requests: Array<{ path: string; headers: IncomingMessage['headers'] }>;
  /** Text messages the server received. */
  received: string[];
  close(): Promise<void>;
}

function frame(opcode: number, payload: Buffer): Buffer {
  const len = payload.length;
  const head =
    len < 126 ? Buffer.from([0x80 | opcode, len]) : Buffer.from([0x80 | opcode, 126, (len >> 8) & 0xff, len & 0xff]);
  return Buffer.concat([head, payload]);
}

/** Reads the client's masked frames; calls `onFrame` for each (payload unmasked). */
function readFrames(socket: Socket, onFrame: (opcode: number, payload: Buffer) => void): void {
  let buffer = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      if (buffer.length < 2) return;
      let len = buffer[1]! & 0x7f;
      let offset = 2;
      if (len === 126) {
        if (buffer.length < 4) return;
        len = buffer.readUInt16BE(2);
        offset = 4;
      } else if (len === 127) {
        if (buffer.length < 10) return;
        len = Number(buffer.readBigUInt64BE(2));
        offset = 10;
      }
      const masked = (buffer[1]! & 0x80) !== 0;
      const total = offset + (masked ? 4 : 0) + len;
      if (buffer.length < total) return;
      const mask = masked ? buffer.subarray(offset, offset + 4) : null;
      const payload = Buffer.from(buffer.subarray(total - len, total));
      if (mask) for (let i = 0; i < payload.length; i++) payload[i] = payload[i]! ^ mask[i & 3]!;
      const opcode = buffer[0]! & 0x0f;
      buffer = buffer.subarray(total);
      onFrame(opcode, payload);
    }
  });
}

export async function startWebSocketTarget(options: { cert?: Pem } = {}): Promise<WebSocketTarget> {
  const requests: WebSocketTarget['requests'] = [];
  const received: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = options.cert
    ? createHttpsServer({ key: options.cert.key, cert: options.cert.cert })
    : createHttpServer();
  server.on('request', (_req, res) => {
    res.writeHead(426, { 'content-type': 'text/plain' }).end('upgrade required');
  });
  server.on('upgrade', (req: IncomingMessage, socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    requests.push({ path: req.url ?? '/', headers: req.headers });
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/forbidden') {
      socket.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 9\r\nconnection: close\r\n\r\nforbidden');
      return;
    }
    const key = String(req.headers['sec-websocket-key'] ?? '');
    const accept =
      path === '/bad-accept'
        ? 'AAAAAAAAAAAAAAAAAAAAAAAAAAA='
        : createHash('sha1')
            .update(key + GUID)
            .digest('base64');
    const protocol = req.headers['sec-websocket-protocol'];
    socket.write(
      'HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: Upgrade\r\n' +
        `sec-websocket-accept: ${accept}\r\n` +
        (protocol ? `sec-websocket-protocol: ${String(protocol).split(',')[0]!.trim()}\r\n` : '') +
        '\r\n',
    );
    if (path === '/greet') socket.write(frame(0x1, Buffer.from('hello from tocsin')));
    if (path === '/ping-first') {
      socket.write(frame(0x9, Buffer.from('are you there')));
      // Fragmented: "hello " + "in parts".
      socket.write(Buffer.concat([Buffer.from([0x01, 6]), Buffer.from('hello ')]));
      socket.write(Buffer.concat([Buffer.from([0x80, 8]), Buffer.from('in parts')]));
    }
    if (path === '/close') socket.write(frame(0x8, Buffer.from([0x03, 0xf0, ...Buffer.from('policy')])));
    readFrames(socket, (opcode, payload) => {
      if (opcode === 0x1) {
        received.push(payload.toString('utf8'));
        if (path === '/echo') socket.write(frame(0x1, payload));
      } else if (opcode === 0xa) received.push(`pong:${payload.toString('utf8')}`);
      else if (opcode === 0x8) socket.end(frame(0x8, payload));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `${options.cert ? 'wss' : 'ws'}://127.0.0.1:${port}`,
    requests,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
