import { describe, expect, it } from 'vitest';
import { nextOccurrence, occurrenceAt, occurrencesBetween } from './maintenance.occurrences.ts';
import { parseRrule } from './maintenance.rrule.ts';
import type { MaintenanceWindow } from './maintenance.types.ts';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

function recurring(
  rrule: string,
  startTime: string,
  durationMinutes: number,
  timezone: string,
  startDate: string,
  earlyEnds: MaintenanceWindow['earlyEnds'] = [],
): Pick<MaintenanceWindow, 'schedule' | 'timezone' | 'earlyEnds'> {
  return { schedule: { type: 'recurring', rrule, startTime, durationMinutes, startDate }, timezone, earlyEnds };
}

/** Starts (UTC) of the occurrences overlapping [from, to). */
function starts(w: Pick<MaintenanceWindow, 'schedule' | 'timezone' | 'earlyEnds'>, from: string, to: string): string[] {
  return occurrencesBetween(w, at(from), at(to)).map((o) => iso(o.start));
}

describe('recurring windows across DST (local start time, compatible disambiguation)', () => {
  // Each row: a daily window at a local time, over the days around a transition; the expected UTC starts are worked out
  // by hand from the zone's offsets (a time in a spring-forward gap moves forward by the gap; a repeated time takes
  // its first occurrence).
  const table: Array<{ zone: string; time: string; from: string; to: string; expected: string[]; why: string }> = [
    {
      zone: 'Europe/Berlin',
      time: '02:30',
      from: '2027-03-27T00:00:00Z',
      to: '2027-03-30T00:00:00Z',
      expected: ['2027-03-27T01:30:00Z', '2027-03-28T01:30:00Z', '2027-03-29T00:30:00Z'],
      why: '28 Mar 02:30 does not exist (02:00 CET → 03:00 CEST): 03:30 CEST = 01:30Z',
    },
    {
      zone: 'Europe/Berlin',
      time: '02:30',
      from: '2026-10-24T00:00:00Z',
      to: '2026-10-27T00:00:00Z',
      expected: ['2026-10-24T00:30:00Z', '2026-10-25T00:30:00Z', '2026-10-26T01:30:00Z'],
      why: '25 Oct 02:30 happens twice: the first, CEST (+02:00)',
    },
    {
      zone: 'America/New_York',
      time: '02:30',
      from: '2027-03-13T00:00:00Z',
      to: '2027-03-16T00:00:00Z',
      expected: ['2027-03-13T07:30:00Z', '2027-03-14T07:30:00Z', '2027-03-15T06:30:00Z'],
      why: '14 Mar 02:30 is in the gap: 03:30 EDT = 07:30Z',
    },
    {
      zone: 'America/New_York',
      time: '01:30',
      from: '2026-10-31T00:00:00Z',
      to: '2026-11-03T00:00:00Z',
      expected: ['2026-10-31T05:30:00Z', '2026-11-01T05:30:00Z', '2026-11-02T06:30:00Z'],
      why: '1 Nov 01:30 happens twice: the first, EDT',
    },
    {
      zone: 'Australia/Sydney',
      time: '02:30',
      from: '2026-10-02T00:00:00Z',
      to: '2026-10-05T00:00:00Z',
      expected: ['2026-10-02T16:30:00Z', '2026-10-03T16:30:00Z', '2026-10-04T15:30:00Z'],
      why: 'southern spring, 4 Oct 02:30 is in the gap: 03:30 AEDT (+11) = 16:30Z on the 3rd',
    },
    {
      zone: 'Australia/Sydney',
      time: '02:30',
      from: '2027-04-02T00:00:00Z',
      to: '2027-04-05T00:00:00Z',
      expected: ['2027-04-02T15:30:00Z', '2027-04-03T15:30:00Z', '2027-04-04T16:30:00Z'],
      why: '4 Apr 02:30 happens twice: the first, AEDT',
    },
    {
      zone: 'Australia/Lord_Howe',
      time: '02:15',
      from: '2026-10-02T00:00:00Z',
      to: '2026-10-05T00:00:00Z',
      expected: ['2026-10-02T15:45:00Z', '2026-10-03T15:45:00Z', '2026-10-04T15:15:00Z'],
      why: 'a 30-minute shift: 4 Oct 02:15 does not exist, 02:45 (+11) = 15:45Z on the 3rd',
    },
    {
      zone: 'Pacific/Auckland',
      time: '02:30',
      from: '2026-09-25T00:00:00Z',
      to: '2026-09-28T00:00:00Z',
      expected: ['2026-09-25T14:30:00Z', '2026-09-26T14:30:00Z', '2026-09-27T13:30:00Z'],
      why: '27 Sep 02:30 is in the gap: 03:30 NZDT (+13) = 14:30Z on the 26th',
    },
    {
      zone: 'Asia/Kolkata',
      time: '09:00',
      from: '2027-03-27T00:00:00Z',
      to: '2027-03-30T00:00:00Z',
      expected: ['2027-03-27T03:30:00Z', '2027-03-28T03:30:00Z', '2027-03-29T03:30:00Z'],
      why: 'no DST, +05:30 all year',
    },
  ];
  it.each(table)('$zone $time: $why', ({ zone, time, from, to, expected }) => {
    expect(starts(recurring('FREQ=DAILY', time, 30, zone, '2026-01-01'), from, to)).toEqual(expected);
  });

  it('a weekly Sunday window in Europe/London keeps 01:30 local through the spring-forward gap', () => {
    const w = recurring('FREQ=WEEKLY;BYDAY=SU', '01:30', 60, 'Europe/London', '2027-03-01');
    expect(starts(w, '2027-03-20T00:00:00Z', '2027-04-05T00:00:00Z')).toEqual([
      '2027-03-21T01:30:00Z', // GMT
      '2027-03-28T01:30:00Z', // 01:30 does not exist: 02:30 BST = 01:30Z
      '2027-04-04T00:30:00Z', // BST
    ]);
  });

  it('a duration is real time: three hours from 01:00 on the Berlin fall-back night end at 03:00 CET', () => {
    const [o] = occurrencesBetween(
      recurring('FREQ=DAILY;COUNT=1', '01:00', 180, 'Europe/Berlin', '2026-10-25'),
      at('2026-10-01T00:00:00Z'),
      at('2026-11-01T00:00:00Z'),
    );
    expect(o).toEqual({ start: at('2026-10-24T23:00:00Z'), end: at('2026-10-25T02:00:00Z') });
  });
});

