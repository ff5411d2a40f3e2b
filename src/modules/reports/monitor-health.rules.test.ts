import { describe, expect, it } from 'vitest';
import type { Span } from './availability.accounting.ts';
import {
  findingsOf,
  flappingOf,
  percentStateChange,
  type HealthFacts,
  type HealthIncident,
} from './monitor-health.rules.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const FROM = Date.parse('2026-05-01T00:00:00Z');
const END = FROM + 7 * DAY; // a 7-day window: the weekly limits apply unscaled

function facts(over: Partial<HealthFacts> = {}): HealthFacts {
  return {
    from: FROM,
    end: END,
    incidents: [],
    flapping: { maxPercent: 0, episodes: 0 },
    intervalSeconds: 60,
    pausedSince: null,
    timeoutMs: null,
    p95Ms: null,
    createdAt: FROM - 30 * DAY,
    everSucceeded: true,
    checksSinceCreation: 1000,
    destinations: 1,
    ...over,
  };
}

/** `n` incidents an hour apart, each resolved by a person after `lastsMs`. */
function incidents(
  n: number,
  lastsMs = HOUR,
  resolvedBy = 'usr_1',
  cause: string | null = 'HTTP 503',
): HealthIncident[] {
  return Array.from({ length: n }, (_, i) => ({
    openedAt: FROM + i * 2 * HOUR,
    resolvedAt: FROM + i * 2 * HOUR + lastsMs,
    resolvedBy,
    cause,
  }));
}

const kinds = (f: HealthFacts) => findingsOf(f).map((x) => x.kind);

/** Spans of one state each `minutes` long, back to back from FROM, e.g. [['up', 16], ['down', 1]]. */
function spans(parts: Array<['up' | 'down' | 'paused', number]>): Span[] {
  let at = FROM;
  return parts.map(([state, minutes]) => {
    const s = { state, start: at, end: at + minutes * MIN };
    at = s.end;
    return s;
  });
}

