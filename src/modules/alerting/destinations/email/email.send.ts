import type { DestinationRecord, MailMessage, ProviderContext, SendResult } from '../destination.contract.ts';
import type { EmailConfig } from './email.config.ts';

interface SmtpError {
  code?: unknown;
  responseCode?: unknown;
  command?: unknown;
  response?: unknown;
}

/** nodemailer error → outcome (destinations.md §10). Reasons name the SMTP code, never credentials. */
export function classifySmtpError(err: unknown): SendResult {
  const e = (err ?? {}) as SmtpError;
  const code = typeof e.code === 'string' ? e.code : '';
  const responseCode = typeof e.responseCode === 'number' ? e.responseCode : null;
  const command = typeof e.command === 'string' ? e.command.toUpperCase() : '';
  const response = typeof e.response === 'string' ? e.response.replace(/\s+/g, ' ').slice(0, 160) : '';
  const detail = [code, responseCode !== null ? String(responseCode) : '', command ? `on ${command}` : '', response]
    .filter(Boolean)
    .join(' ');
  const reason = `SMTP ${detail || 'error'}`;
  if (['EAUTH', 'ENOAUTH', 'EOAUTH2'].includes(code))
    return { outcome: 'reauthorize', reason: `${reason} (SMTP credentials rejected)` };
  if (['ETLS', 'EREQUIRETLS', 'ECONFIG'].includes(code) || responseCode === 530)
    return { outcome: 'destination_broken', reason: `${reason} (SMTP configuration)` };
  if (responseCode !== null && responseCode >= 400 && responseCode < 500) return { outcome: 'retry', reason };
  if (['ECONNECTION', 'ETIMEDOUT', 'EDNS', 'ESOCKET', 'EPROXY', 'ECONNREFUSED', 'ECONNRESET'].includes(code))
    return { outcome: 'retry', reason };
  if (responseCode !== null && responseCode >= 500) {
    if (command.startsWith('RCPT') || code === 'EENVELOPE')
      return { outcome: 'destination_broken', reason: `${reason} (recipient refused)` };
    if ([552, 554].includes(responseCode) || command.startsWith('DATA') || command === 'MESSAGE')
      return { outcome: 'payload_rejected', reason: `${reason} (message refused)` };
    return { outcome: 'payload_rejected', reason };
  }
  if (code === 'EENVELOPE') return { outcome: 'destination_broken', reason: `${reason} (recipient refused)` };
  return { outcome: 'retry', reason };
}

export async function sendEmail(
  request: MailMessage,
  _destination: DestinationRecord<EmailConfig>,
  _delivery: unknown,
  ctx: ProviderContext,
): Promise<SendResult> {
  if (!ctx.mailer)
    return { outcome: 'destination_broken', reason: 'email is not configured on this server (no mailer)' };
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ctx.timeoutMs);
  });
  try {
    const message = await withAttachmentBytes(request, ctx);
    if (typeof message === 'string') return { outcome: 'payload_rejected', reason: message };
    const info = await Promise.race([ctx.mailer.sendMail(message), timeout]);
    if (info === 'timeout') return { outcome: 'retry', reason: `SMTP timed out after ${ctx.timeoutMs} ms` };
    if (info.rejected.length > 0)
      return { outcome: 'destination_broken', reason: `SMTP server refused the recipient ${info.rejected.join(', ')}` };
    if (info.notSent !== undefined)
      return { outcome: 'ok', provider_reference: info.messageId, not_sent: info.notSent };
    return { outcome: 'ok', provider_reference: info.messageId };
  } catch (err) {
    return classifySmtpError(err);
  } finally {
    clearTimeout(timer);
  }
}

/** The mail with its attachments' bytes read from the stored report files, or why it cannot be sent. */
async function withAttachmentBytes(request: MailMessage, ctx: ProviderContext): Promise<MailMessage | string> {
  if (!request.attachments?.length) return request;
  if (!ctx.reportFiles) return 'report files cannot be read on this server';
  const attachments = [];
  for (const a of request.attachments) {
    const content = await ctx.reportFiles.read(a.fileId);
    if (content === null) return `the report file ${a.filename} no longer exists (its links expired)`;
    attachments.push({ ...a, content });
  }
  return { ...request, attachments };
}
