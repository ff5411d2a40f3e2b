import { DATABASE_TYPES, type Monitor } from '../../../modules/monitors/index.ts';
import { toIso } from '../../../platform/clock.ts';

/**
 * RFC 3339 strings of recently presented times. A monitor's three times rarely change while it is read
 * over and over, and formatting a Date was ~3 % of a read's CPU. A pure memo, bounded: emptied when full.
 */
const isoOf = new Map<number, string>();
function iso(ms: number): string {
  let text = isoOf.get(ms);
  if (text === undefined) {
    if (isoOf.size >= 4096) isoOf.clear();
    text = toIso(ms);
    isoOf.set(ms, text);
  }
  return text;
}

const DATABASE = new Set<string>(DATABASE_TYPES);

/** The config as shown: without the write-only password (DECISIONS §20), which `password_set` stands for. */
function shownConfig(config: Monitor['config']): Monitor['config'] {
  if (!('password' in config)) return config;
  const { password: _secret, ...shown } = config;
  return shown as Monitor['config'];
}

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
    config: shownConfig(m.config),
    paused: m.paused,
    status: m.status,
    status_changed_at: iso(m.statusChangedAt),
    last_checked_at: m.lastCheckedAt === null ? null : iso(m.lastCheckedAt),
    ...(m.type === 'heartbeat' && { heartbeat_url: m.target }),
    ...(DATABASE.has(m.type) && { password_set: typeof m.config.password === 'string' }),
    ...(m.blockedBy !== undefined && m.blockedBy.length > 0 && { blocked_by: m.blockedBy }),
    created_at: iso(m.createdAt),
    updated_at: iso(m.updatedAt),
  };
}
