import type { IncidentDelivery } from '../../../modules/alerting/index.ts';
import type { IncidentWithDuration, IncidentWithTimeline } from '../../../modules/incidents/index.ts';
import type { IncidentCorrelation } from '../../../modules/intelligence/index.ts';
import { toIso, toIsoOrNull } from '../../../platform/clock.ts';

export function presentIncident(i: IncidentWithDuration): Record<string, unknown> {
  return {
    id: i.id,
    number: i.number,
    title: i.title,
    source: i.source,
    monitor_id: i.monitorId,
    cause: i.cause,
    status: i.status,
    opened_at: toIso(i.openedAt),
    down_since: toIso(i.outageStartedAt),
    acknowledged_at: toIsoOrNull(i.acknowledgedAt),
    acknowledged_by: i.acknowledgedBy,
    resolved_at: toIsoOrNull(i.resolvedAt),
    resolved_by: i.resolvedBy,
    duration_seconds: i.durationSeconds,
    time_to_acknowledge_seconds: i.timeToAcknowledgeSeconds,
    time_to_resolve_seconds: i.timeToResolveSeconds,
    // Only on incidents a parent held back (DECISIONS §17), so every other incident reads as before.
    ...(i.blockedBy !== null && {
      blocked_by: i.blockedBy,
      suppressed_by: i.suppressedBy,
      alert_released_at: toIsoOrNull(i.alertReleasedAt),
    }),
    created_at: toIso(i.createdAt),
    updated_at: toIso(i.updatedAt),
  };
}

export function presentIncidentDetail(
  i: IncidentWithDuration & IncidentWithTimeline,
  correlations: readonly IncidentCorrelation[],
): Record<string, unknown> {
  return {
    ...presentIncident(i),
    timeline: i.timeline.map((e) => ({
      type: e.type,
      at: toIso(e.at),
      actor: e.actor,
      actor_name: e.actorName ?? null,
      message: e.message,
    })),
    correlations: correlations.map((c) => ({
      id: c.id,
      attribute: c.attribute,
      value: c.value,
      other_monitor_ids: c.otherMonitorIds,
      summary: c.summary,
      started_at: toIso(c.startedAt),
      last_seen_at: toIso(c.lastSeenAt),
    })),
  };
}

export function presentIncidentDelivery(d: IncidentDelivery): Record<string, unknown> {
  return {
    id: d.id,
    destination: d.destination,
    member: d.member ? { user_id: d.member.userId, email: d.member.email } : null,
    event: { id: d.eventId, type: d.eventType, occurred_at: toIso(d.eventOccurredAt) },
    status: d.status,
    outcome: d.outcome,
    attempts: d.attempts,
    next_attempt_at: toIsoOrNull(d.nextAttemptAt),
    last_error: d.lastError,
    note: d.note,
    created_at: toIso(d.createdAt),
    updated_at: toIso(d.updatedAt),
    delivered_at: toIsoOrNull(d.deliveredAt),
    silence_id: d.silenceId,
    group_delivery_id: d.groupDeliveryId,
  };
}
