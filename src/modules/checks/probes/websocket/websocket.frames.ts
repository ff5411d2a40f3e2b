/**
 * The client side of RFC 6455 a check needs: the upgrade request and its accept key, masked frames out, and a reader
 * of the server's frames that assembles the first data message (control frames handled between fragments).
 */
import { createHash, randomBytes } from 'node:crypto';
import { ProbeFailure } from '../probe.net.ts';

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC11B65';
export const OP_CONTINUATION = 0x0;
export const OP_TEXT = 0x1;
export const OP_BINARY = 0x2;
export const OP_CLOSE = 0x8;
export const OP_PING = 0x9;
export const OP_PONG = 0xa;

/** The `Sec-WebSocket-Accept` a server must answer for `key`. */
export function acceptKeyOf(key: string): string {
  return createHash('sha1')
    .update(key + GUID)
    .digest('base64');
}

export function newKey(): string {
  return randomBytes(16).toString('base64');
}

/** One masked client frame (RFC 6455 §5.3: a client masks every frame). */
export function clientFrame(opcode: number, payload: Buffer): Buffer {
  const len = payload.length;
  const extra = len < 126 ? 0 : len < 65_536 ? 2 : 8;
  const head = Buffer.alloc(2 + extra + 4);
  head[0] = 0x80 | opcode;
  if (extra === 0) head[1] = 0x80 | len;
  else if (extra === 2) {
    head[1] = 0x80 | 126;
    head.writeUInt16BE(len, 2);
  } else {
    head[1] = 0x80 | 127;
    head.writeBigUInt64BE(BigInt(len), 2);
  }
  const mask = randomBytes(4);
  mask.copy(head, 2 + extra);
  const body = Buffer.allocUnsafe(len);
  for (let i = 0; i < len; i++) body[i] = payload[i]! ^ mask[i & 3]!;
  return Buffer.concat([head, body]);
}

export interface DataMessage {
  binary: boolean;
  data: Buffer;
  /** The message was longer than the cap and was cut there. */
  truncated: boolean;
}

/** A close frame's status code and reason. */
export interface CloseFrame {
  code: number | null;
  reason: string;
}

export interface FrameEvents {
  message(message: DataMessage): void;
  close(frame: CloseFrame): void;
  /** A ping to answer with a pong of the same payload. */
  ping(payload: Buffer): void;
}

/** Reads server frames from a byte stream. A protocol violation throws a `protocol_error` failure from `push`. */
export class FrameReader {
  private buffer: Buffer = Buffer.alloc(0);
  private parts: Buffer[] = [];
  private size = 0;
  private binary = false;
  private inMessage = false;
  private truncated = false;

  private readonly events: FrameEvents;
  private readonly messageCap: number;

  constructor(events: FrameEvents, messageCap: number) {
    this.events = events;
    this.messageCap = messageCap;
  }

  push(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const frame = this.nextFrame();
      if (!frame) return;
      this.handle(frame.fin, frame.opcode, frame.payload);
    }
  }

  private nextFrame(): { fin: boolean; opcode: number; payload: Buffer } | null {
    const b = this.buffer;
    if (b.length < 2) return null;
    const fin = (b[0]! & 0x80) !== 0;
    if ((b[0]! & 0x70) !== 0) throw violation('a frame with reserved bits set (no extension was agreed)');
    const opcode = b[0]! & 0x0f;
    if ((b[1]! & 0x80) !== 0) throw violation('a masked frame from the server');
    let len = b[1]! & 0x7f;
    let offset = 2;
    if (len === 126) {
      if (b.length < 4) return null;
      len = b.readUInt16BE(2);
      offset = 4;
    } else if (len === 127) {
      if (b.length < 10) return null;
      const big = b.readBigUInt64BE(2);
      // Frames this large are refused before buffering them: a check reads one message up to its cap.
      if (big > BigInt(this.messageCap) + 1024n) throw violation(`a frame of ${big} bytes`);
      len = Number(big);
      offset = 10;
    }
    if (len > this.messageCap + 1024) throw violation(`a frame of ${len} bytes`);
    if (b.length < offset + len) return null;
    const payload = b.subarray(offset, offset + len);
    this.buffer = b.subarray(offset + len);
    return { fin, opcode, payload };
  }

  private handle(fin: boolean, opcode: number, payload: Buffer): void {
    if (opcode >= 0x8) {
      if (!fin || payload.length > 125) throw violation('a fragmented or oversized control frame');
      if (opcode === OP_CLOSE) {
        const code = payload.length >= 2 ? payload.readUInt16BE(0) : null;
        this.events.close({ code, reason: payload.subarray(2).toString('utf8').slice(0, 123) });
      } else if (opcode === OP_PING) this.events.ping(Buffer.from(payload));
      else if (opcode !== OP_PONG) throw violation(`an unknown control opcode ${opcode}`);
      return;
    }
    if (opcode === OP_CONTINUATION) {
      if (!this.inMessage) throw violation('a continuation frame outside a message');
    } else if (opcode === OP_TEXT || opcode === OP_BINARY) {
      if (this.inMessage) throw violation('a new message inside a fragmented one');
      this.inMessage = true;
      this.binary = opcode === OP_BINARY;
      this.parts = [];
      this.size = 0;
      this.truncated = false;
    } else throw violation(`an unknown opcode ${opcode}`);
    const room = this.messageCap - this.size;
    if (payload.length > room) this.truncated = true;
    const kept = payload.length > room ? payload.subarray(0, room) : payload;
    this.parts.push(Buffer.from(kept));
    this.size += kept.length;
    if (fin) {
      this.inMessage = false;
      this.events.message({ binary: this.binary, data: Buffer.concat(this.parts), truncated: this.truncated });
    }
  }
}

function violation(what: string): ProbeFailure {
  return new ProbeFailure('protocol_error', `WebSocket protocol error: ${what}`);
}
