import { resourceChange, type AuditChange } from '../audit/index.ts';
import type { Destination } from './alerting.types.ts';

/** Delivery bookkeeping, not part of what a person changed. */
const DELIVERY_FIELDS = ['state', 'lastSuccessAt', 'lastFailureAt', 'lastFailureReason', 'createdAt'] as const;

/**
 * The audit entry of a destination's change. The sealed secret fields (tokens, signing secret) show only that
 * they were written, as "[redacted]"; the clear config is compared field by field (secret-named fields masked).
 */
export function destinationChange(action: string, before: Destination | null, after: Destination | null): AuditChange {
  return resourceChange(action, 'destination', before, after, {
    omit: DELIVERY_FIELDS,
    secretFields: ['sealedSecrets'],
  });
}
