import type { Mailer } from '../../platform/mail/index.ts';
import type { SecretBox } from '../../platform/secrets.ts';
import { confirmationMail, updateMail } from './subscriber.mail.ts';
import { hashLinkToken } from './subscriber.tokens.ts';
import type { DeliveryWork } from './subscribers.repository.ts';

/** Webhook signing and the vetted connection, as destinations' webhooks do them (wired from alerting in main.ts). */
export interface SubscriberWebhooks {
  /** The signature headers of DECISIONS §7 (`X-Service-Signature`, `webhook-id`, `webhook-timestamp`, `webhook-signature`). */
  sign(input: { secret: string; id: string; timestamp: number; body: string }): Record<string, string>;
  /** Resolves and vets the URL's host once: a fetch pinned to that address, or why it may not be used. */
  open(url: string): Promise<{ issue: string } | { issue: null; fetch: typeof fetch }>;
}

export type SendOutcome = { outcome: 'sent' } | { outcome: 'retry' | 'failed'; reason: string };

export interface SubscriberSenderDeps {
  mailer: Mailer;
  secrets: SecretBox;
  webhooks: SubscriberWebhooks;
  /** Where the public pages are served (links in mails). */
  publicUrl: string;
  userAgent: string;
  /** A webhook answer slower than this is a failed attempt (retried). */
  sendTimeoutMs: number;
  now: () => number;
}

/** Sends one delivery: a confirmation or update mail, or a signed webhook post. */
export class SubscriberSender {
  private readonly deps: SubscriberSenderDeps;
  private readonly host: string;
  constructor(deps: SubscriberSenderDeps) {
    this.deps = deps;
    this.host = new URL(deps.publicUrl).hostname || 'localhost';
  }

  async send(work: DeliveryWork): Promise<SendOutcome> {
    return work.subscriber.kind === 'webhook' ? this.post(work) : this.mail(work);
  }

  private urls(work: DeliveryWork) {
    const base = `${this.deps.publicUrl}/status/${encodeURIComponent(work.page.slug)}`;
    const unsubscribe = this.deps.secrets.open(work.subscriber.unsubscribe_token_sealed, work.subscriber.id);
    return { pageUrl: base, unsubscribeUrl: `${base}/unsubscribe?token=${unsubscribe}`, base };
  }

  private async mail(work: DeliveryWork): Promise<SendOutcome> {
    const { pageUrl, unsubscribeUrl, base } = this.urls(work);
    const links = { pageUrl, unsubscribeUrl, messageId: `<${work.delivery.id}@${this.host}>` };
    let mail;
    if (work.message === null) {
      if (work.delivery.token_sealed === null) return { outcome: 'failed', reason: 'confirmation without a token' };
      // A link whose subscriber confirmed meanwhile (or got a newer link) is not sent.
      if (work.subscriber.confirmed_at !== null) return { outcome: 'failed', reason: 'already confirmed' };
      const token = this.deps.secrets.open(work.delivery.token_sealed, work.delivery.id);
      if (hashLinkToken(token) !== work.subscriber.confirm_token_hash)
        return { outcome: 'failed', reason: 'a newer confirmation link replaced this one' };
      mail = confirmationMail(work.subscriber.address, work.page, `${base}/confirm?token=${token}`, links, this.host);
    } else {
      mail = updateMail(work.subscriber.address, work.page, work.message, links, this.host);
    }
    try {
      await this.deps.mailer.sendMail(mail);
      return { outcome: 'sent' };
    } catch (err) {
      const e = err as { responseCode?: unknown; message?: unknown };
      const reason = String(e.message ?? err).slice(0, 500);
      // 5xx: the server refused for good (no such mailbox, policy); 4xx and no answer: try again later.
      return typeof e.responseCode === 'number' && e.responseCode >= 500
        ? { outcome: 'failed', reason }
        : { outcome: 'retry', reason };
    }
  }

  private async post(work: DeliveryWork): Promise<SendOutcome> {
    const message = work.message;
    if (message === null) return { outcome: 'failed', reason: 'a webhook subscriber gets no confirmation' };
    if (work.subscriber.signing_secret_sealed === null) return { outcome: 'failed', reason: 'no signing secret' };
    const secret = this.deps.secrets.open(work.subscriber.signing_secret_sealed, work.subscriber.id);
    const { pageUrl } = this.urls(work);
    const body = JSON.stringify({
      id: message.id,
      event: message.event,
      product: 'Tocsin',
      timestamp: new Date(message.occurredAt).toISOString(),
      status_page: { id: work.page.id, slug: work.page.slug, title: work.page.title, url: pageUrl },
      message: message.subject,
      data: message.data,
    });
    const opened = await this.deps.webhooks.open(work.subscriber.address);
    if (opened.issue !== null) return { outcome: 'failed', reason: `the URL ${opened.issue}` };
    const signatures = this.deps.webhooks.sign({
      secret,
      id: work.delivery.id,
      timestamp: Math.floor(this.deps.now() / 1000),
      body,
    });
    try {
      const res = await opened.fetch(work.subscriber.address, {
        method: 'POST',
        redirect: 'manual',
        signal: AbortSignal.timeout(this.deps.sendTimeoutMs),
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': this.deps.userAgent,
          'X-Service-Event': message.event,
          'X-Service-Delivery': work.delivery.id,
          ...signatures,
        },
        body,
      });
      await res.body?.cancel();
      if (res.status >= 200 && res.status < 300) return { outcome: 'sent' };
      const reason = `HTTP ${res.status}`;
      return res.status === 408 || res.status === 429 || res.status >= 500
        ? { outcome: 'retry', reason }
        : { outcome: 'failed', reason };
    } catch (err) {
      return { outcome: 'retry', reason: String((err as Error).message ?? err).slice(0, 500) };
    }
  }
}
