import type { DestinationView, TestResult } from '../../../modules/alerting/index.ts';
import { toIso, toIsoOrNull } from '../../../platform/clock.ts';

export function presentDestination(v: DestinationView): Record<string, unknown> {
  const d = v.destination;
  return {
    id: d.id,
    type: d.type,
    name: d.name,
    events: d.events,
    config: v.maskedConfig,
    payload_format: d.type === 'generic_webhook' ? (d.payloadFormat ?? 'standard') : null,
    group_window_seconds: d.groupWindowSeconds,
    monitor_ids: v.monitorIds,
    last_success_at: toIsoOrNull(d.lastSuccessAt),
    last_failure_at: toIsoOrNull(d.lastFailureAt),
    last_failure_reason: d.lastFailureReason,
    needs_reauthorization: d.needsReauthorization,
    created_at: toIso(d.createdAt),
    updated_at: toIso(d.updatedAt),
    ...(v.signingSecret !== undefined && { signing_secret: v.signingSecret }),
  };
}

export function presentTestResult(r: TestResult): Record<string, unknown> {
  const outcome =
    r.status === 'delivered' || r.status === 'logged' || r.status === 'failed'
      ? r.status
      : r.attempts > 0
        ? 'retrying'
        : 'queued';
  return {
    delivery_id: r.deliveryId,
    outcome,
    attempts: r.attempts,
    error: r.error,
    note: r.note,
    destination: presentDestination(r.destination),
  };
}
