/**
 * The web app's next-run preview (web/src/lib/schedule.next-run.ts) against the server's own computation
 * (nextRunAt of the scheduled-reports module): the same instants for every frequency around DST changes in zones
 * with a gap, an overlap, a midnight change and a southern-hemisphere change, and the known answers of docs/reports.md.
 */
import { describe, expect, it } from 'vitest';
import { nextRunAt as serverNextRunAt, type ScheduleRule } from '../../src/modules/scheduled-reports/index.ts';
import { nextRunAt, type ScheduleFields } from '../../web/src/lib/schedule.next-run.ts';
import { inZone } from '../../web/src/lib/time-zones.ts';

const rule = (f: ScheduleFields): ScheduleRule => ({
  frequency: f.frequency,
  dayOfWeek: f.day_of_week,
  dayOfMonth: f.day_of_month,
  timeOfDay: f.time_of_day,
  timezone: f.timezone,
});

describe('next-run preview', () => {
  it('gives the documented instants across DST changes', () => {
    const daily = (time: string, timezone: string): ScheduleFields => ({
      frequency: 'daily',
      day_of_week: null,
      day_of_month: null,
      time_of_day: time,
      timezone,
    });
    // Berlin 2026-03-29 02:30 does not exist → 03:30 CEST.
    expect(
      new Date(nextRunAt(daily('02:30', 'Europe/Berlin'), Date.parse('2026-03-28T12:00:00Z'))!).toISOString(),
    ).toBe('2026-03-29T01:30:00.000Z');
    // New York 2026-11-01 01:30 happens twice → the first (EDT, UTC−4).
    expect(
      new Date(nextRunAt(daily('01:30', 'America/New_York'), Date.parse('2026-10-31T12:00:00Z'))!).toISOString(),
    ).toBe('2026-11-01T05:30:00.000Z');
    // Santiago 2026-09-06 00:30 does not exist → 01:30 (UTC−3).
    expect(
      new Date(nextRunAt(daily('00:30', 'America/Santiago'), Date.parse('2026-09-05T12:00:00Z'))!).toISOString(),
    ).toBe('2026-09-06T04:30:00.000Z');
    // Weekly Monday 08:00 Berlin across the October change: 08:00 CET the day after it.
    const weekly: ScheduleFields = { ...daily('08:00', 'Europe/Berlin'), frequency: 'weekly', day_of_week: 1 };
    const at = nextRunAt(weekly, Date.parse('2026-10-24T12:00:00Z'))!;
    expect(new Date(at).toISOString()).toBe('2026-10-26T07:00:00.000Z');
    expect(inZone(at, 'Europe/Berlin')).toBe('Mon 26 Oct 2026, 08:00 GMT+1');
  });

  it('equals the server for every frequency around DST changes', () => {
    const zones = ['Europe/Berlin', 'America/New_York', 'America/Santiago', 'Australia/Sydney', 'Asia/Tokyo', 'UTC'];
    const times = ['00:00', '00:30', '01:30', '02:00', '02:30', '03:00', '23:59'];
    const starts = [
      '2026-03-28T00:00:00Z',
      '2026-03-29T00:59:00Z',
      '2026-03-29T01:00:00Z',
      '2026-04-04T15:30:00Z',
      '2026-09-05T03:00:00Z',
      '2026-10-24T23:00:00Z',
      '2026-11-01T05:29:59Z',
      '2026-11-01T05:30:00Z',
      '2026-12-31T23:59:59Z',
    ].map(Date.parse);
    const shapes: Omit<ScheduleFields, 'time_of_day' | 'timezone'>[] = [
      { frequency: 'daily', day_of_week: null, day_of_month: null },
      { frequency: 'weekly', day_of_week: 0, day_of_month: null },
      { frequency: 'weekly', day_of_week: 1, day_of_month: null },
      { frequency: 'monthly', day_of_week: null, day_of_month: 1 },
      { frequency: 'monthly', day_of_week: null, day_of_month: 28 },
      { frequency: 'quarterly', day_of_week: null, day_of_month: 5 },
    ];
    let compared = 0;
    for (const timezone of zones)
      for (const time_of_day of times)
        for (const shape of shapes)
          for (const after of starts) {
            const fields = { ...shape, time_of_day, timezone };
            expect(nextRunAt(fields, after), JSON.stringify({ fields, after })).toBe(
              serverNextRunAt(rule(fields), after),
            );
            compared++;
          }
    expect(compared).toBe(6 * 7 * 6 * 9);
  });

  it('has no answer while the fields cannot make a schedule', () => {
    const base: ScheduleFields = {
      frequency: 'weekly',
      day_of_week: null,
      day_of_month: null,
      time_of_day: '08:00',
      timezone: 'Europe/Berlin',
    };
    expect(nextRunAt(base, 0)).toBeNull();
    expect(nextRunAt({ ...base, day_of_week: 2, timezone: '+02:00' }, 0)).toBeNull();
    expect(nextRunAt({ ...base, day_of_week: 2, timezone: 'Mars/Olympus' }, 0)).toBeNull();
    expect(nextRunAt({ ...base, day_of_week: 2, time_of_day: '24:00' }, 0)).toBeNull();
    expect(nextRunAt({ ...base, frequency: 'monthly', day_of_month: 29 }, 0)).toBeNull();
    expect(nextRunAt({ ...base, day_of_week: 2 }, 0)).toBe(Date.parse('1970-01-06T07:00:00Z'));
  });
});
