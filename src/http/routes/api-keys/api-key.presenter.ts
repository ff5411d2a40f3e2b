import { apiKeyView, type KeyUsage } from '../../../modules/auth/index.ts';
import { toIso, toIsoOrNull } from '../../../platform/clock.ts';

/** The key record as the API returns it (the same view the CLI prints). */
export const presentApiKey = apiKeyView;

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
