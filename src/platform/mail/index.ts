export type { Mailer, MailAttachment, MailMessage, MailResult } from './mail.types.ts';
export { createMailer, NOT_SENT_NO_SMTP, type CreateMailerOptions, type MailLogger } from './smtp.mailer.ts';
