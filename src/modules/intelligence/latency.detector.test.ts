import { describe, expect, it } from 'vitest';
import { percentStateChange } from './flapping.detector.ts';
import type { Finding } from './intelligence.types.ts';
import { newLatencyState, observeCheck, type LatencyState } from './latency.detector.ts';
import { hourOfWeek } from './latency.baseline.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** A Monday, 00:00 UTC. */
const T0 = Date.parse('2026-11-02T00:00:00.000Z');

/** Deterministic noise in [-1, 1) (mulberry32), so every run replays the same series. */
function noise(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) / 4294967296) * 2 - 1;
  };
}

interface Emitted extends Finding {
  /** When the check that produced it ran. */
  seenAt: number;
}

/** Replays a latency series every `stepMs` from `from` to `to`; `latency(at)` returns ms or null for a failed check. */
function replay(
  state: LatencyState,
  from: number,
  to: number,
  stepMs: number,
  latency: (at: number) => number | null,
  alertLatencyMs: number | null = null,
): Emitted[] {
  const out: Emitted[] = [];
  for (let at = from; at < to; at += stepMs) {
    const ms = latency(at);
    const findings = observeCheck(state, { at, up: ms !== null, latencyMs: ms ?? 0 }, alertLatencyMs);
    for (const f of findings) out.push({ ...f, seenAt: at });
  }
  return out;
}

const kinds = (events: Emitted[]) => events.map((e) => `${e.kind}${e.closes ? '/close' : ''}`);

describe('percent state change (Nagios weights)', () => {
  it('matches the reference figures', () => {
    expect(percentStateChange('010101010101010101010')).toBeCloseTo(100, 5);
    // 5 changes in the newest slots vs the oldest slots
    expect(percentStateChange('000000000000000010101')).toBeCloseTo(29.9, 1);
    expect(percentStateChange('010101111111111111111')).toBeCloseTo(20.1, 1);
    expect(percentStateChange('000000000000000000000')).toBe(0);
  });
});

