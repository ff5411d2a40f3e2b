import type { Finding } from './intelligence.types.ts';
import { median, medianAbsoluteDeviation, robustZ } from './robust.stats.ts';

const HOUR_MS = 3_600_000;
const WEEK_HOURS = 168;

/**
 * How the latency baseline judges (docs/intelligence.md "Latency baseline"; numbers from
 * ../shared/reference/intelligence.md §4).
 */
export interface BaselineSettings {
  /** Robust z-score above which a check is an outlier (Iglewicz & Hoaglin: 3.5). */
  zThreshold: number;
  /** An outlier must also exceed the median by this fraction (Grafana's ±0.5·median margin band). */
  marginFraction: number;
  /** Closed hours of history before anything is judged ("no events while history is too short"). */
  minHistoryHours: number;
  /** Hours of hourly summaries the rolling baseline spans (Grafana robust: 1 day). */
  windowHours: number;
  /** An anomaly opens only after outliers persist this long (Grafana `for: 5m`). */
  minDurationMs: number;
  /** An open anomaly closes after this long without outliers (Datadog: recovery window = trigger window). */
  recoveryMs: number;
  /** Hour-of-week seasonality takes over once this much history exists (two weeks) … */
  seasonalAfterMs: number;
  /** … and that hour-of-week has been seen in at least this many weeks. */
  seasonalMinWeeks: number;
  /** Checks of an hour needed for its summary to count. */
  minChecksPerHour: number;
}

export const DEFAULT_BASELINE_SETTINGS: BaselineSettings = {
  zThreshold: 3.5,
  marginFraction: 0.5,
  minHistoryHours: 2,
  windowHours: 24,
  minDurationMs: 5 * 60_000,
  recoveryMs: 5 * 60_000,
  seasonalAfterMs: 14 * 24 * HOUR_MS,
  seasonalMinWeeks: 2,
  minChecksPerHour: 5,
};

/** An hour's latency: [hour start (epoch ms), median, MAD]. */
type HourSummary = [number, number, number];
/** One hour-of-week: [median, MAD, weeks seen], medians and MADs averaged over weeks (newest weighs 1/3). */
type SeasonalBucket = [number, number, number];

export type AnomalyPhase = 'normal' | 'pending' | 'open' | 'recovering';

/** JSON-safe state of one monitor+region's baseline. */
export interface BaselineState {
  firstAt: number | null;
  /** Start of the hour being collected, and its samples. */
  hourStart: number | null;
  hourSamples: number[];
  hours: HourSummary[];
  /** Indexed by hour of week (0 = Monday 00:00 UTC); null until seen. */
  seasonal: Array<SeasonalBucket | null>;
  phase: AnomalyPhase;
  phaseSince: number;
  /** When the open anomaly began, and its worst latency. */
  openedAt: number | null;
  peakMs: number;
  /** Whether anomaly_alert went out for the open anomaly (it is held back while flapping). */
  alerted: boolean;
  /** The expectation of the current hour, computed once per hour (it only changes when an hour closes). */
  memo?: { hour: number; expected: Expectation | null };
}

export function newBaselineState(): BaselineState {
  return {
    firstAt: null,
    hourStart: null,
    hourSamples: [],
    hours: [],
    seasonal: [],
    phase: 'normal',
    phaseSince: 0,
    openedAt: null,
    peakMs: 0,
    alerted: false,
  };
}

/** Monday 00:00 UTC = 0 … Sunday 23:00 = 167 (1970-01-01 was a Thursday). */
export function hourOfWeek(at: number): number {
  return (Math.floor(at / HOUR_MS) + 72) % WEEK_HOURS;
}

export interface Expectation {
  median: number;
  mad: number;
  source: 'rolling' | 'seasonal';
}

/** What latency is expected at `at`, or null while there is too little history to judge. */
export function expectationAt(state: BaselineState, at: number, s: BaselineSettings): Expectation | null {
  if (state.firstAt !== null && at - state.firstAt >= s.seasonalAfterMs) {
    const bucket = state.seasonal[hourOfWeek(at)];
    if (bucket && bucket[2] >= s.seasonalMinWeeks) return { median: bucket[0], mad: bucket[1], source: 'seasonal' };
  }
  const recent = state.hours.filter((h) => h[0] >= at - s.windowHours * HOUR_MS);
  if (recent.length < s.minHistoryHours) return null;
  return { median: median(recent.map((h) => h[1])), mad: median(recent.map((h) => h[2])), source: 'rolling' };
}

export function isOutlier(latencyMs: number, e: Expectation, s: BaselineSettings): boolean {
  return robustZ(latencyMs, e.median, e.mad) > s.zThreshold && latencyMs > e.median * (1 + s.marginFraction);
}

/**
 * Clearly inside the band: half the z-score or half the margin. Between this and an outlier is a grey zone
 * where a series sitting on the band's edge (a drift, noise) would otherwise count as flapping.
 */
export function isClearlyNormal(latencyMs: number, e: Expectation, s: BaselineSettings): boolean {
  return robustZ(latencyMs, e.median, e.mad) <= s.zThreshold / 2 || latencyMs <= e.median * (1 + s.marginFraction / 2);
}

