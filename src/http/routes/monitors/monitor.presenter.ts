import type { Monitor } from '../../../modules/monitors/index.ts';
import { toIso, toIsoOrNull } from '../../../platform/clock.ts';

export function presentMonitor(m: Monitor): Record<string, unknown> {
  return {
    id: m.id,
    name: m.name,
    type: m.type,
    target: m.target,
    interval_seconds: m.intervalSeconds,
    region_codes: m.regionCodes,
    tags: m.tags,
    environment: m.environment,
    config: m.config,
    paused: m.paused,
    status: m.status,
    status_changed_at: toIso(m.statusChangedAt),
    last_checked_at: toIsoOrNull(m.lastCheckedAt),
    ...(m.type === 'heartbeat' && { heartbeat_url: m.target }),
    created_at: toIso(m.createdAt),
    updated_at: toIso(m.updatedAt),
  };
}
