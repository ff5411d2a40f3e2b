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
 */

export type MonitorCheckStatus = 'pending' | 'up' | 'down' | 'paused';

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
}

export interface MachineMonitor {
  status: MonitorCheckStatus;
  regionCodes: readonly string[];
  failureThreshold: number;
  successThreshold: number;
  /** `confirmRegionsOf(config, n)`; called with the number of regions that have data. */
  confirmRegions(regionsWithData: number): number;
}

export interface MachineResult {
  regionCode: string;
  status: 'up' | 'down';
  at: number;
  cause: string | null;
}

export interface MachineTransition {
  from: 'pending' | 'up' | 'down';
  to: 'up' | 'down';
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
  return { regionCode, successes: 0, failures: 0, lastAt: null, lastStatus: null, lastCause: null, failingSince: null };
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
        };
  const next = regions.map((r) => (r.regionCode === result.regionCode ? updated : r));
  const withData = next.filter((r) => hasData(r, result.at, staleAfterMs));
  const confirm = Math.max(1, Math.min(monitor.confirmRegions(withData.length), withData.length));
  const failing = withData.filter((r) => r.failures >= monitor.failureThreshold);
  const passing = withData.filter((r) => r.successes >= monitor.successThreshold);
  const from = monitor.status;
  let to: 'up' | 'down' | null = null;
  if (failing.length >= confirm) {
    if (from !== 'down') to = 'down';
  } else if (passing.length >= confirm && from !== 'up') {
    to = 'up';
  }
  if (to === null) return { regions: next, updated, transition: null, status: from };
  let cause: string | null = null;
  let downSince: number | undefined;
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
      from: from as 'pending' | 'up' | 'down',
      to,
      at: result.at,
      cause,
      ...(downSince !== undefined && { downSince }),
    },
    status: to,
  };
}

/** Counters after a pause, a resume or a change of regions: everything starts over. */
export function resetCounters(regionCodes: readonly string[]): RegionCounters[] {
  return regionCodes.map(emptyCounters);
}
