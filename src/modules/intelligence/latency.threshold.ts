import type { Finding } from './intelligence.types.ts';
import { plural } from '../../platform/plural.ts';

export interface ThresholdSettings {
  /** Consecutive checks above `alert_latency_ms` before performance_anomaly. */
  checksAbove: number;
  /** Consecutive checks at or below it before performance_recovered. */
  checksBelow: number;
}

export const DEFAULT_THRESHOLD_SETTINGS: ThresholdSettings = { checksAbove: 3, checksBelow: 3 };

/** JSON-safe state of a monitor+region's `alert_latency_ms` watch. */
export interface ThresholdState {
  above: boolean;
  /** Consecutive checks on the other side of the line than `above` says, and when the first was. */
  streak: number;
  streakSince: number;
  /** Slowest latency of the current slow period. */
  peakMs: number;
}

export function newThresholdState(): ThresholdState {
  return { above: false, streak: 0, streakSince: 0, peakMs: 0 };
}

const THRESHOLD_KEY = 'alert_latency';

/**
 * Hysteresis on `alert_latency_ms`: one slow (or one fast) check changes nothing. A failed check has no
 * latency worth judging and is skipped by the caller.
 */
export function observeThreshold(
  state: ThresholdState,
  at: number,
  latencyMs: number,
  thresholdMs: number,
  s: ThresholdSettings,
): Finding[] {
  const slow = latencyMs > thresholdMs;
  if (state.above) state.peakMs = Math.max(state.peakMs, latencyMs);
  if (slow === state.above) {
    state.streak = 0;
    return [];
  }
  if (state.streak === 0) state.streakSince = at;
  state.streak++;
  if (slow && state.streak >= s.checksAbove) {
    state.above = true;
    state.streak = 0;
    state.peakMs = latencyMs;
    return [
      {
        kind: 'performance_anomaly',
        category: 'performance',
        severity: 'warning',
        summary: `Response time ${Math.round(latencyMs)} ms is above alert_latency_ms ${thresholdMs} ms (${plural(s.checksAbove, 'check')} in a row).`,
        before: { threshold_ms: thresholdMs },
        after: { latency_ms: Math.round(latencyMs), threshold_ms: thresholdMs },
        at: state.streakSince,
        opens: THRESHOLD_KEY,
      },
    ];
  }
  if (!slow && state.streak >= s.checksBelow) {
    const peak = state.peakMs;
    state.above = false;
    state.streak = 0;
    state.peakMs = 0;
    return [
      {
        kind: 'performance_recovered',
        category: 'performance',
        severity: 'info',
        summary: `Response time back to ${Math.round(latencyMs)} ms, within alert_latency_ms ${thresholdMs} ms (${plural(s.checksBelow, 'check')} in a row; slowest was ${Math.round(peak)} ms).`,
        before: { peak_ms: Math.round(peak), threshold_ms: thresholdMs },
        after: { latency_ms: Math.round(latencyMs), threshold_ms: thresholdMs },
        at,
        closes: THRESHOLD_KEY,
      },
    ];
  }
  return [];
}
