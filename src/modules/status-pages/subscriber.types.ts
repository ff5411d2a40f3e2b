import type { NoticePublication } from './notice.types.ts';
import type { Database } from '../../platform/db/index.ts';

export type SubscriberKind = 'email' | 'webhook';

/** Someone told of a page's notices and maintenance (DECISIONS §18). */
export interface Subscriber {
  id: string;
  organizationId: string;
  statusPageId: string;
  kind: SubscriberKind;
  /** The email address (lower-cased) or the webhook URL. */
  address: string;
  /** Null while an email subscriber has not followed the confirmation link. */
  confirmedAt: number | null;
  createdAt: number;
}

/**
 * A notice (or one of its updates) made public, as the notices code hands it to its listeners in the publishing
 * transaction. This copy is the subscribers' side of that contract (the notices code defines the same shape).
 */
/** What the notices code tells of each publication (one type: the notices module's). */
export type { NoticePublication };

/** Called by the notices code with the publishing transaction. */
export type NoticePublishedListener = (tx: Database, publication: NoticePublication) => Promise<void>;

/** Events a subscriber's webhook receives (X-Service-Event). */
export type SubscriberEvent =
  | 'status_page.notice_published'
  | 'status_page.notice_updated'
  | 'status_page.maintenance_announced'
  | 'status_page.maintenance_started'
  | 'status_page.maintenance_ended';

/** A message to every confirmed subscriber of a page. */
export interface StatusMessage {
  id: string;
  organizationId: string;
  statusPageId: string;
  /** Makes each message once: `notice:<id>:<update id|published>`, `maintenance:<id>:<start>:<phase>`. */
  sourceKey: string;
  event: SubscriberEvent;
  subject: string;
  /** Plain text (Markdown as written). */
  body: string;
  /** What a webhook receives as `data`. */
  data: Record<string, unknown>;
  occurredAt: number;
  createdAt: number;
}

export type DeliveryStatus = 'pending' | 'sent' | 'failed';
