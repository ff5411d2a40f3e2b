/**
 * next_run_at across DST, in zones with gaps at 02:00 and at midnight, 30- and 45-minute offsets and southern-hemisphere
 * DST. Every expected instant is written out by hand from the zone's offsets on that date (tzdata rules noted per
 * zone), never computed with the code under test: a gap moves the local time forward by the gap's length, a repeated
 * hour takes its first occurrence.
 */
import { describe, expect, it } from 'vitest';
import { periodBefore } from './scheduled-report.period.ts';
import { nextRunAt, type Frequency, type ScheduleRule } from './scheduled-report.schedule.ts';

interface Case {
  zone: string;
  frequency: Frequency;
  day?: number;
  time: string;
  after: string;
  expected: string;
  why: string;
}

const rule = (c: Case): ScheduleRule => ({
  frequency: c.frequency,
  dayOfWeek: c.frequency === 'weekly' ? (c.day ?? null) : null,
  dayOfMonth: c.frequency === 'monthly' || c.frequency === 'quarterly' ? (c.day ?? null) : null,
  timeOfDay: c.time,
  timezone: c.zone,
});

const CASES: Case[] = [
  // America/New_York: EST −05:00, EDT −04:00; 2026-03-08 02:00→03:00, 2026-11-01 02:00→01:00.
  {
    zone: 'America/New_York',
    frequency: 'daily',
    time: '02:30',
    after: '2026-03-07T08:00:00Z',
    expected: '2026-03-08T07:30:00Z',
    why: 'gap: 02:30 → 03:30 EDT',
  },
  {
    zone: 'America/New_York',
    frequency: 'daily',
    time: '02:30',
    after: '2026-03-08T07:30:00Z',
    expected: '2026-03-09T06:30:00Z',
    why: 'day after the gap, EDT',
  },
  {
    zone: 'America/New_York',
    frequency: 'daily',
    time: '01:30',
    after: '2026-10-31T06:00:00Z',
    expected: '2026-11-01T05:30:00Z',
    why: 'fold: first 01:30 (EDT)',
  },
  {
    zone: 'America/New_York',
    frequency: 'daily',
    time: '01:30',
    after: '2026-11-01T05:30:00Z',
    expected: '2026-11-02T06:30:00Z',
    why: 'the second 01:30 is not a run',
  },
  {
    zone: 'America/New_York',
    frequency: 'weekly',
    day: 0,
    time: '02:30',
    after: '2026-03-02T00:00:00Z',
    expected: '2026-03-08T07:30:00Z',
    why: 'Sunday in the gap',
  },
  {
    zone: 'America/New_York',
    frequency: 'monthly',
    day: 8,
    time: '02:30',
    after: '2026-02-15T00:00:00Z',
    expected: '2026-03-08T07:30:00Z',
    why: 'the 8th in the gap',
  },
  {
    zone: 'America/New_York',
    frequency: 'quarterly',
    day: 1,
    time: '09:00',
    after: '2026-03-08T00:00:00Z',
    expected: '2026-04-01T13:00:00Z',
    why: 'April, EDT',
  },
  {
    zone: 'America/New_York',
    frequency: 'quarterly',
    day: 1,
    time: '01:30',
    after: '2026-07-02T00:00:00Z',
    expected: '2026-10-01T05:30:00Z',
    why: 'October, still EDT',
  },
  // Europe/Berlin: CET +01:00, CEST +02:00; 2026-03-29 02:00→03:00, 2026-10-25 03:00→02:00.
  {
    zone: 'Europe/Berlin',
    frequency: 'daily',
    time: '02:30',
    after: '2026-03-28T12:00:00Z',
    expected: '2026-03-29T01:30:00Z',
    why: 'gap: 02:30 → 03:30 CEST',
  },
  {
    zone: 'Europe/Berlin',
    frequency: 'daily',
    time: '02:30',
    after: '2026-10-24T12:00:00Z',
    expected: '2026-10-25T00:30:00Z',
    why: 'fold: first 02:30 (CEST)',
  },
  {
    zone: 'Europe/Berlin',
    frequency: 'daily',
    time: '02:30',
    after: '2026-10-25T00:30:00Z',
    expected: '2026-10-26T01:30:00Z',
    why: 'no second run in the fold',
  },
  {
    zone: 'Europe/Berlin',
    frequency: 'daily',
    time: '00:00',
    after: '2026-03-28T23:30:00Z',
    expected: '2026-03-29T22:00:00Z',
    why: 'midnight after the switch, CEST',
  },
  {
    zone: 'Europe/Berlin',
    frequency: 'weekly',
    day: 0,
    time: '02:30',
    after: '2026-10-19T00:00:00Z',
    expected: '2026-10-25T00:30:00Z',
    why: 'Sunday in the fold',
  },
  {
    zone: 'Europe/Berlin',
    frequency: 'monthly',
    day: 25,
    time: '02:15',
    after: '2026-10-01T00:00:00Z',
    expected: '2026-10-25T00:15:00Z',
    why: 'the 25th in the fold',
  },
  {
    zone: 'Europe/Berlin',
    frequency: 'quarterly',
    day: 25,
    time: '02:30',
    after: '2026-07-26T00:00:00Z',
    expected: '2026-10-25T00:30:00Z',
    why: 'October, fold',
  },
  // Australia/Lord_Howe: +10:30, +11:00 in DST (a 30-minute shift); 2026-04-05 02:00→01:30, 2026-10-04 02:00→02:30.
  {
    zone: 'Australia/Lord_Howe',
    frequency: 'daily',
    time: '02:15',
    after: '2026-10-03T00:00:00Z',
    expected: '2026-10-03T15:45:00Z',
    why: '30-min gap: 02:15 → 02:45 (+11)',
  },
  {
    zone: 'Australia/Lord_Howe',
    frequency: 'daily',
    time: '01:45',
    after: '2026-04-04T00:00:00Z',
    expected: '2026-04-04T14:45:00Z',
    why: '30-min fold: first 01:45 (+11)',
  },
  {
    zone: 'Australia/Lord_Howe',
    frequency: 'daily',
    time: '01:45',
    after: '2026-04-04T14:45:00Z',
    expected: '2026-04-05T15:15:00Z',
    why: 'next day at +10:30',
  },
  {
    zone: 'Australia/Lord_Howe',
    frequency: 'weekly',
    day: 0,
    time: '02:15',
    after: '2026-09-28T00:00:00Z',
    expected: '2026-10-03T15:45:00Z',
    why: 'Sunday in the gap',
  },
  {
    zone: 'Australia/Lord_Howe',
    frequency: 'monthly',
    day: 4,
    time: '02:15',
    after: '2026-09-10T00:00:00Z',
    expected: '2026-10-03T15:45:00Z',
    why: 'the 4th in the gap',
  },
  {
    zone: 'Australia/Lord_Howe',
    frequency: 'quarterly',
    day: 5,
    time: '01:45',
    after: '2026-01-10T00:00:00Z',
    expected: '2026-04-04T14:45:00Z',
    why: 'April, fold',
  },
  // Asia/Kathmandu: +05:45, no DST.
  {
    zone: 'Asia/Kathmandu',
    frequency: 'daily',
    time: '00:00',
    after: '2026-11-24T00:00:00Z',
    expected: '2026-11-24T18:15:00Z',
    why: '+05:45',
  },
  {
    zone: 'Asia/Kathmandu',
    frequency: 'weekly',
    day: 1,
    time: '09:30',
    after: '2026-11-24T00:00:00Z',
    expected: '2026-11-30T03:45:00Z',
    why: 'Monday',
  },
  {
    zone: 'Asia/Kathmandu',
    frequency: 'monthly',
    day: 28,
    time: '23:59',
    after: '2026-02-28T18:14:00Z',
    expected: '2026-03-28T18:14:00Z',
    why: 'a run at exactly `after` is not next',
  },
  {
    zone: 'Asia/Kathmandu',
    frequency: 'quarterly',
    day: 1,
    time: '00:00',
    after: '2026-11-24T00:00:00Z',
    expected: '2026-12-31T18:15:00Z',
    why: 'January, the previous UTC day',
  },
  // America/Santiago: −04:00, −03:00 in DST (southern); 2026-04-05 00:00→23:00 (Apr 4 again), 2026-09-06 00:00→01:00.
  {
    zone: 'America/Santiago',
    frequency: 'daily',
    time: '00:30',
    after: '2026-09-05T12:00:00Z',
    expected: '2026-09-06T04:30:00Z',
    why: 'midnight gap: 00:30 → 01:30 (−03)',
  },
  {
    zone: 'America/Santiago',
    frequency: 'daily',
    time: '23:30',
    after: '2026-04-04T12:00:00Z',
    expected: '2026-04-05T02:30:00Z',
    why: 'fold before midnight: first 23:30 (−03)',
  },
  {
    zone: 'America/Santiago',
    frequency: 'daily',
    time: '23:30',
    after: '2026-04-05T02:30:00Z',
    expected: '2026-04-06T03:30:00Z',
    why: 'the second 23:30 is not a run',
  },
  {
    zone: 'America/Santiago',
    frequency: 'weekly',
    day: 0,
    time: '00:00',
    after: '2026-09-01T00:00:00Z',
    expected: '2026-09-06T04:00:00Z',
    why: 'a midnight that does not exist → 01:00',
  },
  {
    zone: 'America/Santiago',
    frequency: 'monthly',
    day: 6,
    time: '00:15',
    after: '2026-08-20T00:00:00Z',
    expected: '2026-09-06T04:15:00Z',
    why: 'the 6th in the gap',
  },
  {
    zone: 'America/Santiago',
    frequency: 'quarterly',
    day: 4,
    time: '23:30',
    after: '2026-01-06T00:00:00Z',
    expected: '2026-04-05T02:30:00Z',
    why: 'April, fold',
  },
  // Africa/Cairo: +02:00, +03:00 in DST; 2026-04-24 00:00→01:00 (last Friday), 2026-10-29 24:00→23:00 (last Thursday).
  {
    zone: 'Africa/Cairo',
    frequency: 'daily',
    time: '00:30',
    after: '2026-04-23T12:00:00Z',
    expected: '2026-04-23T22:30:00Z',
    why: 'midnight gap: 00:30 → 01:30 (+03)',
  },
  {
    zone: 'Africa/Cairo',
    frequency: 'daily',
    time: '23:30',
    after: '2026-10-29T12:00:00Z',
    expected: '2026-10-29T20:30:00Z',
    why: 'fold: first 23:30 (+03)',
  },
  {
    zone: 'Africa/Cairo',
    frequency: 'daily',
    time: '23:30',
    after: '2026-10-29T20:30:00Z',
    expected: '2026-10-30T21:30:00Z',
    why: 'next day, +02',
  },
  {
    zone: 'Africa/Cairo',
    frequency: 'weekly',
    day: 5,
    time: '00:00',
    after: '2026-04-20T00:00:00Z',
    expected: '2026-04-23T22:00:00Z',
    why: 'Friday midnight that does not exist',
  },
  {
    zone: 'Africa/Cairo',
    frequency: 'monthly',
    day: 24,
    time: '00:30',
    after: '2026-04-01T00:00:00Z',
    expected: '2026-04-23T22:30:00Z',
    why: 'the 24th in the gap',
  },
  {
    zone: 'Africa/Cairo',
    frequency: 'quarterly',
    day: 1,
    time: '12:00',
    after: '2026-08-01T00:00:00Z',
    expected: '2026-10-01T09:00:00Z',
    why: 'October, still +03',
  },
  // Pacific/Chatham: +12:45, +13:45 in DST; 2026-04-05 03:45→02:45, 2026-09-27 02:45→03:45.
  {
    zone: 'Pacific/Chatham',
    frequency: 'daily',
    time: '03:00',
    after: '2026-09-26T00:00:00Z',
    expected: '2026-09-26T14:15:00Z',
    why: '45-min offset gap: 03:00 → 04:00 (+13:45)',
  },
  {
    zone: 'Pacific/Chatham',
    frequency: 'daily',
    time: '03:00',
    after: '2026-04-04T00:00:00Z',
    expected: '2026-04-04T13:15:00Z',
    why: 'fold: first 03:00 (+13:45)',
  },
  {
    zone: 'Pacific/Chatham',
    frequency: 'daily',
    time: '03:00',
    after: '2026-04-04T13:15:00Z',
    expected: '2026-04-05T14:15:00Z',
    why: 'next day at +12:45',
  },
  {
    zone: 'Pacific/Chatham',
    frequency: 'weekly',
    day: 0,
    time: '03:00',
    after: '2026-09-21T00:00:00Z',
    expected: '2026-09-26T14:15:00Z',
    why: 'Sunday in the gap',
  },
  {
    zone: 'Pacific/Chatham',
    frequency: 'monthly',
    day: 27,
    time: '03:00',
    after: '2026-09-01T00:00:00Z',
    expected: '2026-09-26T14:15:00Z',
    why: 'the 27th in the gap',
  },
  {
    zone: 'Pacific/Chatham',
    frequency: 'quarterly',
    day: 5,
    time: '03:00',
    after: '2026-01-10T00:00:00Z',
    expected: '2026-04-04T13:15:00Z',
    why: 'April, fold',
  },
  // Asia/Kolkata: +05:30, no DST.
  {
    zone: 'Asia/Kolkata',
    frequency: 'daily',
    time: '09:00',
    after: '2026-11-24T03:30:00Z',
    expected: '2026-11-25T03:30:00Z',
    why: 'exactly at the run → the next day',
  },
  {
    zone: 'Asia/Kolkata',
    frequency: 'weekly',
    day: 6,
    time: '18:00',
    after: '2026-11-24T00:00:00Z',
    expected: '2026-11-28T12:30:00Z',
    why: 'Saturday',
  },
  {
    zone: 'Asia/Kolkata',
    frequency: 'monthly',
    day: 1,
    time: '00:00',
    after: '2026-11-24T00:00:00Z',
    expected: '2026-11-30T18:30:00Z',
    why: 'the 1st, the previous UTC day',
  },
  {
    zone: 'Asia/Kolkata',
    frequency: 'quarterly',
    day: 15,
    time: '08:00',
    after: '2026-11-24T00:00:00Z',
    expected: '2027-01-15T02:30:00Z',
    why: 'January',
  },
  // UTC.
  {
    zone: 'UTC',
    frequency: 'daily',
    time: '00:00',
    after: '2026-12-31T23:59:00Z',
    expected: '2027-01-01T00:00:00Z',
    why: 'over the year end',
  },
  {
    zone: 'UTC',
    frequency: 'weekly',
    day: 3,
    time: '12:00',
    after: '2026-11-25T12:00:00Z',
    expected: '2026-12-02T12:00:00Z',
    why: 'Wednesday, a week on',
  },
  {
    zone: 'UTC',
    frequency: 'monthly',
    day: 28,
    time: '23:59',
    after: '2027-02-01T00:00:00Z',
    expected: '2027-02-28T23:59:00Z',
    why: 'the 28th of February',
  },
  {
    zone: 'UTC',
    frequency: 'quarterly',
    day: 28,
    time: '10:00',
    after: '2026-10-28T10:00:00Z',
    expected: '2027-01-28T10:00:00Z',
    why: 'a quarter on',
  },
];

