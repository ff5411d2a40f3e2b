import {
  DEFAULT_FLAPPING_SETTINGS,
  newFlappingState,
  observeState,
  type FlappingSettings,
  type FlappingState,
} from './flapping.detector.ts';
import type { Finding } from './intelligence.types.ts';
import {
  DEFAULT_BASELINE_SETTINGS,
  newBaselineState,
  observeLatency,
  type BaselineSettings,
  type BaselineState,
} from './latency.baseline.ts';
import {
  DEFAULT_THRESHOLD_SETTINGS,
  newThresholdState,
  observeThreshold,
  type ThresholdSettings,
  type ThresholdState,
} from './latency.threshold.ts';

export interface LatencySettings {
  baseline: BaselineSettings;
  flapping: FlappingSettings;
  threshold: ThresholdSettings;
}

export const DEFAULT_LATENCY_SETTINGS: LatencySettings = {
  baseline: DEFAULT_BASELINE_SETTINGS,
  flapping: DEFAULT_FLAPPING_SETTINGS,
  threshold: DEFAULT_THRESHOLD_SETTINGS,
};

/** Everything intelligence remembers about one monitor+region's checks (JSON-safe, stored per pair). */
export interface LatencyState {
  baseline: BaselineState;
  flapping: FlappingState;
  threshold: ThresholdState;
}

export function newLatencyState(): LatencyState {
  return { baseline: newBaselineState(), flapping: newFlappingState(), threshold: newThresholdState() };
}

/** One check as intelligence sees it. */
export interface CheckSample {
  at: number;
  up: boolean;
  /** Total duration of the check; judged only when it succeeded. */
  latencyMs: number;
}

/**
 * One check of one monitor+region through the three latency watches: the baseline anomaly, flapping of
 * (failed or anomalous) states, and the `alert_latency_ms` line. Pure apart from mutating `state`.
 */
export function observeCheck(
  state: LatencyState,
  check: CheckSample,
  alertLatencyMs: number | null,
  s: LatencySettings = DEFAULT_LATENCY_SETTINGS,
): Finding[] {
  const findings: Finding[] = [];
  let bad: boolean | null = true;
  if (check.up) {
    const step = observeLatency(state.baseline, check.at, check.latencyMs, s.baseline, state.flapping.flapping);
    bad = step.outlier ? true : step.normal ? false : null;
    findings.push(...step.findings);
    if (alertLatencyMs !== null)
      findings.push(...observeThreshold(state.threshold, check.at, check.latencyMs, alertLatencyMs, s.threshold));
  }
  findings.push(...observeState(state.flapping, check.at, bad, s.flapping));
  return findings;
}
