import type { Finding } from './intelligence.types.ts';

/** Nagios keeps 21 states, i.e. 20 transitions (reference §3). */
const HISTORY = 21;

export interface FlappingSettings {
  /** Percent state change at or above which flapping starts (Icinga 2 default 30). */
  highPercent: number;
  /** Percent state change at or below which it stops (Icinga 2 default 25). */
  lowPercent: number;
}

export const DEFAULT_FLAPPING_SETTINGS: FlappingSettings = { highPercent: 30, lowPercent: 25 };

/** JSON-safe: the last 21 check states as a string of '0' (fine) and '1' (failed or anomalous), oldest first. */
export interface FlappingState {
  states: string;
  flapping: boolean;
}

export function newFlappingState(): FlappingState {
  return { states: '', flapping: false };
}

/**
 * Nagios `base/flapping.c`: over the 20 transitions between the last 21 states, a change at position x
 * (1 = oldest … 20 = newest) weighs 0.75 + (x − 1)·0.5/19; percent = 100 · Σw / 20.
 */
export function percentStateChange(states: string): number {
  let total = 0;
  const transitions = HISTORY - 1;
  for (let i = 1; i < states.length; i++) {
    if (states[i] === states[i - 1]) continue;
    const x = i - (states.length - HISTORY); // position among the 20 transitions of a full history
    total += 0.75 + ((x - 1) * (1.25 - 0.75)) / (transitions - 1);
  }
  return (100 * total) / transitions;
}

const FLAPPING_KEY = 'flapping';

/**
 * Records one check's state (true = failed or anomalous, false = fine, null = undecided). Nothing is judged before 21 states exist (Sensu's rule); flapping starts at
 * `highPercent` and stops at `lowPercent` (hysteresis in between).
 */
export function observeState(state: FlappingState, at: number, bad: boolean | null, s: FlappingSettings): Finding[] {
  // null = undecided (a latency in the grey zone): the state stays what it was.
  const next = bad === null ? (state.states.at(-1) ?? '0') : bad ? '1' : '0';
  state.states = (state.states + next).slice(-HISTORY);
  if (state.states.length < HISTORY) return [];
  const psc = percentStateChange(state.states);
  const rounded = Math.round(psc * 10) / 10;
  if (!state.flapping && psc >= s.highPercent) {
    state.flapping = true;
    return [
      {
        kind: 'anomaly_flapping',
        category: 'performance',
        severity: 'warning',
        summary: `Checks are flapping between normal and failing/slow: ${rounded} % state change over the last ${HISTORY} checks (starts at ${s.highPercent} %).`,
        before: null,
        after: { percent_state_change: rounded, flapping: true },
        at,
        opens: FLAPPING_KEY,
      },
    ];
  }
  if (state.flapping && psc <= s.lowPercent) {
    state.flapping = false;
    // No outbox event of its own (the spec has none for "flapping stopped"): the flapping event gets its end.
    return [
      {
        kind: 'anomaly_flapping',
        category: 'performance',
        severity: 'info',
        summary: `Flapping stopped: ${rounded} % state change (stops at ${s.lowPercent} %).`,
        before: null,
        after: { percent_state_change: rounded, flapping: false },
        at,
        closes: FLAPPING_KEY,
        endOnly: true,
      },
    ];
  }
  return [];
}