describe('next_run_at (Temporal, compatible disambiguation)', () => {
  it.each(CASES)('$zone $frequency $time after $after → $expected ($why)', (c) => {
    expect(new Date(nextRunAt(rule(c), Date.parse(c.after))).toISOString()).toBe(
      new Date(Date.parse(c.expected)).toISOString(),
    );
  });

  it('covers every zone of the issue with each of the four frequencies', () => {
    const zones = [
      'America/New_York',
      'Europe/Berlin',
      'Australia/Lord_Howe',
      'Asia/Kathmandu',
      'America/Santiago',
      'Africa/Cairo',
      'Pacific/Chatham',
      'Asia/Kolkata',
      'UTC',
    ];
    for (const zone of zones) {
      const frequencies = new Set(CASES.filter((c) => c.zone === zone).map((c) => c.frequency));
      expect([...frequencies].sort(), zone).toEqual(['daily', 'monthly', 'quarterly', 'weekly']);
    }
  });

  it('runs quarterly schedules in January, April, July and October only', () => {
    const months: string[] = [];
    let after = Date.parse('2026-02-01T00:00:00Z');
    for (let i = 0; i < 8; i++) {
      after = nextRunAt(
        { frequency: 'quarterly', dayOfWeek: null, dayOfMonth: 3, timeOfDay: '06:00', timezone: 'Asia/Kolkata' },
        after,
      );
      months.push(new Date(after).toISOString().slice(0, 10));
    }
    expect(months).toEqual([
      '2026-04-03',
      '2026-07-03',
      '2026-10-03',
      '2027-01-03',
      '2027-04-03',
      '2027-07-03',
      '2027-10-03',
      '2028-01-03',
    ]);
  });

  it('runs a weekly schedule on each day_of_week (0 = Sunday … 6 = Saturday)', () => {
    // 2026-11-22 is a Sunday.
    for (let dow = 0; dow <= 6; dow++) {
      const at = nextRunAt(
        { frequency: 'weekly', dayOfWeek: dow, dayOfMonth: null, timeOfDay: '12:00', timezone: 'UTC' },
        Date.parse('2026-11-21T13:00:00Z'),
      );
      expect(new Date(at).toISOString()).toBe(`2026-11-${String(22 + dow).padStart(2, '0')}T12:00:00.000Z`);
    }
  });
});

