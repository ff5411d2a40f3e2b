import { describe, expect, it } from 'vitest';
import { OutcomeRuns, runThresholdsOf, type Outcome } from './outcome.runs.ts';

const t = { failureThreshold: 2, successThreshold: 1 };
const MINUTE = 60_000;

function runs(o: { maxEntries?: number } = {}) {
  const clock = { at: 0 };
  const r = new OutcomeRuns({ now: () => clock.at, ...o });
  /** The urgency of each outcome in turn, for one (monitor, region). */
  const seq = (outcomes: Outcome[], thresholds = t, id = 'mon_a') =>
    outcomes.map((o) => r.record(id, 'eu', o, thresholds, 5 * MINUTE));
  return { r, clock, seq };
}

describe('OutcomeRuns', () => {
  it('steady successes are never urgent and leave nothing behind', () => {
    const { r, seq } = runs();
    expect(seq(['up', 'up', 'up'])).toEqual([false, false, false]);
    for (let i = 0; i < 10_000; i++) r.record(`mon_${i}`, 'eu', 'up', t, 5 * MINUTE);
    expect(r.size).toBe(0);
  });

  it('the first failure_threshold failures after successes (or nothing known) are urgent, later ones not', () => {
    expect(runs().seq(['down', 'down', 'down', 'down'])).toEqual([true, true, false, false]);
    expect(runs().seq(['up', 'down', 'down', 'down'])).toEqual([false, true, true, false]);
    const three = { failureThreshold: 3, successThreshold: 1 };
    expect(runs().seq(['down', 'down', 'down', 'down'], three)).toEqual([true, true, true, false]);
  });

  it('the first success_threshold successes after failures are urgent, then steady again', () => {
    expect(runs().seq(['down', 'down', 'down', 'up', 'up'])).toEqual([true, true, false, true, false]);
    const two = { failureThreshold: 2, successThreshold: 2 };
    expect(runs().seq(['down', 'down', 'down', 'up', 'up', 'up'], two)).toEqual([true, true, false, true, true, false]);
    // A failure in the middle of a recovery starts a new failure run.
    expect(runs().seq(['down', 'down', 'up', 'down', 'up'], two)).toEqual([true, true, true, true, true]);
  });

  it('slow results count like failures for degraded; the fast ones after them like a recovery', () => {
    expect(runs().seq(['up', 'slow', 'slow', 'slow', 'up', 'up'])).toEqual([false, true, true, false, true, false]);
    // A slow success after failures may resolve the outage (to degraded): urgent.
    expect(runs().seq(['down', 'down', 'down', 'slow', 'slow'])).toEqual([true, true, false, true, false]);
  });

  it('forgets runs not seen for their forgetAfterMs, swept at most once a minute', () => {
    const { r, clock } = runs();
    for (let i = 0; i < 100; i++) r.record(`mon_${i}`, 'eu', 'down', t, 5 * MINUTE);
    expect(r.size).toBe(100);
    clock.at = 4 * MINUTE;
    r.record('mon_0', 'eu', 'down', t, 5 * MINUTE); // seen again: kept
    expect(r.size).toBe(100);
    clock.at = 5 * MINUTE + 1;
    r.record('mon_x', 'eu', 'up', t, 5 * MINUTE);
    expect(r.size).toBe(1);
    // The forgotten steady-down monitor: its next failure counts as a first one (urgent), never a wrong verdict.
    expect(r.record('mon_1', 'eu', 'down', t, 5 * MINUTE)).toBe(true);
  });

  it('keeps at most maxEntries, dropping the least recently seen', () => {
    const { r } = runs({ maxEntries: 3 });
    for (let i = 0; i < 1_000; i++) r.record(`mon_${i}`, 'eu', 'down', t, 5 * MINUTE);
    expect(r.size).toBe(3);
    // The three last seen are remembered: their second failure is the threshold (urgent), their third is not.
    expect(r.record('mon_999', 'eu', 'down', t, 5 * MINUTE)).toBe(true);
    expect(r.record('mon_999', 'eu', 'down', t, 5 * MINUTE)).toBe(false);
  });

  it('regions are separate runs', () => {
    const { r } = runs();
    expect(r.record('mon_a', 'eu', 'down', t, MINUTE)).toBe(true);
    expect(r.record('mon_a', 'us', 'down', t, MINUTE)).toBe(true);
    expect(r.record('mon_a', 'eu', 'down', t, MINUTE)).toBe(true);
    expect(r.record('mon_a', 'eu', 'down', t, MINUTE)).toBe(false);
  });
});

describe('runThresholdsOf', () => {
  it("reads the monitor config's thresholds, with the engine's defaults", () => {
    expect(runThresholdsOf({ failure_threshold: 4, success_threshold: 3 })).toEqual({
      failureThreshold: 4,
      successThreshold: 3,
    });
    expect(runThresholdsOf({})).toEqual({ failureThreshold: 2, successThreshold: 1 });
    expect(runThresholdsOf({ failure_threshold: 'x', success_threshold: 0 })).toEqual({
      failureThreshold: 2,
      successThreshold: 1,
    });
  });
});
