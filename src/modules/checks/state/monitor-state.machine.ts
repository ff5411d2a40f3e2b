/**
 * The monitor state machine: pure, no I/O. Given the monitor's current status, its per-region
 * consecutive counters and one new result, it returns the new counters and, when the monitor's
 * status changes, the transition with its cause.
 *
 * Rules (DECISIONS §4):
 * - each region counts its own consecutive successes and failures;
 * - the monitor goes down when at least `confirm` regions have `failure_threshold` consecutive failures,
 *   where `confirm = confirmRegionsOf(config, regions with data)`;
 * - it goes up (from pending or down) when at least `confirm` regions have `success_threshold`
 *   consecutive successes and the down condition does not hold;
 * - only regions "with data" count: a region whose last result is older than `staleAfterMs`
 *   (no live runner) shows no data and is left out of the quorum instead of counting as down;
 * - a paused monitor ignores results; pausing or resuming resets the counters.
 *
 * Degraded (DECISIONS §20), not an outage: a region is impaired when its last `failure_threshold` results were all slow
 * (a success over `degraded_latency_ms`) or failed. When the down condition does not hold and at least one region
 * with data is impaired (a slow monitor, or failures in fewer regions than `confirm`), the monitor is `degraded`:
 * from up at once, from pending or down once the usual recovery rule holds (`confirm` regions with
 * `success_threshold` consecutive successes). It is `up` again when every region with data has `success_threshold`
 * consecutive fast successes. Down wins over degraded.
 */

/** The thresholds of a monitor whose config has none (the engine judges with these; the runner's urgency too). */
export const DEFAULT_FAILURE_THRESHOLD = 2;
export const DEFAULT_SUCCESS_THRESHOLD = 1;

export type MonitorCheckStatus = 'pending' | 'up' | 'down' | 'paused' | 'degraded';

export interface RegionCounters {
  regionCode: string;
  successes: number;
  failures: number;
  /** Epoch ms of the last result in this region; null when none yet. */
  lastAt: number | null;
  lastStatus: 'up' | 'down' | null;
  /** Why the last failing result failed ("HTTP 503 (expected 200)"); null after a success. */
  lastCause: string | null;
  /** Epoch ms of the first failure of the current run of failures; null after a success (absent: unknown). */
  failingSince?: number | null;
  /** Consecutive results that were slow or failed (absent: taken as `failures`). */
  impaired?: number;
  /** Consecutive fast successes (absent: taken as `successes`). */
  fast?: number;
}

export interface MachineMonitor {
  status: MonitorCheckStatus;
  regionCodes: readonly string[];
  failureThreshold: number;
  successThreshold: number;
  /** `confirmRegionsOf(config, n)`; called with the number of regions that have data. */
  confirmRegions(regionsWithData: number): number;
  /** `config.degraded_latency_ms`, for the cause text of a slow monitor; absent = unknown. */
  degradedLatencyMs?: number | null;
}

export interface MachineResult {
  regionCode: string;
  status: 'up' | 'down';
  at: number;
  cause: string | null;
  /** A success slower than the monitor's `degraded_latency_ms`; absent = fast. */
  slow?: boolean;
}

export interface MachineTransition {
  from: 'pending' | 'up' | 'down' | 'degraded';
  to: 'up' | 'down' | 'degraded';
  at: number;
  cause: string | null;
  /**
   * For down: when the monitor-level failure began, i.e. the moment `confirm` regions were all in their current
   * run of failures (the confirm-th earliest first failure of the failing regions). Downtime counts from here
   * (DECISIONS §11), not from `at`, the check that reached `failure_threshold`.
   */
  downSince?: number;
}

export interface MachineOutput {
  /** Counters after this result, for every region of the monitor (unchanged ones included). */
  regions: RegionCounters[];
  /** The updated region's counters (what to persist). */
  updated: RegionCounters | null;
  transition: MachineTransition | null;
  status: MonitorCheckStatus;
}

export function emptyCounters(regionCode: string): RegionCounters {
  return {
    regionCode,
    successes: 0,
    failures: 0,
    lastAt: null,
    lastStatus: null,
    lastCause: null,
    failingSince: null,
    impaired: 0,
    fast: 0,
  };
}

function hasData(c: RegionCounters, at: number, staleAfterMs: number): boolean {
  return c.lastAt !== null && at - c.lastAt <= staleAfterMs;
}

