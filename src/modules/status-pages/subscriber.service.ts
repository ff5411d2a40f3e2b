import { resourceChange } from '../audit/index.ts';
import type { Clock } from '../../platform/clock.ts';
import { decodeIdCursor, pageOf } from '../../platform/cursor.ts';
import type { Database } from '../../platform/db/index.ts';
import { DomainError, notFound, validationFailed } from '../../platform/errors.ts';
import { isId, newId } from '../../platform/ids.ts';
import type { SecretBox } from '../../platform/secrets.ts';
import { MemoryRateLimitStore, type ServiceContext } from '../auth/index.ts';
import type { Page } from '../monitors/index.ts';
import { SUBSCRIBER_MESSAGES, type MaintenancePhase } from './subscriber.messages.ts';
import { hashLinkToken, LINK_TOKEN_PATTERN, newLinkToken } from './subscriber.tokens.ts';
import { SubscribersRepository } from './subscribers.repository.ts';
import { StatusPagesRepository } from './status-pages.repository.ts';
import type { StatusDeliveryRow } from './subscribers.tables.ts';
import type { NoticePublication, Subscriber } from './subscriber.types.ts';
import type { StatusPage } from './status-page.types.ts';

/** How long a confirmation link works. */
export const CONFIRM_LINK_MS = 24 * 3_600_000;
/** A pending address gets a new confirmation mail at most this often, whoever asks (no mail bombing). */
export const CONFIRM_RESEND_MS = 10 * 60_000;
/** Subscribe requests per client address and page: a burst of this many, then one per RATE_PERIOD / RATE_LIMIT. */
export const SUBSCRIBE_RATE_LIMIT = 5;
export const SUBSCRIBE_RATE_PERIOD_MS = 10 * 60_000;
const EMAIL_MAX = 254;
// Deliberately plain: one @, no spaces or brackets, a dot in the domain. The mail server has the last word.
const EMAIL_PATTERN = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:".]{2,}$/;

export function isSubscribableEmail(value: unknown): value is string {
  return typeof value === 'string' && value.length <= EMAIL_MAX && EMAIL_PATTERN.test(value.trim());
}

/** The webhook URL check of destinations (DECISIONS §7): a private or special-purpose address is refused. */
export type WebhookUrlCheck = (url: string) => Promise<string | null>;

export interface SubscribersServiceDeps {
  database: Database;
  clock: Clock;
  /** Seals link tokens and signing secrets at rest (the master key's box). */
  secrets: SecretBox;
  /** The page a key may see (StatusPagesService.get: 404 otherwise). */
  pages: { get(ctx: ServiceContext, id: string): Promise<StatusPage> };
  /** Save-time check of a webhook subscriber's URL; null: it may be used. */
  checkWebhookUrl: WebhookUrlCheck;
  /** Generates a webhook signing secret as destinations do (`whsec_…`). */
  newSigningSecret: () => string;
}

/** A webhook subscriber as created: the signing secret is shown this once. */
export interface CreatedWebhookSubscriber {
  subscriber: Subscriber;
  signingSecret: string;
}

/** The subscribers of status pages (DECISIONS §18): sign-up with double opt-in, unsubscribe, the owner's list. */
export class SubscribersService {
  private readonly deps: SubscribersServiceDeps;
  private readonly rate = new MemoryRateLimitStore();
  private readonly queuedListeners: Array<() => void> = [];
  constructor(deps: SubscribersServiceDeps) {
    this.deps = deps;
  }

  /** Called after a transaction that queued deliveries or messages commits (the delivery role wakes). */
  onQueued(listener: () => void): void {
    this.queuedListeners.push(listener);
  }

  private queued(tx: Database): void {
    tx.afterCommit(() => {
      for (const l of this.queuedListeners) l();
    });
  }