describe('latency baseline', () => {
  it('says nothing while there is too little history, however slow the checks', () => {
    const state = newLatencyState();
    const events = replay(state, T0, T0 + 90 * MIN, 20_000, (at) => (at < T0 + HOUR ? 50 : 600));
    expect(events).toEqual([]);
  });

  it('opens an anomaly after five minutes of a step change and closes it five minutes after recovery', () => {
    const state = newLatencyState();
    const rnd = noise(1);
    const base = (_at: number) => 50 + 5 * rnd();
    const history = replay(state, T0, T0 + 3 * HOUR, 20_000, base);
    expect(history).toEqual([]);
    const stepAt = T0 + 3 * HOUR;
    const backAt = stepAt + 10 * MIN;
    const events = replay(state, stepAt, stepAt + 30 * MIN, 20_000, (at) =>
      at < backAt ? 600 + 20 * rnd() : base(at),
    );
    expect(kinds(events)).toEqual(['anomaly_alert', 'anomaly_recovered/close']);
    const [opened, closed] = events as [Emitted, Emitted];
    // Opens at the first slow check, announced by the check five minutes later.
    expect(opened.at).toBe(stepAt);
    expect(opened.seenAt).toBe(stepAt + 5 * MIN);
    expect(opened.opens).toBe('latency_anomaly');
    expect(opened.summary).toMatch(
      /^Latency rose from a usual \d\d ms \(± \d ms\) to \d{3} ms for 5 min \(rolling baseline\)\.$/,
    );
    expect(closed.seenAt).toBe(backAt + 5 * MIN);
    expect(closed.closes).toBe('latency_anomaly');
    expect(closed.before).toMatchObject({ peak_ms: expect.any(Number) });
    expect((closed.before as { peak_ms: number }).peak_ms).toBeGreaterThanOrEqual(600);
  });

  it('ignores a single slow check and an outlier burst shorter than the minimum duration', () => {
    const state = newLatencyState();
    const rnd = noise(2);
    replay(state, T0, T0 + 3 * HOUR, 20_000, () => 50 + 5 * rnd());
    const t = T0 + 3 * HOUR;
    const events = replay(state, t, t + HOUR, 20_000, (at) =>
      at === t + 10 * MIN || (at >= t + 30 * MIN && at < t + 34 * MIN) ? 900 : 50 + 5 * rnd(),
    );
    expect(events).toEqual([]);
  });

  it('raises nothing on a stationary noisy series (heavy-tailed noise over two days)', () => {
    const state = newLatencyState();
    const rnd = noise(3);
    // ±30 % jitter with an occasional 2× spike
    const events = replay(state, T0, T0 + 2 * DAY, 20_000, () => {
      const r = rnd();
      return r > 0.98 ? 100 + 20 * rnd() : 50 * (1 + 0.3 * rnd());
    });
    expect(events).toEqual([]);
  });

  it('follows a slow drift without an anomaly (50 → 100 ms over 12 hours)', () => {
    const state = newLatencyState();
    const rnd = noise(4);
    replay(state, T0, T0 + 3 * HOUR, 20_000, () => 50 + 3 * rnd());
    const t = T0 + 3 * HOUR;
    const events = replay(state, t, t + 12 * HOUR, 20_000, (at) => 50 + (50 * (at - t)) / (12 * HOUR) + 3 * rnd());
    expect(events).toEqual([]);
  });

  it('learns hour-of-week seasonality after two weeks: the usual busy hour stays quiet, the same level at night alerts', () => {
    const state = newLatencyState();
    const rnd = noise(5);
    const busy = (at: number) => {
      const hourOfDay = new Date(at).getUTCHours();
      return hourOfDay === 12 ? 300 + 10 * rnd() : 50 + 3 * rnd();
    };
    const firstWeeks = replay(state, T0, T0 + 14 * DAY, MIN, busy);
    // Before seasonality the daily busy hour looks like an anomaly against the rolling baseline.
    expect(firstWeeks.filter((e) => e.kind === 'anomaly_alert').length).toBeGreaterThan(0);
    const day15 = T0 + 14 * DAY;
    // Week three, 12:00: expected by the seasonal bucket.
    const noon = replay(state, day15, day15 + DAY, MIN, busy);
    expect(noon).toEqual([]);
    // Week three, 03:00 the next day: 300 ms is abnormal for that hour of the week.
    const night = day15 + DAY + 3 * HOUR;
    replay(state, day15 + DAY, night, MIN, busy);
    const events = replay(state, night, night + 20 * MIN, MIN, () => 300 + 10 * rnd());
    expect(kinds(events)).toEqual(['anomaly_alert']);
    expect(events[0]!.at).toBe(night);
    expect(events[0]!.summary).toContain('seasonal baseline');
    expect(hourOfWeek(night)).toBe(27); // Tuesday 03:00
  });

  it('flaps when checks alternate between normal and slow: one anomaly_flapping, no anomaly_alert, then it ends', () => {
    const state = newLatencyState();
    const rnd = noise(6);
    replay(state, T0, T0 + 3 * HOUR, 20_000, () => 50 + 5 * rnd());
    const t = T0 + 3 * HOUR;
    let i = 0;
    const flapping = replay(state, t, t + 30 * MIN, 20_000, () => (i++ % 2 === 0 ? 700 : 50));
    expect(kinds(flapping)).toEqual(['anomaly_flapping']);
    // 21 states needed; the alternation makes every transition count, so it starts once 30 % is reached.
    expect(flapping[0]!.opens).toBe('flapping');
    expect(flapping[0]!.seenAt).toBeLessThan(t + 5 * MIN);
    const calm = replay(state, t + 30 * MIN, t + 60 * MIN, 20_000, () => 50 + 5 * rnd());
    expect(kinds(calm)).toEqual(['anomaly_flapping/close']);
    expect(calm[0]!.endOnly).toBe(true);
  });

  it('counts failed checks as bad states for flapping', () => {
    const state = newLatencyState();
    let i = 0;
    const events = replay(state, T0, T0 + 30 * MIN, 20_000, () => (i++ % 2 === 0 ? null : 50));
    expect(kinds(events)).toEqual(['anomaly_flapping']);
  });
});

describe('alert_latency_ms hysteresis', () => {
  it('opens after three slow checks in a row and closes after three fast ones', () => {
    const state = newLatencyState();
    const series = [50, 600, 600, 50, 600, 600, 600, 700, 50, 50, 600, 50, 50, 50, 50];
    let i = 0;
    const events = replay(state, T0, T0 + series.length * 20_000, 20_000, () => series[i++]!, 300);
    expect(kinds(events)).toEqual(['performance_anomaly', 'performance_recovered/close']);
    const [slow, back] = events as [Emitted, Emitted];
    expect(slow.at).toBe(T0 + 4 * 20_000); // first of the three slow checks
    expect(slow.seenAt).toBe(T0 + 6 * 20_000);
    expect(slow.after).toEqual({ latency_ms: 600, threshold_ms: 300 });
    expect(back.seenAt).toBe(T0 + 13 * 20_000);
    expect(back.before).toEqual({ peak_ms: 700, threshold_ms: 300 });
    expect(back.summary).toBe(
      'Response time back to 50 ms, within alert_latency_ms 300 ms (3 checks in a row; slowest was 700 ms).',
    );
  });

  it('skips failed checks and does nothing without a threshold', () => {
    const state = newLatencyState();
    const events = replay(state, T0, T0 + 10 * 20_000, 20_000, (at) => (((at - T0) / 20_000) % 2 ? null : 900), null);
    expect(events.filter((e) => e.kind.startsWith('performance'))).toEqual([]);
    const other = newLatencyState();
    const series = [600, null, 600, null, 600];
    let i = 0;
    const ev = replay(other, T0, T0 + 5 * 20_000, 20_000, () => series[i++]!, 300);
    expect(kinds(ev)).toEqual(['performance_anomaly']);
  });
});
