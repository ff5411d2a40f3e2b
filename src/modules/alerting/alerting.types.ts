import type { AlertEvent, DestinationType, EventType } from './destinations/index.ts';

/**
 * `logged`: the attempt ended but nothing was sent (email without an SMTP server: written to the log instead).
 * `silenced`: held back by a silence (`silenceId`), never sent. `grouped`: waits in a group (DECISIONS §17) whose
 * first delivery (`groupId`) sends them all as one message; it takes that delivery's final status when it ends.
 */
export const DELIVERY_STATUSES = [
  'pending',
  'in_flight',
  'delivered',
  'logged',
  'failed',
  'silenced',
  'grouped',
] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** A destination as stored, secrets still sealed (`sealedSecrets`). */
export interface Destination {
  id: string;
  organizationId: string;
  type: DestinationType;
  name: string;
  events: EventType[];
  /** Non-secret config fields. */
  config: Record<string, unknown>;
  /** Sealed JSON object of the secret config fields plus `signing_secret` (generic_webhook). */
  sealedSecrets: string | null;
  payloadFormat: 'standard' | 'legacy' | null;
  /** DECISIONS §17: `down`, `recovered` and `still_down` within this many seconds go as one message; 0 = off. */
  groupWindowSeconds: number;
  state: Record<string, unknown>;
  lastSuccessAt: number | null;
  lastFailureAt: number | null;
  lastFailureReason: string | null;
  needsReauthorization: boolean;
  createdAt: number;
  updatedAt: number;
}

/** Where one delivery goes: a destination, or the organization-wide email to one verified member. */
export type DeliveryTarget =
  { kind: 'destination'; destinationId: string } | { kind: 'member_email'; userId: string; email: string };

export interface DeliveryRecord {
  id: string;
  organizationId: string;
  target: DeliveryTarget;
  targetKey: string;
  eventId: string;
  eventSeq: number;
  eventType: EventType;
  monitorId: string | null;
  event: AlertEvent;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: number;
  leaseOwner: string | null;
  leaseUntil: number | null;
  lastError: string | null;
  providerReference: string | null;
  createdAt: number;
  deliveredAt: number | null;
  /** The silence that held it back (status `silenced`). */
  silenceId: string | null;
  /** The first delivery of its group (its own id for that one); null when not grouped. */
  groupId: string | null;
}

export function targetKeyOf(target: DeliveryTarget): string {
  return target.kind === 'destination' ? target.destinationId : `member:${target.userId}`;
}
