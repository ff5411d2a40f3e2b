import type { ExecutionRecord } from '../../../modules/checks/index.ts';
import { toIso } from '../../../platform/clock.ts';

/** `inMaintenance`: whether a maintenance window covered the monitor when the check started (DECISIONS §16). */
export function presentExecution(e: ExecutionRecord, inMaintenance = false): Record<string, unknown> {
  return {
    id: e.id,
    monitor_id: e.monitorId,
    region_code: e.regionCode,
    started_at: toIso(e.startedAt),
    status: e.status,
    duration_ms: e.durationMs,
    timings: e.timings,
    http_status: e.httpStatus,
    assertions: e.assertions,
    error: e.error,
    details: e.details ?? null,
    in_maintenance: inMaintenance,
  };
}