describe('monitor-health rules (reference/intelligence.md §7) at their thresholds', () => {
  it('noisy: more than 14 incidents in 7 days fires, 14 does not; a 1-day window allows 2', () => {
    expect(kinds(facts({ incidents: incidents(15) }))).toEqual(['noisy']);
    expect(kinds(facts({ incidents: incidents(14) }))).toEqual([]);
    const oneDay = { end: FROM + DAY };
    expect(kinds(facts({ ...oneDay, incidents: incidents(3) }))).toEqual(['noisy']);
    expect(kinds(facts({ ...oneDay, incidents: incidents(2) }))).toEqual([]);
    const [f] = findingsOf(facts({ incidents: incidents(15) }));
    expect(f!.reason).toBe(
      '15 incidents in 7 days, more than the 14 allowed at 14 a week: require confirmation from another region or a longer failure run (failure_threshold) before alerting.',
    );
    expect(f!.evidence).toMatchObject({ incidents: 15, window_days: 7, incident_limit: 14 });
  });

  it('noisy: counts in the right number, and the advice names what the monitor can still raise', () => {
    const oneDay = { end: FROM + DAY, incidents: incidents(3) };
    const reason = (over: Partial<HealthFacts>) => findingsOf(facts({ ...oneDay, ...over }))[0]!.reason;
    expect(reason({})).toMatch(/^3 incidents in 1 day, more than the 2 allowed at 14 a week: /);
    expect(reason({ regions: 1, confirmRegions: 1, failureThreshold: 2 })).toContain(
      ': check it from a second region and require both to agree, or require a longer failure run (failure_threshold is 2) before alerting.',
    );
    // Two regions of which both must already agree: no "second region" advice, only the longer run.
    const both = reason({ regions: 2, confirmRegions: 2, failureThreshold: 3 });
    expect(both).toContain(': require a longer failure run (failure_threshold is 3) before alerting.');
    expect(both).not.toContain('region');
    expect(reason({ regions: 3, confirmRegions: 2, failureThreshold: 2 })).toContain(
      ': require more of its 3 regions to agree (confirm_regions is 2) or a longer failure run (failure_threshold is 2) before alerting.',
    );
  });

  it('noisy: more than half of the incidents resolved automatically within 5 minutes', () => {
    const transient = incidents(3, 4 * MIN, 'auto');
    const slow = incidents(1, HOUR, 'auto');
    // 3 of 4 (75 %) transient: fires.
    const f = findingsOf(facts({ incidents: [...transient, ...slow] }));
    expect(f.map((x) => x.kind)).toEqual(['noisy']);
    expect(f[0]!.evidence).toMatchObject({ transient_incidents: 3, transient_percent: 75 });
    // 2 of 4 (50 %): not more than half.
    expect(kinds(facts({ incidents: [...incidents(2, 4 * MIN, 'auto'), ...incidents(2)] }))).toEqual([]);
    // Exactly 5 minutes is not "within 5 minutes"; resolved by a person is not automatic.
    expect(kinds(facts({ incidents: incidents(3, 5 * MIN, 'auto') }))).toEqual([]);
    expect(kinds(facts({ incidents: incidents(3, MIN, 'usr_1') }))).toEqual([]);
  });

  it('percent state change follows the Nagios weights (reference §3 worked numbers)', () => {
    // 5 changes in the newest slots: Σw = 3.75 + (15+16+17+18+19)/38 = 5.9868 → 29.93 %.
    expect(percentStateChange('0000000000000000' + '10101')).toBeCloseTo(29.934, 2);
    // 5 changes in the oldest slots: Σw = 3.75 + (0+1+2+3+4)/38 = 4.0132 → 20.07 %.
    expect(percentStateChange('101010' + '000000000000000')).toBeCloseTo(20.066, 2);
    expect(percentStateChange('010101010101010101010')).toBeCloseTo(100, 6);
  });

  it('flapping: the confirmed state reaching 30 % fires, 29.9 % does not', () => {
    // 60-second checks: 15 minutes up (15 states), then 6 one-minute alternations → 21 states, 6 changes in the
    // newest slots: Σw = 4.5 + (14+…+19)/38 = 7.1053 → 35.5 %.
    const six = flappingOf(
      spans([
        ['up', 15],
        ['down', 1],
        ['up', 1],
        ['down', 1],
        ['up', 1],
        ['down', 1],
        ['up', 1],
      ]),
      MIN,
      FROM,
      END,
    );
    expect(six.maxPercent).toBeCloseTo(35.526, 2);
    expect(six.episodes).toBe(1);
    const f = findingsOf(facts({ flapping: six }));
    expect(f.map((x) => x.kind)).toEqual(['flapping']);
    expect(f[0]!.reason).toBe('Its up/down state changed 35.5 % of the time over 21 checks (flapping starts at 30 %).');
    // 16 minutes up, then 5 changes: 29.93 % at most.
    const five = flappingOf(
      spans([
        ['up', 16],
        ['down', 1],
        ['up', 1],
        ['down', 1],
        ['up', 1],
        ['down', 1],
      ]),
      MIN,
      FROM,
      END,
    );
    expect(five.maxPercent).toBeCloseTo(29.934, 2);
    expect(kinds(facts({ flapping: five }))).toEqual([]);
  });

  it('flapping: episodes (30 % on, 25 % off) are counted; a pause starts the history afresh', () => {
    const burst: Array<['up' | 'down', number]> = [
      ['down', 1],
      ['up', 1],
      ['down', 1],
      ['up', 1],
      ['down', 1],
      ['up', 1],
    ];
    // Each burst is followed by 40 quiet minutes: the percentage falls to 0 % (≤ 25 %) and flapping ends.
    const three = flappingOf(
      spans([['up', 15], ...burst, ['up', 40], ...burst, ['up', 40], ...burst, ['up', 40]]),
      MIN,
      FROM,
      END,
    );
    expect(three.episodes).toBe(3);
    const f = findingsOf(facts({ flapping: three }));
    expect(f[0]!.reason).toMatch(/and it flapped 3 times, at least 3 \(3 a week\)\.$/);
    // The same burst split by a pause never has 21 states in a row.
    const paused = flappingOf(
      spans([
        ['up', 10],
        ['down', 1],
        ['up', 1],
        ['down', 1],
        ['paused', 30],
        ['up', 1],
        ['down', 1],
        ['up', 1],
      ]),
      MIN,
      FROM,
      END,
    );
    expect(paused).toEqual({ maxPercent: 0, episodes: 0 });
  });

  it('misconfigured: paused more than 60 days, timeout under 1.5 × p95, every incident failing the same way', () => {
    expect(kinds(facts({ pausedSince: END - 60 * DAY - 1 }))).toEqual(['misconfigured']);
    expect(kinds(facts({ pausedSince: END - 60 * DAY }))).toEqual([]);
    // 1000 ms < 1.5 × 700 ms = 1050 ms fires; 1.5 × 666 = 999 does not.
    const slow = findingsOf(facts({ timeoutMs: 1000, p95Ms: 700 }));
    expect(slow.map((x) => x.evidence.rule)).toEqual(['timeout_below_latency']);
    expect(slow[0]!.reason).toBe(
      'Its timeout of 1000 ms is below 1.5 × its p95 latency of 700 ms: slow but working responses will count as failures.',
    );
    expect(kinds(facts({ timeoutMs: 1000, p95Ms: 666 }))).toEqual([]);
    const notFound = findingsOf(facts({ incidents: incidents(2, HOUR, 'auto', 'HTTP 404 (expected 200)') }));
    expect(notFound.map((x) => [x.kind, x.evidence.rule])).toEqual([['misconfigured', 'not_found']]);
    const auth = findingsOf(facts({ incidents: incidents(1, HOUR, 'auto', 'HTTP 401 (expected 2xx or 3xx)') }));
    expect(auth.map((x) => x.evidence.rule)).toEqual(['authentication']);
    const mixed = [...incidents(1, HOUR, 'auto', 'HTTP 404 (expected 200)'), ...incidents(1, HOUR, 'auto', 'HTTP 503')];
    expect(kinds(facts({ incidents: mixed }))).toEqual([]);
    const alone = findingsOf(facts({ destinations: 0 }));
    expect(alone.map((x) => [x.kind, x.evidence.rule])).toEqual([['misconfigured', 'no_notification_channel']]);
    expect(kinds(facts({ destinations: null }))).toEqual([]);
    const content = findingsOf(facts({ incidents: incidents(1, HOUR, 'auto', 'body assertion failed: got "x"') }));
    expect(content.map((x) => x.evidence.rule)).toEqual(['content_assertion']);
  });

  it('never succeeded: no success after 24 hours or 20 checks', () => {
    const young = { createdAt: END - 24 * HOUR + 1, everSucceeded: false };
    expect(kinds(facts({ ...young, checksSinceCreation: 19 }))).toEqual([]);
    expect(kinds(facts({ ...young, checksSinceCreation: 20 }))).toEqual(['never_succeeded']);
    const f = findingsOf(facts({ createdAt: END - 24 * HOUR, everSucceeded: false, checksSinceCreation: 3 }));
    expect(f.map((x) => x.kind)).toEqual(['never_succeeded']);
    expect(f[0]!.reason).toBe(
      'None of its 3 checks in the 1 day since it was created succeeded: check the target, the assertions and the network path.',
    );
    const fresh = findingsOf(facts({ createdAt: END - 5 * HOUR, everSucceeded: false, checksSinceCreation: 20 }));
    expect(fresh[0]!.reason).toMatch(/^None of its 20 checks in the 5 hours since it was created succeeded/);
    const once = findingsOf(facts({ createdAt: END - 48 * HOUR, everSucceeded: false, checksSinceCreation: 1 }));
    expect(once[0]!.reason).toMatch(/^Its only check in the 2 days since it was created failed: /);
    expect(kinds(facts({ createdAt: END - 48 * HOUR, everSucceeded: true, checksSinceCreation: 3 }))).toEqual([]);
    expect(kinds(facts({ createdAt: END - 48 * HOUR, everSucceeded: false, checksSinceCreation: 0 }))).toEqual([]);
  });
});
