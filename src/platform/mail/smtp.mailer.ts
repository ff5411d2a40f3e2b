import nodemailer from 'nodemailer';
import type { Mailer, MailMessage, MailResult } from './mail.types.ts';

export interface MailLogger {
  info(obj: object, msg: string): void;
}

export interface CreateMailerOptions {
  /** `smtp://user:pass@host:587` or `smtps://…:465`; null = no SMTP: mails are written to the logger. */
  smtpUrl: string | null;
  /** From header, e.g. `Tocsin <alerts@example.com>`. */
  from: string;
  logger: MailLogger;
}

/** What a delivery without an SMTP server says happened (the delivery's status is `logged`). */
export const NOT_SENT_NO_SMTP = 'Not sent: no SMTP server is configured (smtp); the mail was written to the server log';

function addresses(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list
    .map((a) =>
      typeof a === 'string'
        ? a
        : typeof (a as { address?: unknown }).address === 'string'
          ? String((a as { address: string }).address)
          : '',
    )
    .filter(Boolean);
}

/**
 * One reusable mailer per SMTP configuration. With an SMTP URL: a pooled nodemailer transport with alert-friendly
 * timeouts (port 587 requires STARTTLS unless the URL says otherwise). Without: logs the mail (info), which is what a
 * development install without SMTP wants, and says so (`notSent`): the delivery is `logged`, not `delivered`.
 */
export function createMailer(options: CreateMailerOptions): Mailer {
  if (!options.smtpUrl) {
    return {
      async sendMail(message: MailMessage): Promise<MailResult> {
        const messageId = message.headers['Message-ID'] ?? '';
        options.logger.info(
          { mail: { to: message.to, subject: message.subject, headers: message.headers, text: message.text } },
          'email (no SMTP configured)',
        );
        return { messageId, accepted: [], rejected: [], response: 'logged', notSent: NOT_SENT_NO_SMTP };
      },
      close() {},
    };
  }
  const url = new URL(options.smtpUrl);
  const secure = url.protocol === 'smtps:';
  const port = url.port ? Number(url.port) : secure ? 465 : 587;
  const transport = nodemailer.createTransport({
    host: url.hostname,
    port,
    secure,
    requireTLS: !secure && port === 587 && url.searchParams.get('requireTLS') !== 'false',
    ignoreTLS: url.searchParams.get('ignoreTLS') === 'true',
    auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
    pool: true,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return {
    async sendMail(message: MailMessage): Promise<MailResult> {
      const { 'Message-ID': messageId, 'In-Reply-To': inReplyTo, References: references, ...headers } = message.headers;
      const info = await transport.sendMail({
        from: options.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        headers,
        ...(message.attachments?.length && {
          attachments: message.attachments.map((a) => ({
            filename: a.filename,
            contentType: a.contentType,
            content: a.content ?? Buffer.alloc(0),
          })),
        }),
        ...(messageId ? { messageId } : {}),
        ...(inReplyTo ? { inReplyTo } : {}),
        ...(references ? { references } : {}),
      });
      return {
        messageId: typeof info.messageId === 'string' ? info.messageId : (messageId ?? ''),
        accepted: addresses(info.accepted),
        rejected: addresses(info.rejected),
        response: typeof info.response === 'string' ? info.response : '',
      };
    },
    close() {
      transport.close();
    },
  };
}
