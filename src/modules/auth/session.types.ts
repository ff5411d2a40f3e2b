import type { Organization, Role, User } from '../orgs/index.ts';

/** How long a session lives: ended after `idleMs` without a request, and `absoluteMs` after sign-in at the latest. */
export interface SessionLifetimes {
  idleMs: number;
  absoluteMs: number;
}

export const SESSION_LIFETIMES: SessionLifetimes = {
  idleMs: 14 * 24 * 3_600_000,
  absoluteMs: 30 * 24 * 3_600_000,
};

/**
 * Per-person budgets of a session, per minute (all of the person's sessions share them): above a key's defaults,
 * since one page of the app makes several calls and bulk actions one per monitor.
 */
export const SESSION_RATE_LIMITS = { read: 6000, write: 1200, delete: 600 } as const;

/** `last_seen_at` is written at most this often per session. */
export const LAST_SEEN_RESOLUTION_MS = 60_000;

/** Where a request came from (recorded with the session, shown in the sessions list). */
export interface ClientInfo {
  userAgent: string | null;
  ip: string;
  /** The request's id, for the audit log. */
  requestId?: string | null;
}

/** What a signed-in browser knows about its session. */
export interface SessionInfo {
  sessionId: string;
  user: User;
  organization: Organization;
  role: Role;
  csrfToken: string;
}

/** A new session: the cookie's token (never stored) and what it is. */
export interface SignedIn {
  token: string;
  expiresAt: number;
  info: SessionInfo;
}

export interface SessionListItem {
  id: string;
  createdAt: number;
  lastSeenAt: number;
  userAgent: string | null;
  ip: string | null;
  current: boolean;
}

/** The mail the sessions service sends (password reset links); the alerting module's mailer fits it. */
export interface SessionMailer {
  sendMail(message: {
    to: string;
    subject: string;
    text: string;
    html: string;
    headers: Record<string, string>;
  }): Promise<unknown>;
}
