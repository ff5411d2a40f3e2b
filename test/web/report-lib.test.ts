import { describe, expect, it } from 'vitest';
import { errorBudget } from '../../web/src/lib/error-budget.ts';
import { pct, span } from '../../web/src/lib/report-format.ts';
import { fromZonedInput, toZonedInput } from '../../web/src/lib/zoned-time.ts';

describe('error budget preview', () => {
  it('99.9 % monthly allows 43 min 49 s in the mean 30.44-day month', () => {
    const b = errorBudget(99.9, 'monthly')!;
    expect(b.mean).toBeCloseTo(0.001 * 30.436875 * 86_400, 6);
    expect(span(b.mean)).toBe('43 min 49 s');
    expect(span(b.shortest)).toBe('40 min 15 s'); // 28 days less the hour of a spring-forward change
    expect(span(b.longest)).toBe('44 min 42 s'); // 31 days and the hour of an autumn change
    expect(b.longest).toBeCloseTo(0.001 * (31 * 86_400 + 3_600), 9);
  });

  it('per period kind: day, week and quarter', () => {
    expect(errorBudget(99.9, 'daily')!.mean).toBeCloseTo(86.4, 9);
    expect(span(errorBudget(99.9, 'daily')!.mean)).toBe('1 min 26 s');
    expect(errorBudget(99.9, 'daily')!.shortest).toBeCloseTo(82.8, 9);
    expect(errorBudget(99.5, 'weekly')!.mean).toBeCloseTo(3_024, 9);
    expect(span(errorBudget(99.5, 'weekly')!.mean)).toBe('50 min 24 s');
    expect(errorBudget(99.99, 'quarterly')!.mean).toBeCloseTo(0.0001 * 91.310625 * 86_400, 9);
    expect(errorBudget(99, 'quarterly')!.shortest).toBeCloseTo(0.01 * (90 * 86_400 - 3_600), 9);
    expect(errorBudget(99, 'quarterly')!.longest).toBeCloseTo(0.01 * (92 * 86_400 + 3_600), 9);
  });

  it('exact in thousandths of a percent (no float drift)', () => {
    expect(errorBudget(99.999, 'daily')!.mean).toBe(0.864);
    expect(errorBudget(50, 'daily')!.mean).toBe(43_200);
  });

  it('refuses what the API refuses: 0, 100, out of range, more than 3 decimals, not a number', () => {
    for (const bad of [0, 100, -1, 101, 99.9999, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(errorBudget(bad, 'monthly')).toBeNull();
    }
  });
});

describe('report formatting', () => {
  it('spans truncate, keep tenths below a minute and show a negative budget', () => {
    expect(span(0)).toBe('0 s');
    expect(span(1.56)).toBe('1.5 s');
    expect(span(59.99)).toBe('59.9 s');
    expect(span(3_725.9)).toBe('1 h 2 min 5 s');
    expect(span(90_061)).toBe('1 d 1 h 1 min');
    expect(span(-125)).toBe('−2 min 5 s');
    expect(span(null)).toBe('—');
  });
  it('percentages with three decimals', () => {
    expect(pct(99.95432)).toBe('99.954 %');
    expect(pct(100)).toBe('100.000 %');
    expect(pct(null)).toBe('—');
  });
});

describe('zoned custom range', () => {
  it('round-trips wall times in a zone, across DST', () => {
    expect(fromZonedInput('2026-11-01T00:00', 'Europe/Berlin')).toBe('2026-10-31T23:00:00.000Z');
    expect(fromZonedInput('2026-07-01T00:00', 'Europe/Berlin')).toBe('2026-06-30T22:00:00.000Z');
    expect(fromZonedInput('2026-11-01T00:00', 'UTC')).toBe('2026-11-01T00:00:00.000Z');
    expect(toZonedInput('2026-06-30T22:00:00.000Z', 'Europe/Berlin')).toBe('2026-07-01T00:00');
    expect(toZonedInput('2026-11-24T05:30:00.000Z', 'America/New_York')).toBe('2026-11-24T00:30');
  });
  it('a wall time skipped by the spring change becomes the first later instant', () => {
    // 29 March 2026, Berlin: 02:00 → 03:00 (01:00 UTC).
    expect(fromZonedInput('2026-03-29T02:30', 'Europe/Berlin')).toBe('2026-03-29T01:00:00.000Z');
  });
  it('refuses what is not a wall time', () => {
    expect(fromZonedInput('yesterday', 'UTC')).toBeNull();
    expect(fromZonedInput('', 'UTC')).toBeNull();
  });
});
