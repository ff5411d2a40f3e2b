import type { Database } from '../../platform/db/index.ts';

export const NOTICE_KINDS = ['incident', 'maintenance', 'info'] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/** In the order a page lists them: the most severe first. */
export const NOTICE_IMPACTS = ['critical', 'major', 'minor', 'none'] as const;
export type NoticeImpact = (typeof NOTICE_IMPACTS)[number];

/** The incident timeline; maintenance and information notices are open (null) or `resolved` (ended). */
export const NOTICE_STATUSES = ['investigating', 'identified', 'monitoring', 'resolved'] as const;
export type NoticeStatus = (typeof NOTICE_STATUSES)[number];

export interface NoticeUpdate {
  id: string;
  noticeId: string;
  status: NoticeStatus | null;
  /** Markdown, rendered safely where shown. */
  body: string;
  createdAt: number;
}

/** A notice on a status page (DECISIONS §18): what a person tells the page's readers. */
export interface Notice {
  id: string;
  organizationId: string;
  statusPageId: string;
  kind: NoticeKind;
  title: string;
  impact: NoticeImpact;
  status: NoticeStatus | null;
  affectedMonitorIds: string[];
  incidentId: string | null;
  /** Drafts (false) are shown to nobody outside the organization and go to no subscriber. */
  published: boolean;
  /** When it was last published; null while a draft. */
  publishedAt: number | null;
  /** When its status became `resolved`; null while it is open. */
  resolvedAt: number | null;
  postmortem: string | null;
  /** When the post-mortem was published (shown publicly); null: not published. */
  postmortemPublishedAt: number | null;
  /** Drafted by the product from a monitor incident (auto_notices), not written by a person. */
  automatic: boolean;
  createdAt: number;
  updatedAt: number;
}

export interface NoticeWithUpdates extends Notice {
  /** Oldest first. */
  updates: NoticeUpdate[];
}

/** Body of POST /status-pages/{id}/notices, its shape checked by the route's schema. */
export interface NoticeCreateInput {
  kind: NoticeKind;
  title: string;
  impact?: NoticeImpact;
  status?: NoticeStatus | null;
  affected_monitor_ids?: string[];
  incident_id?: string | null;
  published?: boolean;
  /** The first update's text (optional). */
  body?: string;
  postmortem?: string | null;
  postmortem_published?: boolean;
}

/** Body of PATCH …/notices/{nid}. */
export interface NoticePatchInput {
  kind?: NoticeKind;
  title?: string;
  impact?: NoticeImpact;
  status?: NoticeStatus | null;
  affected_monitor_ids?: string[];
  incident_id?: string | null;
  published?: boolean;
  postmortem?: string | null;
  postmortem_published?: boolean;
}

/** Body of POST …/notices/{nid}/updates. */
export interface NoticeUpdateInput {
  body: string;
  status?: NoticeStatus | null;
}

/**
 * What subscribers are told (DECISIONS §18): a notice published, or an update of a published notice. `updateId`
 * null is the publication itself; `bodyMarkdown` is then the notice's latest update (empty when it has none).
 */
export interface NoticePublication {
  organizationId: string;
  statusPageId: string;
  noticeId: string;
  updateId: string | null;
  kind: NoticeKind;
  title: string;
  impact: NoticeImpact;
  status: string | null;
  bodyMarkdown: string;
  publishedAt: Date;
}

/**
 * Told of every publication inside the publishing transaction (a fan-out written there commits with the notice or
 * not at all). Composed in main.ts; a listener that throws rolls the change back.
 */
export type NoticeListener = (tx: Database, publication: NoticePublication) => Promise<void>;

/** A published notice as a public page and its feeds show it. */
export interface PublicNoticeView {
  id: string;
  kind: NoticeKind;
  title: string;
  impact: NoticeImpact;
  status: NoticeStatus | null;
  /** The page's monitors it affects, in the page's order. */
  affectedMonitorIds: string[];
  publishedAt: number;
  resolvedAt: number | null;
  /** Latest change: its last update, or its publication. */
  updatedAt: number;
  /** Newest first. */
  updates: Array<{ id: string; status: NoticeStatus | null; body: string; createdAt: number }>;
  /** Only when published. */
  postmortem: string | null;
  postmortemPublishedAt: number | null;
}
