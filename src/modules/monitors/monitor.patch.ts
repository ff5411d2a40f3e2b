import type { Monitor, MonitorInput, MonitorPatch } from './monitor.types.ts';

/**
 * The monitor's fields with a PATCH body applied, in the shape POST takes (validated as a whole afterwards).
 * Config merges key by key; a key set to null goes back to its default.
 */
export function mergePatch(existing: Monitor, patch: MonitorPatch): MonitorInput {
  // Always a copy: the heartbeat rule below deletes a key.
  const config: Record<string, unknown> = { ...existing.config, ...patch.config };
  const merged: MonitorInput = {
    name: existing.name,
    type: existing.type,
    target: existing.target,
    interval_seconds: existing.intervalSeconds,
    region_codes: existing.regionCodes,
    tags: existing.tags,
    environment: existing.environment,
    paused: existing.paused,
    ...patch,
    config,
  };
  if (
    existing.type === 'heartbeat' &&
    patch.interval_seconds !== undefined &&
    patch.config?.grace_seconds === undefined
  ) {
    // The default grace follows the interval unless the user chose one.
    delete config.grace_seconds;
  }
  return merged;
}
