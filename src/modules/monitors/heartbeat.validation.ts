import {
  canFire,
  CronSyntaxError,
  isIanaZone,
  parseCron,
  shortestGapSeconds,
  type CronExpression,
} from '../../platform/cron/cron.expression.ts';
import type { ErrorDetail } from '../../platform/errors.ts';

const SLUG = /^[a-z0-9](?:[a-z0-9_-]{0,62}[a-z0-9])?$/;

function given(config: Record<string, unknown>, key: string): boolean {
  return config[key] !== undefined && config[key] !== null;
}

function cronIssue(
  expression: string,
  floorSeconds: number,
  now: number,
): { issue: string } | { cron: CronExpression } {
  let cron: CronExpression;
  try {
    cron = parseCron(expression);
  } catch (error) {
    if (error instanceof CronSyntaxError) return { issue: error.message };
    throw error;
  }
  if (!canFire(cron)) return { issue: 'never fires (no month has that day)' };
  const gap = shortestGapSeconds(cron, now);
  if (gap === null) return { issue: 'never fires' };
  if (gap < floorSeconds) {
    return { issue: `fires every ${gap} seconds at its fastest; the plan's interval floor is ${floorSeconds} seconds` };
  }
  return { cron };
}

/**
 * `config` of a heartbeat monitor (DECISIONS §20). Without `schedule` (monitors made before schedules) a ping is due
 * every interval and the grace defaults to max(60 s, 20% of it), as before. With one: `{every_seconds}` or
 * `{cron, timezone}` (an IANA zone, UTC by default), neither faster than the plan's floor, a cron that fires at
 * all; grace 60 s and one failed check to go down unless given (the grace is the tolerance).
 */
export function heartbeatConfig(
  c: Record<string, unknown>,
  interval: number,
  floorSeconds: number,
  now: number,
  details: ErrorDetail[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const schedule = given(c, 'schedule') ? (c.schedule as Record<string, unknown>) : null;
  if (schedule !== null) {
    const every = schedule.every_seconds;
    const cron = schedule.cron;
    if ((every === undefined) === (cron === undefined)) {
      details.push({ field: 'config.schedule', issue: 'must have either every_seconds or cron' });
    } else if (typeof every === 'number') {
      if (schedule.timezone !== undefined) {
        details.push({ field: 'config.schedule.timezone', issue: 'only goes with cron' });
      }
      if (every < floorSeconds) {
        details.push({
          field: 'config.schedule.every_seconds',
          issue: `must be at least the plan's interval floor (${floorSeconds} seconds)`,
        });
      }
      out.schedule = { every_seconds: every };
    } else if (typeof cron === 'string') {
      const timezone = typeof schedule.timezone === 'string' ? schedule.timezone : 'UTC';
      if (!isIanaZone(timezone)) {
        details.push({ field: 'config.schedule.timezone', issue: 'must be an IANA time zone such as Europe/Paris' });
      }
      const judged = cronIssue(cron, floorSeconds, now);
      if ('issue' in judged) details.push({ field: 'config.schedule.cron', issue: judged.issue });
      out.schedule = { cron: cron.trim(), timezone };
    }
  }
  const grace = given(c, 'grace_seconds') ? c.grace_seconds : schedule ? 60 : Math.max(60, Math.round(interval * 0.2));
  out.grace_seconds = grace;
  if (schedule !== null && !given(c, 'failure_threshold')) out.failure_threshold = 1;
  if (given(c, 'max_run_seconds')) out.max_run_seconds = c.max_run_seconds;
  if (given(c, 'slug')) {
    if (typeof c.slug !== 'string' || !SLUG.test(c.slug)) {
      details.push({ field: 'config.slug', issue: 'must be 1-64 lower-case letters, digits, _ or -' });
    }
    out.slug = c.slug;
  }
  return out;
}
