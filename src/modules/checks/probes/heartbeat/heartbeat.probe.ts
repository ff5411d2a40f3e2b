/**
 * Heartbeat "probe": passive, no network. Down on a fail signal newer than the last success, on a run open longer
 * than `max_run_seconds`, or when the ping due after the last one is later than the grace.
 */
import type { Observation, Probe, ProbeContext, ProbeError, ProbeTarget } from '../probe.contract.ts';
import { emptyTimings } from '../probe.net.ts';
import { heartbeatDeadline } from './heartbeat.schedule.ts';

export { heartbeatDeadline, heartbeatGraceMs, nextExpectedPing, scheduleOf } from './heartbeat.schedule.ts';
export type { HeartbeatSchedule } from './heartbeat.schedule.ts';

function verdict(target: ProbeTarget, ctx: ProbeContext, now: number, deadline: number): ProbeError | null {
  const last = ctx.lastHeartbeatAt ?? null;
  const run = ctx.heartbeatRun;
  if (run?.lastFailAt != null && last !== null && run.lastFailAt >= last) {
    return {
      code: 'heartbeat_failed',
      message:
        run.lastExitCode != null ? `the job failed (exit code ${run.lastExitCode})` : 'the job reported a failure',
    };
  }
  const maxRun = target.config.max_run_seconds;
  if (typeof maxRun === 'number' && run?.openSince != null && now > run.openSince + maxRun * 1000) {
    return {
      code: 'heartbeat_ran_too_long',
      message: `ran too long: started ${Math.round((now - run.openSince) / 1000)} s ago (max ${maxRun} s)`,
    };
  }
  if (now <= deadline) return null;
  return {
    code: 'heartbeat_missed',
    message: last === null ? 'no heartbeat received yet' : `last heartbeat ${Math.round((now - last) / 1000)} s ago`,
  };
}

export function createHeartbeatProbe(): Probe {
  return async function heartbeatProbe(target: ProbeTarget, ctx: ProbeContext): Promise<Observation> {
    const now = ctx.now();
    const last = ctx.lastHeartbeatAt ?? null;
    const reference = last ?? ctx.createdAt ?? now;
    const deadline = heartbeatDeadline(target, reference);
    const error = verdict(target, ctx, now, deadline);
    return {
      status: error ? 'down' : 'up',
      started_at: now,
      duration_ms: 0,
      timings: emptyTimings(0),
      http_status: null,
      assertions: [],
      error,
      details: { last_heartbeat_at: last, deadline: Number.isFinite(deadline) ? deadline : null },
    };
  };
}