const tenth = (n: number) => Math.round(n * 10) / 10;

/**
 * Summarises the hour being collected. New arrays are made instead of changing the old ones: a process may keep
 * the learnt arrays decoded between batches, and a batch that rolls back must leave them as they were.
 */
function closeHour(state: BaselineState, s: BaselineSettings): void {
  if (state.hourStart === null || state.hourSamples.length < s.minChecksPerHour) return;
  const m = median(state.hourSamples);
  const mad = medianAbsoluteDeviation(state.hourSamples, m);
  const keepFrom = state.hourStart - s.windowHours * HOUR_MS;
  state.hours = [...state.hours.filter((h) => h[0] > keepFrom), [state.hourStart, tenth(m), tenth(mad)]];
  const how = hourOfWeek(state.hourStart);
  const seasonal = state.seasonal.slice();
  while (seasonal.length < WEEK_HOURS) seasonal.push(null);
  const bucket = seasonal[how];
  // Exponential average over weeks: recent weeks count most, six weeks fade out (Datadog's 6-week horizon).
  seasonal[how] = bucket
    ? [tenth(bucket[0] + (m - bucket[0]) / 3), tenth(bucket[1] + (mad - bucket[1]) / 3), bucket[2] + 1]
    : [tenth(m), tenth(mad), 1];
  state.seasonal = seasonal;
}

export interface BaselineStep {
  /** The check was judged an outlier (false while history is short). */
  outlier: boolean;
  /** The check was clearly within the band (true while history is short). */
  normal: boolean;
  /** The expectation used, or null when nothing could be judged. */
  expected: Expectation | null;
  findings: Finding[];
}

const ANOMALY_KEY = 'latency_anomaly';

function ms(n: number): string {
  return `${Math.round(n)} ms`;
}

/**
 * Feeds one successful check's latency. Pure: mutates and returns nothing but `state` and the step.
 * `muted` (while flapping) keeps the phase machine running but holds back a new anomaly_alert.
 */
export function observeLatency(
  state: BaselineState,
  at: number,
  latencyMs: number,
  s: BaselineSettings,
  muted = false,
): BaselineStep {
  const hour = Math.floor(at / HOUR_MS) * HOUR_MS;
  if (state.hourStart !== hour) {
    closeHour(state, s);
    state.hourStart = hour;
    state.hourSamples = [];
  }
  state.firstAt ??= at;
  if (state.memo?.hour !== hour) state.memo = { hour, expected: expectationAt(state, hour, s) };
  const expected = state.memo.expected;
  state.hourSamples.push(latencyMs);
  if (!expected) return { outlier: false, normal: true, expected, findings: [] };
  const outlier = isOutlier(latencyMs, expected, s);
  const findings: Finding[] = [];
  const band = { expected_median_ms: Math.round(expected.median), expected_mad_ms: Math.round(expected.mad) };
  switch (state.phase) {
    case 'normal':
      if (outlier) setPhase(state, 'pending', at);
      break;
    case 'pending':
      if (!outlier) setPhase(state, 'normal', at);
      else if (at - state.phaseSince >= s.minDurationMs) {
        const since = state.phaseSince;
        setPhase(state, 'open', at);
        state.openedAt = since;
        state.peakMs = latencyMs;
        state.alerted = !muted;
        if (!muted) {
          findings.push({
            kind: 'anomaly_alert',
            category: 'performance',
            severity: 'warning',
            summary: `Latency rose from a usual ${ms(expected.median)} (± ${ms(expected.mad)}) to ${ms(latencyMs)} for ${Math.round((at - since) / 60_000)} min (${expected.source} baseline).`,
            before: band,
            after: { latency_ms: Math.round(latencyMs), baseline: expected.source },
            at: since,
            opens: ANOMALY_KEY,
          });
        }
      }
      break;
    case 'open':
      state.peakMs = Math.max(state.peakMs, latencyMs);
      if (!outlier) setPhase(state, 'recovering', at);
      break;
    case 'recovering':
      if (outlier) {
        state.peakMs = Math.max(state.peakMs, latencyMs);
        setPhase(state, 'open', at);
      } else if (at - state.phaseSince >= s.recoveryMs) {
        // A recovery always closes what was announced, flapping or not (an opened event must end).
        if (state.alerted) {
          findings.push({
            kind: 'anomaly_recovered',
            category: 'performance',
            severity: 'info',
            summary: `Latency back to ${ms(latencyMs)}, within the usual ${ms(expected.median)} (± ${ms(expected.mad)}); the anomaly peaked at ${ms(state.peakMs)}.`,
            before: { peak_ms: Math.round(state.peakMs) },
            after: { latency_ms: Math.round(latencyMs), ...band },
            at,
            closes: ANOMALY_KEY,
          });
        }
        setPhase(state, 'normal', at);
        state.openedAt = null;
        state.peakMs = 0;
        state.alerted = false;
      }
      break;
  }
  return { outlier, normal: !outlier && isClearlyNormal(latencyMs, expected, s), expected, findings };
}

function setPhase(state: BaselineState, phase: AnomalyPhase, at: number): void {
  state.phase = phase;
  state.phaseSince = at;
}
