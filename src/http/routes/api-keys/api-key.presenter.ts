import type { ApiKey, KeyUsage } from '../../../modules/auth/index.ts';
import { toIso, toIsoOrNull } from '../../../platform/clock.ts';

export function presentApiKey(k: ApiKey): Record<string, unknown> {
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

export function presentUsage(u: KeyUsage): Record<string, unknown> {
  return {
    key_id: u.keyId,
    period: { from: toIso(u.from), to: toIso(u.to) },
    resolution: u.resolution,
    last_used_at: toIsoOrNull(u.lastUsedAt),
    totals: u.totals,
    data: u.buckets.map(({ start, ...counts }) => ({ start: toIso(start), ...counts })),
  };
}
