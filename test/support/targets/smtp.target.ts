/**
 * SMTP servers for the smtp probe: nodemailer's smtp-server (the one the email tests run) in the modes a check meets:
 * plain, STARTTLS with a certificate, implicit TLS, and a greeting that refuses (4xx/5xx).
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import type { Pem } from './certificates.ts';

export interface SmtpTarget {
  port: number;
  target: string;
  close(): Promise<void>;
}

export interface SmtpTargetOptions {
  /** The server's certificate: STARTTLS is offered with it (or the whole session is TLS with `implicit`). */
  cert?: Pem;
  implicit?: boolean;
  /** Refuse every connection in its greeting with this code (e.g. 421, 554). */
  refuseWith?: number;
  banner?: string;
}

export async function startSmtpTarget(options: SmtpTargetOptions = {}): Promise<SmtpTarget> {
  const config: SMTPServerOptions = {
    secure: options.implicit === true,
    authOptional: true,
    disabledCommands: options.cert ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    logger: false,
    ...(options.banner !== undefined && { banner: options.banner }),
    ...(options.cert && { key: options.cert.key, cert: options.cert.cert }),
    onConnect(_session, callback) {
      if (options.refuseWith === undefined) return callback();
      const err = new Error('Too busy, try later') as Error & { responseCode: number };
      err.responseCode = options.refuseWith;
      callback(err);
    },
  };
  const server = new SMTPServer(config);
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    target: `127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
