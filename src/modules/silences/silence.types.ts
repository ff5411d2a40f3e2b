/**
 * What a silence holds back. Each list that is not empty must match (monitor, tag, event, destination); within a
 * list any one entry matches. At least one list is not empty (a silence of everything is refused).
 */
export interface SilenceMatchers {
  monitorIds: string[];
  tags: string[];
  events: string[];
  destinationIds: string[];
}

export interface Silence {
  id: string;
  organizationId: string;
  matchers: SilenceMatchers;
  /** Epoch ms; the silence holds in [startsAt, endsAt). */
  startsAt: number;
  endsAt: number;
  comment: string;
  /** The user or key that created it. */
  createdBy: string;
  createdAt: number;
  updatedAt: number;
}

/** One notification about to be made: an event going to one target. */
export interface NotificationSubject {
  organizationId: string;
  eventType: string;
  monitorId: string | null;
  monitorTags: readonly string[];
  /** Null for the organization email to a member (no destination: only the other matchers apply). */
  destinationId: string | null;
}

/** Events a silence never holds: a scheduled report is not an alert, a destination's test is asked for. */
export const UNSILENCEABLE_EVENTS: readonly string[] = ['scheduled_report', 'test'];
