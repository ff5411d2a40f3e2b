import type { MailMessage } from '../../platform/mail/index.ts';
import type { StatusMessage } from './subscriber.types.ts';

function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/** Text as HTML paragraphs: escaped, never interpreted (a notice's Markdown is shown as written). */
function paragraphs(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

export interface MailLinks {
  pageUrl: string;
  unsubscribeUrl: string;
  /** The delivery's stable Message-ID (the same on every retry). */
  messageId: string;
}

/**
 * Headers every subscriber mail carries: RFC 8058 one-click unsubscribe (the URL answers a POST of
 * `List-Unsubscribe=One-Click`), its stable Message-ID, and that it was sent by a machine.
 */
function headers(links: MailLinks, pageSlug: string, host: string): Record<string, string> {
  return {
    'Message-ID': links.messageId,
    'List-Unsubscribe': `<${links.unsubscribeUrl}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    'List-Id': `<${pageSlug}.status.${host}>`,
    'Auto-Submitted': 'auto-generated',
  };
}

function footer(pageTitle: string, links: MailLinks): { text: string; html: string } {
  return {
    text: `\n\n--\n${pageTitle} status: ${links.pageUrl}\nUnsubscribe: ${links.unsubscribeUrl}\n`,
    html:
      `<hr><p><a href="${escapeHtml(links.pageUrl)}">${escapeHtml(pageTitle)} status page</a> · ` +
      `<a href="${escapeHtml(links.unsubscribeUrl)}">Unsubscribe</a></p>`,
  };
}

export function confirmationMail(
  to: string,
  page: { slug: string; title: string },
  confirmUrl: string,
  links: MailLinks,
  host: string,
): MailMessage {
  const f = footer(page.title, links);
  const intro = `Someone (hopefully you) asked to receive updates from the ${page.title} status page at this address.`;
  const ask = 'Confirm within 24 hours by opening this link:';
  const ignore = 'If you did not ask for this, ignore this mail: nothing will be sent to you.';
  return {
    to,
    subject: `Confirm your subscription to ${page.title} status`,
    text: `${intro}\n\n${ask}\n${confirmUrl}\n\n${ignore}${f.text}`,
    html:
      `<p>${escapeHtml(intro)}</p><p>${escapeHtml(ask)}<br><a href="${escapeHtml(confirmUrl)}">Confirm subscription</a></p>` +
      `<p>${escapeHtml(ignore)}</p>${f.html}`,
    headers: headers(links, page.slug, host),
  };
}

export function updateMail(
  to: string,
  page: { slug: string; title: string },
  message: StatusMessage,
  links: MailLinks,
  host: string,
): MailMessage {
  const f = footer(page.title, links);
  return {
    to,
    subject: message.subject,
    text: `${message.body}${f.text}`,
    html: `${paragraphs(message.body)}${f.html}`,
    headers: headers(links, page.slug, host),
  };
}