/** Applies one result. `staleAfterMs` decides which regions still have data at `result.at`. */
export function applyResult(
  monitor: MachineMonitor,
  current: readonly RegionCounters[],
  result: MachineResult,
  staleAfterMs: number,
): MachineOutput {
  const byRegion = new Map(current.map((c) => [c.regionCode, c]));
  const regions = monitor.regionCodes.map((code) => byRegion.get(code) ?? emptyCounters(code));
  if (monitor.status === 'paused' || !monitor.regionCodes.includes(result.regionCode)) {
    return { regions, updated: null, transition: null, status: monitor.status };
  }
  const prev = regions.find((r) => r.regionCode === result.regionCode)!;
  // An older result than the one already applied (late delivery) must not rewind the counters.
  if (prev.lastAt !== null && result.at < prev.lastAt) {
    return { regions, updated: null, transition: null, status: monitor.status };
  }
  const updated: RegionCounters =
    result.status === 'up'
      ? {
          regionCode: result.regionCode,
          successes: prev.successes + 1,
          failures: 0,
          lastAt: result.at,
          lastStatus: 'up',
          lastCause: null,
          failingSince: null,
          impaired: result.slow ? impairedOf(prev) + 1 : 0,
          fast: result.slow ? 0 : fastOf(prev) + 1,
        }
      : {
          regionCode: result.regionCode,
          successes: 0,
          failures: prev.failures + 1,
          lastAt: result.at,
          lastStatus: 'down',
          lastCause: result.cause,
          // Counters saved before this field existed have no start: the run is taken to start at its last failure.
          failingSince: prev.failures === 0 ? result.at : (prev.failingSince ?? prev.lastAt ?? result.at),
          impaired: impairedOf(prev) + 1,
          fast: 0,
        };
  const next = regions.map((r) => (r.regionCode === result.regionCode ? updated : r));
  const withData = next.filter((r) => hasData(r, result.at, staleAfterMs));
  const confirm = Math.max(1, Math.min(monitor.confirmRegions(withData.length), withData.length));
  const failing = withData.filter((r) => r.failures >= monitor.failureThreshold);
  const passing = withData.filter((r) => r.successes >= monitor.successThreshold);
  const from = monitor.status;
  const impaired = withData.filter((r) => impairedOf(r) >= monitor.failureThreshold);
  const allFast = withData.every((r) => fastOf(r) >= monitor.successThreshold);
  let to: 'up' | 'down' | 'degraded' | null = null;
  if (failing.length >= confirm) {
    if (from !== 'down') to = 'down';
  } else if (from === 'up') {
    if (impaired.length > 0) to = 'degraded';
  } else if (from === 'degraded') {
    if (impaired.length === 0 && allFast) to = 'up';
  } else if (passing.length >= confirm) {
    // pending or down: recovered; degraded while a region is still impaired (slow, or failing unconfirmed).
    to = impaired.length > 0 ? 'degraded' : 'up';
  }
  if (to === null) return { regions: next, updated, transition: null, status: from };
  let cause: string | null = null;
  let downSince: number | undefined;
  if (to === 'degraded') cause = degradedCause(monitor, impaired, withData.length);
  if (to === 'down') {
    const starts = failing.map((r) => r.failingSince ?? r.lastAt ?? result.at).sort((a, b) => a - b);
    downSince = starts[confirm - 1] ?? result.at;
    const latest = failing.reduce((a, b) => ((b.lastAt ?? 0) > (a.lastAt ?? 0) ? b : a));
    const base = latest.lastCause ?? 'check failed';
    cause =
      monitor.regionCodes.length > 1
        ? `${base} (failing in ${failing.length} of ${withData.length} regions: ${failing.map((r) => r.regionCode).join(', ')})`
        : base;
  }
  return {
    regions: next,
    updated,
    transition: {
      from: from as 'pending' | 'up' | 'down' | 'degraded',
      to,
      at: result.at,
      cause,
      ...(downSince !== undefined && { downSince }),
    },
    status: to,
  };
}

function impairedOf(c: RegionCounters): number {
  return c.impaired ?? c.failures;
}

function fastOf(c: RegionCounters): number {
  return c.fast ?? c.successes;
}

/** Why the monitor is degraded: "slow" or "failing in 1 of 3 regions: eu" (the regions that fail, else the slow ones). */
function degradedCause(monitor: MachineMonitor, impaired: readonly RegionCounters[], withData: number): string {
  const failing = impaired.filter((r) => r.lastStatus === 'down');
  if (failing.length > 0) {
    const latest = failing.reduce((a, b) => ((b.lastAt ?? 0) > (a.lastAt ?? 0) ? b : a));
    const names = failing.map((r) => r.regionCode).join(', ');
    return `${latest.lastCause ?? 'check failed'} (failing in ${failing.length} of ${withData} regions: ${names})`;
  }
  const slow =
    monitor.degradedLatencyMs != null ? `checks slower than ${monitor.degradedLatencyMs} ms` : 'checks too slow';
  if (monitor.regionCodes.length <= 1) return slow;
  return `${slow} (in ${impaired.length} of ${withData} regions: ${impaired.map((r) => r.regionCode).join(', ')})`;
}

/** Counters after a pause, a resume or a change of regions: everything starts over. */
export function resetCounters(regionCodes: readonly string[]): RegionCounters[] {
  return regionCodes.map(emptyCounters);
}
