import { resourceChange, type AuditChange } from '../audit/index.ts';
import type { Monitor } from './monitor.types.ts';

/** State the check engine writes (and `blockedBy`, derived from it on reads): not part of what a person changed. */
const ENGINE_FIELDS = ['status', 'statusChangedAt', 'lastCheckedAt', 'createdAt', 'blockedBy'] as const;

/** The audit entry of a monitor's change (`before` null on create, `after` null on delete). */
export function monitorChange(action: string, before: Monitor | null, after: Monitor | null): AuditChange {
  return resourceChange(action, 'monitor', before, after, { omit: ENGINE_FIELDS });
}
