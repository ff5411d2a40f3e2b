import { validationFailed } from '../../platform/errors.ts';
import type { Monitor } from './monitor.types.ts';

const PATCHABLE = ['name', 'target', 'interval_seconds', 'region_codes', 'tags', 'environment', 'config', 'paused'];

export function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) return body as Record<string, unknown>;
  throw validationFailed([{ field: 'body', issue: 'must be a JSON object' }]);
}

/**
 * The monitor's fields with a PATCH body applied, in the shape POST takes (validated as a whole afterwards).
 * Config merges key by key; a key set to null goes back to its default.
 */
export function mergePatch(existing: Monitor, patch: Record<string, unknown>): Record<string, unknown> {
  const details = Object.keys(patch)
    .filter((k) => !PATCHABLE.includes(k))
    .map((k) => ({
      field: k,
      issue: k === 'type' ? 'cannot be changed; create a new monitor instead' : 'is not a known field for monitors',
    }));
  if (details.length > 0) throw validationFailed(details);
  // Always a copy: `existing` may be shared (the read cache's frozen monitor) and the heartbeat rule deletes a key.
  const patchConfig = patch.config;
  const mergedConfig =
    patchConfig !== undefined && patchConfig !== null && typeof patchConfig === 'object' && !Array.isArray(patchConfig)
      ? { ...existing.config, ...(patchConfig as Record<string, unknown>) }
      : patchConfig === undefined || patchConfig === null
        ? { ...existing.config }
        : patchConfig;
  const merged: Record<string, unknown> = {
    name: existing.name,
    type: existing.type,
    target: existing.target,
    interval_seconds: existing.intervalSeconds,
    region_codes: existing.regionCodes,
    tags: existing.tags,
    environment: existing.environment,
    paused: existing.paused,
    ...patch,
    config: mergedConfig,
  };
  if (
    existing.type === 'heartbeat' &&
    patch.interval_seconds !== undefined &&
    (patchConfig as Record<string, unknown> | undefined)?.grace_seconds === undefined
  ) {
    // The default grace follows the interval unless the user chose one.
    delete (merged.config as Record<string, unknown>).grace_seconds;
  }
  return merged;
}
