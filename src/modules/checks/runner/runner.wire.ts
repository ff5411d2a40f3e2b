import type { Observation, ProbeType } from '../probes/index.ts';
import type { CheckResult, ClaimedCheck } from '../engine/check.types.ts';

/** The runner protocol's JSON shapes (snake_case, times in epoch ms with an `_ms` suffix). */
export interface WireCheck {
  monitor_id: string;
  organization_id: string;
  region_code: string;
  due_at_ms: number;
  type: string;
  target: string;
  interval_seconds: number;
  config: Record<string, unknown>;
  created_at_ms: number;
  last_heartbeat_at_ms: number | null;
  /** heartbeat: the last fail and the oldest open run (epoch ms); absent for other types. */
  heartbeat_run?: { last_fail_at_ms: number | null; last_exit_code: number | null; open_since_ms: number | null };
}

export interface WireResult {
  monitor_id: string;
  region_code: string;
  due_at_ms: number;
  observation: Observation;
}

export function checkToWire(c: ClaimedCheck): WireCheck {
  return {
    monitor_id: c.monitorId,
    organization_id: c.organizationId,
    region_code: c.regionCode,
    due_at_ms: c.dueAt,
    type: c.target.type,
    target: c.target.target,
    interval_seconds: c.target.interval_seconds,
    config: c.target.config,
    created_at_ms: c.createdAt,
    last_heartbeat_at_ms: c.lastHeartbeatAt,
    ...(c.heartbeatRun && {
      heartbeat_run: {
        last_fail_at_ms: c.heartbeatRun.lastFailAt,
        last_exit_code: c.heartbeatRun.lastExitCode,
        open_since_ms: c.heartbeatRun.openSince,
      },
    }),
  };
}

export function checkFromWire(w: WireCheck): ClaimedCheck {
  return {
    monitorId: w.monitor_id,
    organizationId: w.organization_id,
    regionCode: w.region_code,
    dueAt: w.due_at_ms,
    target: {
      id: w.monitor_id,
      type: w.type as ProbeType,
      target: w.target,
      interval_seconds: w.interval_seconds,
      config: w.config,
    },
    createdAt: w.created_at_ms,
    lastHeartbeatAt: w.last_heartbeat_at_ms,
    ...(w.heartbeat_run && {
      heartbeatRun: {
        lastFailAt: w.heartbeat_run.last_fail_at_ms,
        lastExitCode: w.heartbeat_run.last_exit_code,
        openSince: w.heartbeat_run.open_since_ms,
      },
    }),
  };
}

export function resultToWire(r: CheckResult): WireResult {
  return { monitor_id: r.monitorId, region_code: r.regionCode, due_at_ms: r.dueAt, observation: r.observation };
}

export function resultFromWire(w: WireResult): CheckResult {
  return { monitorId: w.monitor_id, regionCode: w.region_code, dueAt: w.due_at_ms, observation: w.observation };
}