describe('the period a run reports (DECISIONS §12)', () => {
  const p = (f: Frequency, runAt: string, zone: string) => {
    const r = periodBefore(f, Date.parse(runAt), zone);
    return {
      from: new Date(r.from).toISOString(),
      to: new Date(r.to).toISOString(),
      hours: (r.to - r.from) / 3_600_000,
    };
  };

  it('daily: the previous local day, 23 hours long across the spring switch', () => {
    expect(p('daily', '2026-03-30T06:00:00Z', 'Europe/Berlin')).toEqual({
      from: '2026-03-28T23:00:00.000Z',
      to: '2026-03-29T22:00:00.000Z',
      hours: 23,
    });
  });

  it('daily: a day that starts in a midnight gap starts at 01:00 (Santiago)', () => {
    expect(p('daily', '2026-09-07T12:00:00Z', 'America/Santiago')).toEqual({
      from: '2026-09-06T04:00:00.000Z',
      to: '2026-09-07T03:00:00.000Z',
      hours: 23,
    });
  });

  it('weekly: the 7 local days ending at the run day’s local midnight, 169 hours across the autumn switch', () => {
    expect(p('weekly', '2026-10-28T07:00:00Z', 'Europe/Berlin')).toEqual({
      from: '2026-10-20T22:00:00.000Z',
      to: '2026-10-27T23:00:00.000Z',
      hours: 169,
    });
  });

  it('monthly: the previous calendar month (Berlin’s March lasts 743 hours)', () => {
    expect(p('monthly', '2026-04-01T08:00:00Z', 'Europe/Berlin')).toEqual({
      from: '2026-02-28T23:00:00.000Z',
      to: '2026-03-31T22:00:00.000Z',
      hours: 743,
    });
  });

  it('quarterly: the previous calendar quarter in the zone', () => {
    expect(p('quarterly', '2026-10-01T03:00:00Z', 'Asia/Kolkata')).toEqual({
      from: '2026-06-30T18:30:00.000Z',
      to: '2026-09-30T18:30:00.000Z',
      hours: 92 * 24,
    });
  });
});
