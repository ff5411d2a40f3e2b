import { describe, expect, it } from 'vitest';
import { OccurrenceMemo } from './maintenance.occurrence-memo.ts';
import { occurrencesBetween } from './maintenance.occurrences.ts';
import type { MaintenanceWindow } from './maintenance.types.ts';

type Timed = Pick<MaintenanceWindow, 'id' | 'schedule' | 'timezone' | 'earlyEnds'>;

const at = (iso: string) => Date.parse(iso);
const MINUTE = 60_000;

function recurring(id: string, rrule: string, startTime: string, minutes: number, zone = 'Europe/Berlin'): Timed {
  return {
    id,
    schedule: { type: 'recurring', rrule, startTime, durationMinutes: minutes, startDate: '2027-03-01' },
    timezone: zone,
    earlyEnds: [],
  };
}

const WINDOWS: Timed[] = [
  {
    id: 'once',
    schedule: { type: 'once', startsAt: at('2027-03-27T10:00:00Z'), endsAt: at('2027-03-27T12:00:00Z') },
    timezone: 'UTC',
    earlyEnds: [],
  },
  recurring('daily-dst', 'FREQ=DAILY', '02:30', 90), // across the spring-forward of 28 Mar 2027 in Berlin
  recurring('weekly', 'FREQ=WEEKLY;BYDAY=SA,SU', '23:45', 30),
  recurring('monthly', 'FREQ=MONTHLY;BYDAY=-1SA', '09:00', 240),
  recurring('count', 'FREQ=DAILY;INTERVAL=2;COUNT=20', '12:00', 45, 'America/New_York'),
];

describe('OccurrenceMemo', () => {
  it('answers as occurrencesBetween over a look-back range that slides forward every 5 s (as the role asks)', () => {
    // 26 → 29 Mar in 5-second steps would be 50,000 questions per window; steps of 599 s
    // (not a divisor of a day or an hour, so the asked instants fall everywhere relative to the occurrences) suffice.
    const memo = new OccurrenceMemo();
    let asked = 0;
    for (let now = at('2027-03-26T00:00:00Z'); now < at('2027-03-29T00:00:00Z'); now += 599_000) {
      const since = Math.max(at('2027-03-25T00:00:00Z'), now - 24 * 60 * MINUTE);
      for (const w of WINDOWS) {
        expect(memo.between(w, since, now + 1)).toEqual(occurrencesBetween(w, since, now + 1));
        asked += 1;
      }
    }
    expect(asked).toBeGreaterThan(2_000);
  });

  it('computes again when the window is ended early or edited, also at the same updated_at', () => {
    const memo = new OccurrenceMemo();
    const w = recurring('w', 'FREQ=DAILY', '10:00', 120, 'UTC');
    const now = at('2027-03-27T10:30:00Z');
    expect(memo.between(w, now - MINUTE, now + 1)).toEqual([
      { start: at('2027-03-27T10:00:00Z'), end: at('2027-03-27T12:00:00Z') },
    ]);
    const ended = { ...w, earlyEnds: [{ start: at('2027-03-27T10:00:00Z'), endedAt: now }] };
    expect(memo.between(ended, now - MINUTE, now + 1)).toEqual([{ start: at('2027-03-27T10:00:00Z'), end: now }]);
    const moved = { ...w, schedule: { ...w.schedule, startTime: '11:00' } } as Timed;
    expect(memo.between(moved, now - MINUTE, now + 1)).toEqual([]);
    const zoned = { ...w, timezone: 'Asia/Tokyo' }; // 10:00 JST = 01:00Z: nothing at 10:30Z
    expect(memo.between(zoned, now - MINUTE, now + 1)).toEqual([]);
  });

  it('computes once per window while the asked range stays inside what it computed, and forgets deleted windows', () => {
    let computed = 0;
    const memo = new OccurrenceMemo({
      aheadMs: 10 * MINUTE,
      compute: (w, from, to) => {
        computed += 1;
        return occurrencesBetween(w, from, to);
      },
    });
    const w = recurring('w', 'FREQ=DAILY', '10:00', 120, 'UTC');
    const start = at('2027-03-27T10:00:00Z');
    // 120 passes 5 s apart within the 10 minutes computed ahead: one computation.
    for (let now = start; now < start + 10 * MINUTE; now += 5_000) memo.between(w, start - MINUTE, now + 1);
    expect(computed).toBe(1);
    memo.between(w, start - MINUTE, start + 11 * MINUTE); // past what was computed
    expect(computed).toBe(2);
    memo.between(w, start - 2 * MINUTE, start + 11 * MINUTE); // from before what was computed
    expect(computed).toBe(3);
    memo.between({ ...w, earlyEnds: [{ start, endedAt: start + MINUTE }] }, start - 2 * MINUTE, start + MINUTE);
    expect(computed).toBe(4);
    expect(memo.size).toBe(1);
    memo.retainOnly(new Set(['another']));
    expect(memo.size).toBe(0);
  });
});
