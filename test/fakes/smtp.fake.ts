import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

/** A mail as the fake SMTP server received it. */
export interface ReceivedMail {
  from: string;
  to: string[];
  /** Full RFC 5322 source. */
  raw: string;
  /** Top-level headers, names lower-cased, folded lines joined. */
  headers: Record<string, string>;
  /** Decoded (RFC 2047) subject. */
  subject: string;
}

/** An SMTP reply to inject at a stage of the next transaction(s). */
export interface SmtpFailure {
  stage: 'mail' | 'rcpt' | 'data';
  /** e.g. 451 (transient) or 550 / 552 / 554 (permanent). */
  code: number;
  message?: string;
}

export interface FakeSmtpServer {
  host: string;
  port: number;
  /** `smtp://127.0.0.1:<port>` for createMailer({smtpUrl}). */
  url: string;
  messages: ReceivedMail[];
  /** The next `times` transactions fail at `stage` with `code`. */
  failNext(failure: SmtpFailure, times?: number): void;
  /** Clients connected now (a pooled client keeps its connection between mails until it is closed). */
  openConnections(): number;
  reset(): void;
  close(): Promise<void>;
}

export function parseHeaders(raw: string): Record<string, string> {
  const end = raw.search(/\r?\n\r?\n/);
  const head = (end === -1 ? raw : raw.slice(0, end)).replace(/\r?\n[ \t]+/g, ' ');
  const out: Record<string, string> = {};
  for (const line of head.split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) out[line.slice(0, i).trim().toLowerCase()] ??= line.slice(i + 1).trim();
  }
  return out;
}

/** Decodes RFC 2047 encoded-words (=?UTF-8?Q?…?= / =?UTF-8?B?…?=) as nodemailer writes them. */
export function decodeMimeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_m, _charset: string, enc: string, text: string) => {
      if (enc.toUpperCase() === 'B') return Buffer.from(text, 'base64').toString('utf8');
      const bytes = text
        .replace(/%/g, '%25')
        .replace(/_/g, ' ')
        .replace(/=([0-9A-Fa-f]{2})/g, (_x, hex: string) => `%${hex}`);
      return decodeURIComponent(bytes);
    });
}

function smtpError(failure: SmtpFailure): Error {
  const err = new Error(
    failure.message ?? (failure.code >= 500 ? 'Requested action not taken' : 'Try again later'),
  ) as Error & { responseCode: number };
  err.responseCode = failure.code;
  return err;
}

/** Starts a plain (no TLS, no auth required) SMTP server on 127.0.0.1 that records every accepted message. */
export async function startSmtpServer(options: { rejectRecipients?: string[] } = {}): Promise<FakeSmtpServer> {
  const messages: ReceivedMail[] = [];
  const queue: SmtpFailure[] = [];
  let current: SmtpFailure | undefined;
  const rejected = new Set((options.rejectRecipients ?? []).map((a) => a.toLowerCase()));
  const config: SMTPServerOptions = {
    secure: false,
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onMailFrom(_address, _session, callback) {
      current = queue.shift();
      if (current?.stage === 'mail') return callback(smtpError(current));
      callback();
    },
    onRcptTo(address, _session, callback) {
      if (current?.stage === 'rcpt') return callback(smtpError(current));
      if (rejected.has(address.address.toLowerCase()))
        return callback(smtpError({ stage: 'rcpt', code: 550, message: 'No such user here' }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (current?.stage === 'data') return callback(smtpError(current));
        const raw = Buffer.concat(chunks).toString('utf8');
        const headers = parseHeaders(raw);
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        messages.push({
          from,
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          headers,
          subject: decodeMimeWords(headers.subject ?? ''),
        });
        callback();
      });
    },
  };
  const server = new SMTPServer(config);
  // A client killed mid-transaction (the kill -9 tests) resets its connection: not an error of the fake.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    host: '127.0.0.1',
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    failNext(failure, times = 1) {
      for (let i = 0; i < times; i++) queue.push(failure);
    },
    openConnections: () => server.connections.size,
    reset() {
      messages.length = 0;
      queue.length = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
