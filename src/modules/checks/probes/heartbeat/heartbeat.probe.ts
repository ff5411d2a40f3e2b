/** Heartbeat "probe": passive, no network. Down when the last ping is older than the interval plus grace. */
import type { Observation, Probe, ProbeContext, ProbeTarget } from '../probe.contract.ts';
import { emptyTimings } from '../probe.net.ts';

/** Default grace: max(60 s, 20% of the interval). */
export function heartbeatGraceMs(interval_seconds: number, config: Record<string, unknown>): number {
  const g = config.grace_seconds;
  if (typeof g === 'number' && Number.isFinite(g) && g >= 0) return g * 1000;
  return Math.max(60, 0.2 * interval_seconds) * 1000;
}

export function createHeartbeatProbe(): Probe {
  return async function heartbeatProbe(target: ProbeTarget, ctx: ProbeContext): Promise<Observation> {
    const now = ctx.now();
    const last = ctx.lastHeartbeatAt ?? null;
    const reference = last ?? ctx.createdAt ?? now;
    const deadline =
      reference + target.interval_seconds * 1000 + heartbeatGraceMs(target.interval_seconds, target.config);
    const missed = now > deadline;
    return {
      status: missed ? 'down' : 'up',
      started_at: now,
      duration_ms: 0,
      timings: emptyTimings(0),
      http_status: null,
      assertions: [],
      error: missed
        ? {
            code: 'heartbeat_missed',
            message:
              last === null ? 'no heartbeat received yet' : `last heartbeat ${Math.round((now - last) / 1000)} s ago`,
          }
        : null,
      details: { last_heartbeat_at: last, deadline },
    };
  };
}
