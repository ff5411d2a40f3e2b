import { nextFire, parseCron } from '../../../../platform/cron/cron.expression.ts';

/** `config.schedule` of a heartbeat monitor: a fixed period or a cron expression in an IANA zone. */
export type HeartbeatSchedule = { every_seconds: number } | { cron: string; timezone: string };

/** The schedule a config holds; null for heartbeat monitors made before schedules existed (every interval). */
export function scheduleOf(config: Record<string, unknown>): HeartbeatSchedule | null {
  const s = config.schedule as Record<string, unknown> | null | undefined;
  if (!s || typeof s !== 'object') return null;
  if (typeof s.every_seconds === 'number') return { every_seconds: s.every_seconds };
  if (typeof s.cron === 'string') {
    return { cron: s.cron, timezone: typeof s.timezone === 'string' ? s.timezone : 'UTC' };
  }
  return null;
}

/** Default grace: 60 s with a schedule; without one (older monitors) max(60 s, 20% of the interval). */
export function heartbeatGraceMs(interval_seconds: number, config: Record<string, unknown>): number {
  const g = config.grace_seconds;
  if (typeof g === 'number' && Number.isFinite(g) && g >= 0) return g * 1000;
  if (scheduleOf(config)) return 60_000;
  return Math.max(60, 0.2 * interval_seconds) * 1000;
}

/** When the ping after `reference` (epoch ms) is due: the period's end or the cron's next fire. Null: never. */
export function nextExpectedPing(
  target: { interval_seconds: number; config: Record<string, unknown> },
  reference: number,
): number | null {
  const schedule = scheduleOf(target.config);
  if (!schedule) return reference + target.interval_seconds * 1000;
  if ('every_seconds' in schedule) return reference + schedule.every_seconds * 1000;
  try {
    return nextFire(parseCron(schedule.cron), reference, schedule.timezone);
  } catch {
    return null; // validated on save; a stored expression that no longer parses never makes the monitor late
  }
}

/** The moment a monitor whose last ping was at `reference` is late: the next expected ping plus the grace. */
export function heartbeatDeadline(
  target: { interval_seconds: number; config: Record<string, unknown> },
  reference: number,
): number {
  const next = nextExpectedPing(target, reference);
  return next === null ? Number.POSITIVE_INFINITY : next + heartbeatGraceMs(target.interval_seconds, target.config);
}
