/** A monitor status change decided by the state machine: the check engine owns the type. */
export type { MonitorTransition } from '../checks/index.ts';

export const INCIDENT_SOURCES = ['monitor', 'api', 'intelligence', 'manual'] as const;
export type IncidentSource = (typeof INCIDENT_SOURCES)[number];

export const INCIDENT_STATUSES = ['opened', 'acknowledged', 'resolved'] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];

export interface Incident {
  id: string;
  organizationId: string;
  /** Sequential per organization, from 1. */
  number: number;
  title: string;
  source: IncidentSource;
  monitorId: string | null;
  cause: string | null;
  status: IncidentStatus;
  openedAt: number;
  /**
   * When the outage began: the first failing check of the run that opened a monitor incident (at or before
   * `openedAt`); null for other incidents and for monitor incidents stored before it was recorded (then `openedAt`).
   */
  downSince: number | null;
  acknowledgedAt: number | null;
  acknowledgedBy: string | null;
  resolvedAt: number | null;
  /** "auto" or the id of the user/key that resolved it. */
  resolvedBy: string | null;
  /** When the last still_down reminder was recorded (monitor incidents with a reminder interval). */
  lastReminderAt: number | null;
  /**
   * DECISIONS §17: the parent monitors that were down or in maintenance when this monitor incident opened, which
   * held its alert back; null when nothing held it (every other incident).
   */
  blockedBy: string[] | null;
  /** The open incident of the (first) down parent when it was held; null otherwise (or a parent in maintenance). */
  suppressedBy: string | null;
  /**
   * Held, every parent recovered: when its alert goes out if the monitor is still down then (its own checks have had
   * time to see the recovery); null while a parent still holds it.
   */
  alertReleaseDueAt: number | null;
  /** When a held incident's alert went out (its parents had recovered, it was still down); null otherwise. */
  alertReleasedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

/**
 * Held back from alerting (DECISIONS §17): opened while a parent was down or in maintenance, and not released since.
 * Nothing was sent for it, so nothing is sent when it ends either; once released it alerts like any other.
 */
export function isHeld(incident: Pick<Incident, 'blockedBy' | 'alertReleasedAt'>): boolean {
  return incident.blockedBy !== null && incident.alertReleasedAt === null;
}

export const TIMELINE_TYPES = [
  'opened',
  'acknowledged',
  'resolved',
  'monitor_down',
  'monitor_up',
  'still_down',
  'monitor_deleted',
  'comment',
  'alert_held',
  'alert_released',
] as const;
export type TimelineType = (typeof TIMELINE_TYPES)[number];

export interface TimelineEntry {
  type: TimelineType;
  at: number;
  /** "auto" for the system, else the user/key id. */
  actor: string | null;
  /** The person's name (else email) when `actor` is a user and the name was looked up; absent otherwise. */
  actorName?: string | null;
  message: string | null;
}

export interface IncidentWithTimeline extends Incident {
  timeline: TimelineEntry[];
}

export interface IncidentFilter {
  status?: IncidentStatus;
  monitorId?: string;
  source?: IncidentSource;
  /** Incidents still open at or after this time (resolved_at null or ≥ from). */
  from?: number;
  /** Incidents opened before this time. */
  to?: number;
}

/** When the outage began: `downSince` when recorded (never after the opening), else the opening. */
export function outageStart(incident: Pick<Incident, 'openedAt' | 'downSince'>): number {
  return incident.downSince === null ? incident.openedAt : Math.min(incident.downSince, incident.openedAt);
}

/**
 * `duration_seconds`, the one meaning everywhere (incident record, reports, status pages, alert messages): from the
 * outage's start (the first failing check, `down_since`) to the resolution, or to `now` while open. The time from
 * opening to resolution is `time_to_resolve_seconds`.
 */
export function durationSeconds(
  incident: Pick<Incident, 'openedAt' | 'downSince' | 'resolvedAt'>,
  now: number,
): number {
  return Math.max(0, Math.floor(((incident.resolvedAt ?? now) - outageStart(incident)) / 1000));
}

/** Opening to resolution (null while open): `time_to_resolve_seconds`. */
export function timeToResolveSeconds(incident: Pick<Incident, 'openedAt' | 'resolvedAt'>): number | null {
  return incident.resolvedAt === null
    ? null
    : Math.max(0, Math.floor((incident.resolvedAt - incident.openedAt) / 1000));
}

/** Opening to acknowledgement (null until acknowledged): `time_to_acknowledge_seconds`. */
export function timeToAcknowledgeSeconds(incident: Pick<Incident, 'openedAt' | 'acknowledgedAt'>): number | null {
  return incident.acknowledgedAt === null
    ? null
    : Math.max(0, Math.floor((incident.acknowledgedAt - incident.openedAt) / 1000));
}
