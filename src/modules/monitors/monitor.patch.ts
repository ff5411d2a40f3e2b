import type { ErrorDetail } from '../../platform/errors.ts';
import type { Monitor, MonitorInput, MonitorPatch } from './monitor.types.ts';

/**
 * A stored password goes only where it was given for: a PATCH that moves the monitor to another target must give
 * `config.password` again (or null to drop it), so whoever may edit a monitor cannot send its credentials to a
 * server of their own.
 */
export function credentialsFollowTarget(existing: Monitor, patch: MonitorPatch): ErrorDetail | null {
  if (patch.target === undefined || patch.target.trim() === existing.target) return null;
  if (typeof existing.config.password !== 'string' || patch.config?.password !== undefined) return null;
  return { field: 'config.password', issue: 'must be given again (or null) when the target changes' };
}

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
    patch.config?.grace_seconds === undefined &&
    !config.schedule
  ) {
    // The default grace follows the interval unless the user chose one.
    delete config.grace_seconds;
  }
  return merged;
}
