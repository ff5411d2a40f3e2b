/** An outgoing mail (alert emails as the email destination renders them, invitations, verification and reset links). */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Message-ID, In-Reply-To, References, Auto-Submitted, X-Tocsin-… */
  headers: Record<string, string>;
  /** Files to attach (a scheduled report's PDF and CSV): named by `file_id` in render, read into `content` by send. */
  attachments?: MailAttachment[];
}

export interface MailAttachment {
  filename: string;
  contentType: string;
  /** The stored file (a scheduled report's): whoever sends the mail reads its bytes into `content` first. */
  fileId: string;
  content?: Buffer;
}

export interface MailResult {
  messageId: string;
  accepted: string[];
  rejected: string[];
  response: string;
  /** Set when no mail left this server (no SMTP server configured: it was written to the log): what happened. */
  notSent?: string;
}

/**
 * Sends one mail. Rejects with an Error carrying nodemailer's `code`, `responseCode` and `command` on failure
 * (the email destination classifies them).
 */
export interface Mailer {
  sendMail(message: MailMessage): Promise<MailResult>;
  close(): void;
}
