import { toIso, toIsoOrNull } from '../../platform/clock.ts';
import type { ApiKey } from './api-key.types.ts';

/** The public JSON record of a key (DECISIONS §2), shared by the API and the `tocsin keys` command. Never the value. */
export function apiKeyView(k: ApiKey): Record<string, unknown> {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    scopes: k.scopes,
    environments: k.environments,
    expires_at: toIsoOrNull(k.expiresAt),
    rate_limits: k.rateLimits,
    created_by: k.createdBy,
    service_account_id: k.serviceAccountId,
    last_used_at: toIsoOrNull(k.lastUsedAt),
    revoked_at: toIsoOrNull(k.revokedAt),
    created_at: toIso(k.createdAt),
  };
}
