import { describe, expect, it } from 'vitest';
import { canFire, CronSyntaxError, isIanaZone, nextFire, parseCron, shortestGapSeconds } from './cron.expression.ts';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const next = (expr: string, after: string, zone = 'UTC') => iso(nextFire(parseCron(expr), at(after), zone));

describe('cron expressions', () => {
  it('parses lists, ranges, steps, names and macros', () => {
    const c = parseCron('*/15 9-17 * jan,JUL mon-fri');
    expect(c.minutes).toEqual([0, 15, 30, 45]);
    expect(c.hours).toEqual([9, 10, 11, 12, 13, 14, 15, 16, 17]);
    expect([...c.months]).toEqual([1, 7]);
    expect([...c.weekdays].sort()).toEqual([1, 2, 3, 4, 5]);
    expect(parseCron('5/20 * * * 7').minutes).toEqual([5, 25, 45]);
    expect([...parseCron('0 0 * * 7').weekdays]).toEqual([0]);
    expect(parseCron('@daily').minutes).toEqual([0]);
    expect(parseCron('@HOURLY').hours).toHaveLength(24);
  });

  it.each([
    ['* * * *', /5 fields/],
    ['60 * * * *', /minute 60 is outside 0-59/],
    ['* 24 * * *', /hour 24/],
    ['* * 0 * *', /day of month 0/],
    ['* * * 13 *', /month 13/],
    ['* * * * 8', /day of week 8/],
    ['*/0 * * * *', /step/],
    ['5-1 * * * *', /backwards/],
    ['a * * * *', /not a valid minute/],
    ['@reboot', /not a known macro/],
    ['1,,2 * * * *', /not a valid minute/],
  ])('refuses %s', (expr, message) => {
    expect(() => parseCron(expr)).toThrow(CronSyntaxError);
    expect(() => parseCron(expr)).toThrow(message);
  });

  it('finds the next fire strictly after an instant', () => {
    expect(next('*/5 * * * *', '2026-01-01T10:02:00Z')).toBe('2026-01-01T10:05:00.000Z');
    expect(next('*/5 * * * *', '2026-01-01T10:05:00Z')).toBe('2026-01-01T10:10:00.000Z');
    expect(next('30 2 * * *', '2026-01-01T10:00:00Z')).toBe('2026-01-02T02:30:00.000Z');
    expect(next('0 0 29 2 *', '2026-03-01T00:00:00Z')).toBe('2028-02-29T00:00:00.000Z');
    expect(next('@monthly', '2026-01-31T12:00:00Z')).toBe('2026-02-01T00:00:00.000Z');
  });

  it('fires on either day when both day of month and weekday are restricted, on both otherwise', () => {
    // 2026-03-01 is a Sunday. "1st or Friday": Friday 2026-03-06 comes before April 1st.
    expect(next('0 0 1 * 5', '2026-03-01T12:00:00Z')).toBe('2026-03-06T00:00:00.000Z');
    // A weekday field starting with * does not restrict (Vixie): only the day of month matters.
    expect(next('0 0 13 * */1', '2026-03-01T12:00:00Z')).toBe('2026-03-13T00:00:00.000Z');
  });

  it('follows the wall clock of the zone across DST (Europe/Berlin)', () => {
    const z = 'Europe/Berlin';
    // Winter: 02:30 local is 01:30 UTC; summer: 00:30 UTC.
    expect(next('30 2 * * *', '2026-03-27T12:00:00Z', z)).toBe('2026-03-28T01:30:00.000Z');
    // Sunday 29 March 2026: 02:00-03:00 does not exist; a 02:30 job fires at the end of the gap, 03:00 CEST.
    expect(next('30 2 * * *', '2026-03-28T12:00:00Z', z)).toBe('2026-03-29T01:00:00.000Z');
    expect(next('30 2 * * *', '2026-03-29T12:00:00Z', z)).toBe('2026-03-30T00:30:00.000Z');
    // Hourly jobs keep firing every real hour through the gap (01:00 CET, then 03:00 CEST).
    expect(next('0 * * * *', '2026-03-29T00:00:00Z', z)).toBe('2026-03-29T01:00:00.000Z');
    // Sunday 25 October 2026: 02:00-03:00 happens twice; a 02:30 job fires once, at the first (CEST) one.
    expect(next('30 2 * * *', '2026-10-24T12:00:00Z', z)).toBe('2026-10-25T00:30:00.000Z');
    expect(next('30 2 * * *', '2026-10-25T00:30:00Z', z)).toBe('2026-10-26T01:30:00.000Z');
    // A daily 09:00 job is 24 h apart except across the change: 23 h in March, 25 h in October.
    const march = nextFire(parseCron('0 9 * * *'), at('2026-03-28T07:00:00Z'), z)!;
    expect(nextFire(parseCron('0 9 * * *'), march, z)! - march).toBe(23 * 3_600_000);
    const october = nextFire(parseCron('0 9 * * *'), at('2026-10-24T06:00:00Z'), z)!;
    expect(nextFire(parseCron('0 9 * * *'), october, z)! - october).toBe(25 * 3_600_000);
  });

  it('knows an expression that never fires', () => {
    expect(canFire(parseCron('30 2 31 2 *'))).toBe(false);
    expect(canFire(parseCron('0 0 31 4,6,9,11 *'))).toBe(false);
    expect(canFire(parseCron('0 0 29 2 *'))).toBe(true);
    expect(canFire(parseCron('0 0 31 2 1'))).toBe(true);
    expect(nextFire(parseCron('30 2 31 2 *'), at('2026-01-01T00:00:00Z'), 'UTC')).toBeNull();
  });

  it('measures the shortest gap between fires', () => {
    const from = at('2026-01-01T00:00:00Z');
    expect(shortestGapSeconds(parseCron('* * * * *'), from)).toBe(60);
    expect(shortestGapSeconds(parseCron('*/5 * * * *'), from)).toBe(300);
    expect(shortestGapSeconds(parseCron('0,10 * * * *'), from)).toBe(600);
    expect(shortestGapSeconds(parseCron('@daily'), from)).toBe(86_400);
    expect(shortestGapSeconds(parseCron('0 0,23 * * *'), from)).toBe(3600);
    expect(shortestGapSeconds(parseCron('30 2 31 2 *'), from)).toBeNull();
  });

  it('takes IANA zones only', () => {
    expect(isIanaZone('Europe/Paris')).toBe(true);
    expect(isIanaZone('UTC')).toBe(true);
    expect(isIanaZone('Mars/Olympus')).toBe(false);
    expect(isIanaZone('+02:00')).toBe(false);
  });
});
