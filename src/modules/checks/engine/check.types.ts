import type { Database } from '../../../platform/db/index.ts';
import type { Observation, ProbeTarget } from '../probes/index.ts';
import type { MonitorTransition } from '../../incidents/index.ts';

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
}

/** What a runner reports for one claimed check. */
export interface CheckResult {
  monitorId: string;
  regionCode: string;
  dueAt: number;
  observation: Observation;
}

/** A change of a monitor's status decided by the state machine; the incidents module owns the type. */
export type { MonitorTransition } from '../../incidents/index.ts';

/** Called inside the transaction that sets the monitor's status (IncidentsService implements it). */
export interface TransitionHandler {
  handleMonitorTransition(tx: Database, t: MonitorTransition): Promise<void>;
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
