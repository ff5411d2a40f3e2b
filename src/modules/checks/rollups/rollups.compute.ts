import { LatencySketch } from './latency.sketch.ts';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

export function hourOf(ms: number): number {
  return Math.floor(ms / HOUR_MS) * HOUR_MS;
}

/** One execution as the rollup arithmetic sees it. */
export interface RollupInput {
  monitorKey: number;
  regionKey: number;
  startedAt: number;
  down: boolean;
  durationMs: number;
  intervalMs?: number;
}

/** The last check of a (monitor, region) series, carried across batches. */
export interface SeriesState {
  monitorKey: number;
  regionKey: number;
  lastStartedAt: number;
  lastDown: boolean;
  lastGapMs: number | null;
}

export interface RollupDelta {
  monitorKey: number;
  hourStart: number;
  regionKey: number;
  checks: number;
  failures: number;
  downtimeMs: number;
  sketch: LatencySketch;
}

export const seriesId = (monitorKey: number, regionKey: number): string => `${monitorKey}:${regionKey}`;
export const rollupId = (monitorKey: number, hourStart: number, regionKey: number): string =>
  `${monitorKey}:${hourStart}:${regionKey}`;

/**
 * Folds a batch into per-(monitor, hour, region) deltas and advances each series' state.
 *
 * Downtime rule: a failed check at t accounts for the time until the next check of the same monitor and
 * region, t_next − t, capped at the monitor's interval (or, when the record does not carry it, at the
 * previous gap between checks of that series). It is added when that next check arrives (possibly in a
 * later batch), split across the hours it covers. A check older than the series' last one (a late batch)
 * is counted but does not move the series.
 */
export function foldBatch(
  inputs: RollupInput[],
  states: Map<string, SeriesState>,
): { deltas: Map<string, RollupDelta>; changed: Map<string, SeriesState> } {
  const deltas = new Map<string, RollupDelta>();
  const changed = new Map<string, SeriesState>();
  const deltaOf = (monitorKey: number, hourStart: number, regionKey: number): RollupDelta => {
    const id = rollupId(monitorKey, hourStart, regionKey);
    let d = deltas.get(id);
    if (!d) {
      d = { monitorKey, hourStart, regionKey, checks: 0, failures: 0, downtimeMs: 0, sketch: new LatencySketch() };
      deltas.set(id, d);
    }
    return d;
  };
  const sorted = [...inputs].sort(
    (a, b) => a.monitorKey - b.monitorKey || a.regionKey - b.regionKey || a.startedAt - b.startedAt,
  );
  for (const e of sorted) {
    const d = deltaOf(e.monitorKey, hourOf(e.startedAt), e.regionKey);
    d.checks += 1;
    if (e.down) d.failures += 1;
    else d.sketch.add(e.durationMs);

    const sid = seriesId(e.monitorKey, e.regionKey);
    const state = states.get(sid);
    if (!state) {
      const fresh: SeriesState = {
        monitorKey: e.monitorKey,
        regionKey: e.regionKey,
        lastStartedAt: e.startedAt,
        lastDown: e.down,
        lastGapMs: null,
      };
      states.set(sid, fresh);
      changed.set(sid, fresh);
      continue;
    }
    if (e.startedAt <= state.lastStartedAt) continue;
    const gap = e.startedAt - state.lastStartedAt;
    if (state.lastDown) {
      const cap = e.intervalMs ?? state.lastGapMs ?? gap;
      let from = state.lastStartedAt;
      const until = from + Math.min(gap, cap);
      while (from < until) {
        const hourEnd = hourOf(from) + HOUR_MS;
        const end = Math.min(until, hourEnd);
        deltaOf(e.monitorKey, hourOf(from), e.regionKey).downtimeMs += end - from;
        from = end;
      }
    }
    state.lastGapMs = gap;
    state.lastStartedAt = e.startedAt;
    state.lastDown = e.down;
    changed.set(sid, state);
  }
  return { deltas, changed };
}