describe('RRULE rules', () => {
  it('INTERVAL counts weeks from the start date; BYDAY picks several days', () => {
    const w = recurring('FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH', '22:00', 60, 'UTC', '2026-11-02'); // a Monday
    expect(starts(w, '2026-11-01T00:00:00Z', '2026-11-30T00:00:00Z')).toEqual([
      '2026-11-03T22:00:00Z',
      '2026-11-05T22:00:00Z',
      '2026-11-17T22:00:00Z',
      '2026-11-19T22:00:00Z',
    ]);
  });

  it('MONTHLY with an ordinal weekday (last Friday) and with BYMONTHDAY=-1 (last day)', () => {
    const lastFriday = recurring('FREQ=MONTHLY;BYDAY=-1FR', '20:00', 120, 'UTC', '2026-01-01');
    expect(starts(lastFriday, '2026-01-01T00:00:00Z', '2026-04-01T00:00:00Z')).toEqual([
      '2026-01-30T20:00:00Z',
      '2026-02-27T20:00:00Z',
      '2026-03-27T20:00:00Z',
    ]);
    const lastDay = recurring('FREQ=MONTHLY;BYMONTHDAY=-1', '23:00', 30, 'UTC', '2026-01-01');
    expect(starts(lastDay, '2026-01-01T00:00:00Z', '2026-04-01T00:00:00Z')).toEqual([
      '2026-01-31T23:00:00Z',
      '2026-02-28T23:00:00Z',
      '2026-03-31T23:00:00Z',
    ]);
    // The 31st only in months that have one (RFC 5545: invalid dates are skipped).
    const the31st = recurring('FREQ=MONTHLY;BYMONTHDAY=31', '01:00', 30, 'UTC', '2026-01-01');
    expect(starts(the31st, '2026-01-01T00:00:00Z', '2026-06-01T00:00:00Z')).toEqual([
      '2026-01-31T01:00:00Z',
      '2026-03-31T01:00:00Z',
      '2026-05-31T01:00:00Z',
    ]);
  });

  it('COUNT ends after that many occurrences counted from the start date; UNTIL after that instant', () => {
    const counted = recurring('FREQ=DAILY;COUNT=3', '12:00', 10, 'UTC', '2026-05-01');
    expect(starts(counted, '2026-05-02T12:05:00Z', '2026-06-01T00:00:00Z')).toEqual([
      '2026-05-02T12:00:00Z', // still in progress at `from`
      '2026-05-03T12:00:00Z',
    ]);
    const until = recurring('FREQ=DAILY;UNTIL=20260503T120000Z', '12:00', 10, 'UTC', '2026-05-01');
    expect(starts(until, '2026-05-01T00:00:00Z', '2026-06-01T00:00:00Z')).toHaveLength(3);
  });

  it('far from the start date the expansion jumps ahead and still lands on the right weeks', () => {
    const w = recurring('FREQ=WEEKLY;INTERVAL=3;BYDAY=MO', '10:00', 60, 'Europe/Paris', '2020-01-06');
    // Weeks since 2020-01-06: 2026-11-09 is week 357 = 3 × 119, then 2026-11-30 (360) and 2026-12-21 (363); 10:00 CET.
    expect(starts(w, '2026-11-01T00:00:00Z', '2026-12-31T00:00:00Z')).toEqual([
      '2026-11-09T09:00:00Z',
      '2026-11-30T09:00:00Z',
      '2026-12-21T09:00:00Z',
    ]);
  });

  it('an occurrence ended early lasts until it was ended; the next starts as planned', () => {
    const w = recurring('FREQ=DAILY', '10:00', 120, 'UTC', '2026-01-01', [
      { start: at('2026-03-01T10:00:00Z'), endedAt: at('2026-03-01T10:30:00Z') },
    ]);
    expect(occurrenceAt(w, at('2026-03-01T10:20:00Z'))).toEqual({
      start: at('2026-03-01T10:00:00Z'),
      end: at('2026-03-01T10:30:00Z'),
    });
    expect(occurrenceAt(w, at('2026-03-01T10:40:00Z'))).toBeNull();
    expect(nextOccurrence(w, at('2026-03-01T10:40:00Z'))).toEqual({
      start: at('2026-03-02T10:00:00Z'),
      end: at('2026-03-02T12:00:00Z'),
    });
  });

  it.each([
    ['FREQ=YEARLY', 'FREQ=YEARLY is not supported'],
    ['FREQ=HOURLY', 'FREQ=HOURLY is not supported'],
    ['FREQ=DAILY;BYHOUR=3', 'BYHOUR is not supported'],
    ['FREQ=WEEKLY;BYDAY=XX', 'BYDAY value "XX" is not a weekday'],
    ['FREQ=WEEKLY;BYDAY=1MO', 'BYDAY ordinals (1MO) need FREQ=MONTHLY'],
    ['FREQ=DAILY;COUNT=2;UNTIL=20270101', 'COUNT and UNTIL cannot both be given'],
    ['FREQ=DAILY;UNTIL=20270231', 'UNTIL "20270231" must be'],
    ['FREQ=DAILY;INTERVAL=0', 'INTERVAL must be an integer'],
    ['BYDAY=MO', 'FREQ is required'],
    ['FREQ=MONTHLY;BYMONTHDAY=32', 'BYMONTHDAY value "32"'],
  ])('refuses %s', (rule, issue) => {
    const parsed = parseRrule(rule);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.issue).toContain(issue);
  });
});
