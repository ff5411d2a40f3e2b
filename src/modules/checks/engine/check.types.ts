import type { Database } from '../../../platform/db/index.ts';
import type { HeartbeatRunState, Observation, ProbeTarget } from '../probes/index.ts';

/** One claimed check: what a runner needs to probe it, and the slot it runs. */
export interface ClaimedCheck {
  monitorId: string;
  organizationId: string;
  regionCode: string;
  /** The schedule slot (epoch ms); lateness = observation.started_at - dueAt. */
  dueAt: number;
  target: ProbeTarget;
  createdAt: number;
  /** heartbeat monitors: the last ping received (epoch ms), null when never. */
  lastHeartbeatAt: number | null;
  /** heartbeat monitors: the last fail and the oldest open run (absent from runners older than signals). */
  heartbeatRun?: HeartbeatRunState;
}

/** What a runner reports for one claimed check. */
export interface CheckResult {
  monitorId: string;
  regionCode: string;
  dueAt: number;
  observation: Observation;
}

/**
 * A change of a monitor's status decided by the state machine. The check engine produces it and owns the type; its
 * transition listeners (the status, the live feed, the reports timeline, incidents: composed in main.ts) consume it.
 */
export interface MonitorTransition {
  organizationId: string;
  monitorId: string;
  monitorName: string;
  from: 'pending' | 'up' | 'down' | 'degraded';
  /** `degraded` (DECISIONS §20) is not an outage: no incident; the `degraded`/`degraded_recovered` events. */
  to: 'up' | 'down' | 'degraded';
  /** Epoch ms of the verdict. */
  at: number;
  /** For down: the failing reason, e.g. "HTTP 503 (expected 200)"; for degraded: why ("checks slower than 800 ms"). */
  cause: string | null;
  executionId: string | null;
  /** For down: when the failure began (the first failing check of the run that confirmed it); see the state machine. */
  downSince?: number;
  /** The verdict's check: how long it took (ms). */
  durationMs?: number;
  /** The monitor's `config.degraded_latency_ms` (null: none). */
  degradedLatencyMs?: number | null;
}

/**
 * One step of the path from a check to an alert: called for every transition of a result batch, in the batch's
 * transaction and in the order the composition lists them. What it writes commits with the check result or not at
 * all, so a listener that throws rolls the whole batch back: only what must be consistent with the result belongs here.
 */
export interface TransitionListener {
  /** What the step is, for logs and docs ("monitor status", "incidents" …). */
  readonly name: string;
  onTransition(tx: Database, t: MonitorTransition): Promise<void>;
}

/** Where a runner gets work and sends results: the engine itself (in process) or the control plane over HTTP. */
export interface WorkSource {
  /**
   * Up to `max` checks due by now + `lookaheadMs`; may wait up to `waitMs` for work (long-poll). `signal` ends a
   * long-poll early (the runner stopping): the claim then rejects.
   */
  claim(max: number, waitMs: number, lookaheadMs?: number, signal?: AbortSignal): Promise<ClaimedCheck[]>;
  /**
   * When the next check of the source's regions is due (epoch ms; null when it has none), so an idle runner can
   * sleep until then instead of polling. Optional: a remote source long-polls instead.
   */
  nextDueAt?(): Promise<number | null>;
  /** Hands the results over; returns how many were refused (a lease that ended) and dropped. */
  submit(results: CheckResult[]): Promise<number>;
}