  /**
   * A visitor asks for mails of a public page. The answer is the same whether the address is new, pending or
   * confirmed (nobody learns who subscribed): a new address gets a subscriber and a confirmation mail, a pending one
   * a fresh link (at most every CONFIRM_RESEND_MS), a confirmed one nothing.
   */
  async subscribe(slug: string, email: unknown, clientIp: string): Promise<void> {
    if (!isSubscribableEmail(email))
      throw validationFailed([{ field: 'email', issue: 'must be an email address such as name@example.com' }]);
    const page = await new StatusPagesRepository(this.deps.database).findBySlug(slug);
    if (!page || !page.public || !page.subscriptionsEnabled) throw notFound('Status page');
    const now = this.deps.clock.now();
    const decision = this.rate.consumeNow(
      `${page.id}|${clientIp}`,
      SUBSCRIBE_RATE_LIMIT,
      SUBSCRIBE_RATE_PERIOD_MS,
      now,
    );
    if (!decision.allowed)
      throw new DomainError('rate_limited', 'Too many subscribe requests from this address; try again later.');
    const address = email.trim().toLowerCase();
    await this.deps.database.transaction(async (tx) => {
      const repository = new SubscribersRepository(tx);
      const existing = await repository.findRowByAddress(page.id, address);
      if (existing?.confirmed_at != null) return;
      if (existing && existing.confirm_sent_at !== null && now - Number(existing.confirm_sent_at) < CONFIRM_RESEND_MS)
        return;
      const token = newLinkToken();
      let subscriberId: string;
      if (existing) {
        if (!(await repository.renewConfirmation(existing.id, hashLinkToken(token), now + CONFIRM_LINK_MS, now)))
          return;
        subscriberId = existing.id;
      } else {
        subscriberId = newId('sub', now);
        const unsubscribe = newLinkToken();
        const inserted = await repository.insertSubscriber({
          id: subscriberId,
          organization_id: page.organizationId,
          status_page_id: page.id,
          kind: 'email',
          address,
          confirmed_at: null,
          confirm_token_hash: hashLinkToken(token),
          confirm_expires_at: now + CONFIRM_LINK_MS,
          confirm_sent_at: now,
          unsubscribe_token_hash: hashLinkToken(unsubscribe),
          unsubscribe_token_sealed: this.deps.secrets.seal(unsubscribe, subscriberId),
          signing_secret_sealed: null,
          created_at: now,
        });
        // A concurrent request for the same address won: it sends the mail.
        if (!inserted) return;
      }
      const deliveryId = newId('dlv', now);
      await repository.insertDeliveries([
        {
          ...newDelivery(deliveryId, page.organizationId, subscriberId, null, now),
          token_sealed: this.deps.secrets.seal(token, deliveryId),
        },
      ]);
      this.queued(tx);
    });
  }

  /** The page at `slug` (any, public or not: a link in a mail keeps working while the page exists). */
  private async pageAt(slug: string): Promise<StatusPage | null> {
    return new StatusPagesRepository(this.deps.database).findBySlug(slug);
  }

  /** The page of a confirmation link while the link works (null: unknown, used or expired, or another page's). */
  async confirmable(slug: string, token: string): Promise<{ title: string } | null> {
    const page = LINK_TOKEN_PATTERN.test(token) ? await this.pageAt(slug) : null;
    if (!page) return null;
    const row = await new SubscribersRepository(this.deps.database).findRowByConfirmHash(hashLinkToken(token));
    if (!row || row.status_page_id !== page.id) return null;
    if (row.confirmed_at !== null || Number(row.confirm_expires_at) <= this.deps.clock.now()) return null;
    return { title: page.title };
  }

  /** Follows a confirmation link: the page once; null for a link unknown, used or expired (nothing changes then). */
  async confirm(slug: string, token: string): Promise<{ title: string } | null> {
    const page = LINK_TOKEN_PATTERN.test(token) ? await this.pageAt(slug) : null;
    if (!page) return null;
    const hash = hashLinkToken(token);
    const repository = new SubscribersRepository(this.deps.database);
    const row = await repository.findRowByConfirmHash(hash);
    if (!row || row.status_page_id !== page.id) return null;
    return (await repository.confirm(hash, this.deps.clock.now())) ? { title: page.title } : null;
  }

  /** The subscription an unsubscribe link names, or null. */
  async unsubscribable(slug: string, token: string): Promise<{ title: string; address: string } | null> {
    const page = LINK_TOKEN_PATTERN.test(token) ? await this.pageAt(slug) : null;
    if (!page) return null;
    const row = await new SubscribersRepository(this.deps.database).findRowByUnsubscribeHash(hashLinkToken(token));
    return row && row.status_page_id === page.id ? { title: page.title, address: row.address } : null;
  }

  /** Ends the subscription the link names (RFC 8058 one-click): true when there was one (it is gone either way). */
  async unsubscribe(slug: string, token: string): Promise<boolean> {
    const page = LINK_TOKEN_PATTERN.test(token) ? await this.pageAt(slug) : null;
    if (!page) return false;
    return this.deps.database.transaction(async (tx) => {
      const repository = new SubscribersRepository(tx);
      const row = await repository.findRowByUnsubscribeHash(hashLinkToken(token));
      return row !== null && row.status_page_id === page.id && (await repository.delete(row.id));
    });
  }

  /** The title of the page at `slug`, or null. */
  async pageTitle(slug: string): Promise<string | null> {
    return (await this.pageAt(slug))?.title ?? null;
  }

  /** The page's subscribers, oldest first (the owner sees their addresses). */
  async list(
    ctx: ServiceContext,
    statusPageId: string,
    page: { limit: number; cursor?: string },
  ): Promise<Page<Subscriber>> {
    await this.deps.pages.get(ctx, statusPageId);
    const rows = await new SubscribersRepository(ctx.db).list(
      ctx.actor.organizationId,
      statusPageId,
      decodeIdCursor(page.cursor),
      page.limit,
    );
    return pageOf(rows, page.limit, (s) => s.id);
  }

