/**
 * SMTP replies read off a socket (RFC 5321 §4.2): `250-first\r\n250 last\r\n` is one reply. The reader is moved from
 * the plain socket to the TLS one after STARTTLS; bytes a server sends ahead of the handshake are dropped, never
 * read as a reply over TLS (the STARTTLS command-injection class of bugs).
 */
import type { Socket } from 'node:net';
import { ProbeFailure } from '../probe.net.ts';

export interface SmtpReply {
  code: number;
  /** The text of each line, without its code and separator. */
  lines: string[];
}

/** A reply larger than this is no SMTP server's (EHLO lists a few hundred bytes). */
const MAX_REPLY_BYTES = 64 * 1024;
const LINE = /^(\d{3})([ -])(.*)$/;
const BARE_CODE = /^\d{3}$/;

export class SmtpReplyReader {
  private buffer = '';
  private lines: string[] = [];
  private code = 0;
  private waiting: { resolve(r: SmtpReply): void; reject(e: Error): void } | null = null;
  private failure: Error | null = null;
  private socket: Socket | null = null;
  private readonly onData = (chunk: Buffer): void => this.feed(chunk.toString('latin1'));
  private readonly onEnd = (): void =>
    this.fail(new ProbeFailure('protocol_error', 'the server closed the connection'));
  private readonly onError = (err: Error): void => this.fail(err);

  /** Reads from `socket` from now on (and stops reading the previous one, dropping what it left unread). */
  attach(socket: Socket): void {
    this.detach();
    this.buffer = '';
    this.lines = [];
    this.socket = socket;
    socket.on('data', this.onData);
    socket.on('end', this.onEnd);
    socket.on('error', this.onError);
  }

  detach(): void {
    const s = this.socket;
    if (!s) return;
    s.off('data', this.onData);
    s.off('end', this.onEnd);
    s.off('error', this.onError);
    // An error after the reader let go (the TLS layer takes over the socket) must not crash the process.
    s.on('error', () => undefined);
    this.socket = null;
  }

  /** The next complete reply; rejects when the connection ends or breaks first. */
  next(): Promise<SmtpReply> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise<SmtpReply>((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.feed('');
    });
  }

  private fail(err: Error): void {
    this.failure ??= err;
    const w = this.waiting;
    this.waiting = null;
    w?.reject(this.failure);
  }

  private feed(text: string): void {
    this.buffer += text;
    if (this.buffer.length > MAX_REPLY_BYTES) {
      this.fail(new ProbeFailure('protocol_error', `an SMTP reply longer than ${MAX_REPLY_BYTES} bytes`));
      return;
    }
    let end: number;
    while (this.waiting && (end = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, end).replace(/\r$/, '');
      this.buffer = this.buffer.slice(end + 1);
      const m = BARE_CODE.test(line) ? [line, line, ' ', ''] : LINE.exec(line);
      if (!m) {
        this.fail(new ProbeFailure('protocol_error', `not an SMTP reply: ${JSON.stringify(line.slice(0, 120))}`));
        return;
      }
      const code = Number(m[1]);
      if (this.lines.length > 0 && code !== this.code) {
        this.fail(new ProbeFailure('protocol_error', `an SMTP reply mixing codes ${this.code} and ${code}`));
        return;
      }
      this.code = code;
      this.lines.push(m[3]!);
      if (m[2] === ' ') {
        const reply = { code, lines: this.lines };
        this.lines = [];
        const w = this.waiting;
        this.waiting = null;
        w.resolve(reply);
      }
    }
  }
}

/** `554 5.3.2 too busy` (the reply's first line, shortened) for messages. */
export function replyText(reply: SmtpReply): string {
  return `${reply.code} ${reply.lines[0] ?? ''}`.trim().slice(0, 200);
}