  async remove(ctx: ServiceContext, statusPageId: string, id: string): Promise<void> {
    await this.deps.pages.get(ctx, statusPageId);
    await ctx.db.transaction(async (tx) => {
      const repository = new SubscribersRepository(tx);
      const found = isId(id, 'sub') ? await repository.find(ctx.actor.organizationId, statusPageId, id) : null;
      if (!found || !(await repository.delete(id))) throw notFound('Subscriber');
      await ctx.audit?.record(tx, resourceChange('status_subscriber.delete', 'status_subscriber', found, null));
    });
  }

  /** An owner adds a webhook that receives the page's messages, signed like destinations' webhooks. */
  async addWebhook(ctx: ServiceContext, statusPageId: string, url: string): Promise<CreatedWebhookSubscriber> {
    await this.deps.pages.get(ctx, statusPageId);
    const issue = webhookUrlIssue(url) ?? (await this.deps.checkWebhookUrl(url));
    if (issue !== null) throw validationFailed([{ field: 'url', issue }]);
    const now = ctx.clock.now();
    const id = newId('sub', now);
    const signingSecret = this.deps.newSigningSecret();
    const unsubscribe = newLinkToken();
    const subscriber: Subscriber = {
      id,
      organizationId: ctx.actor.organizationId,
      statusPageId,
      kind: 'webhook',
      address: url,
      confirmedAt: now,
      createdAt: now,
    };
    await ctx.db.transaction(async (tx) => {
      const inserted = await new SubscribersRepository(tx).insertSubscriber({
        id,
        organization_id: subscriber.organizationId,
        status_page_id: statusPageId,
        kind: 'webhook',
        address: url,
        confirmed_at: now,
        confirm_token_hash: null,
        confirm_expires_at: null,
        confirm_sent_at: null,
        unsubscribe_token_hash: hashLinkToken(unsubscribe),
        unsubscribe_token_sealed: this.deps.secrets.seal(unsubscribe, id),
        signing_secret_sealed: this.deps.secrets.seal(signingSecret, id),
        created_at: now,
      });
      if (!inserted) throw validationFailed([{ field: 'url', issue: 'is already a subscriber of this page' }]);
      await ctx.audit?.record(tx, resourceChange('status_subscriber.create', 'status_subscriber', null, subscriber));
    });
    return { subscriber, signingSecret };
  }

  /**
   * The notices code's listener: a published notice or update becomes one message to the page's subscribers, in the
   * publishing transaction (the fan-out then follows from the outbox). Once per notice and update.
   */
  readonly noticePublished = async (tx: Database, publication: NoticePublication): Promise<void> => {
    const repository = new SubscribersRepository(tx);
    const page = await repository.subscribablePage(publication.organizationId, publication.statusPageId);
    if (!page) return;
    const now = this.deps.clock.now();
    const content = SUBSCRIBER_MESSAGES.notice(page.title, publication);
    const inserted = await repository.insertMessage({
      id: newId('msg', now),
      organizationId: publication.organizationId,
      statusPageId: page.id,
      sourceKey: `notice:${publication.noticeId}:${publication.updateId ?? 'published'}`,
      ...content,
      occurredAt: publication.publishedAt.getTime(),
      createdAt: now,
    });
    if (inserted) this.queued(tx);
  };

  /** A maintenance window announced, started or ended on a page: one message to its subscribers, once. */
  async maintenanceMessage(
    tx: Database,
    input: {
      organizationId: string;
      statusPageId: string;
      phase: MaintenancePhase;
      window: { id: string; name: string; description: string | null };
      occurrence: { start: number; end: number };
      occurredAt: number;
    },
  ): Promise<boolean> {
    const repository = new SubscribersRepository(tx);
    const page = await repository.subscribablePage(input.organizationId, input.statusPageId);
    if (!page) return false;
    const now = this.deps.clock.now();
    const inserted = await repository.insertMessage({
      id: newId('msg', now),
      organizationId: input.organizationId,
      statusPageId: page.id,
      sourceKey: `maintenance:${input.window.id}:${input.occurrence.start}:${input.phase}`,
      ...SUBSCRIBER_MESSAGES.maintenance(page.title, input.phase, input.window, input.occurrence),
      occurredAt: input.occurredAt,
      createdAt: now,
    });
    if (inserted) this.queued(tx);
    return inserted;
  }
}

export function newDelivery(
  id: string,
  organizationId: string,
  subscriberId: string,
  messageId: string | null,
  now: number,
): StatusDeliveryRow {
  return {
    id,
    organization_id: organizationId,
    subscriber_id: subscriberId,
    message_id: messageId,
    token_sealed: null,
    status: 'pending',
    attempts: 0,
    next_attempt_at: now,
    lease_until: null,
    last_error: null,
    sent_at: null,
    created_at: now,
  };
}

function webhookUrlIssue(url: string): string | null {
  try {
    const u = new URL(url);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') return 'must be an http or https URL';
    if (u.username || u.password) return 'must not carry credentials';
    return null;
  } catch {
    return 'must be an http or https URL';
  }
}
