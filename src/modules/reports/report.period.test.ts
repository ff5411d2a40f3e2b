import { describe, expect, it } from 'vitest';
import { localDays, periodContaining, periodsOverlapping, presetWindow } from './report.period.ts';

const at = (iso: string) => Date.parse(iso);
const H = 3_600_000;

describe('report periods', () => {
  it('calendar presets are local: previous_month in Berlin across the spring DST change is 743 h', () => {
    const w = presetWindow('previous_month', at('2027-04-10T12:00:00Z'), 'Europe/Berlin');
    expect(w).toEqual({ from: at('2027-02-28T23:00:00Z'), to: at('2027-03-31T22:00:00Z') });
    expect((w.to - w.from) / H).toBe(743);
  });

  it('quarters start in January, April, July and October; weeks on Monday', () => {
    expect(presetWindow('previous_quarter', at('2026-11-23T00:00:00Z'), 'UTC')).toEqual({
      from: at('2026-07-01T00:00:00Z'),
      to: at('2026-10-01T00:00:00Z'),
    });
    expect(presetWindow('quarter_to_date', at('2026-11-23T00:00:00Z'), 'UTC').from).toBe(at('2026-10-01T00:00:00Z'));
    // 2026-11-25 is a Wednesday: its week is Mon 23 → Mon 30.
    expect(periodContaining('weekly', at('2026-11-25T10:00:00Z'), 'UTC')).toEqual({
      from: at('2026-11-23T00:00:00Z'),
      to: at('2026-11-30T00:00:00Z'),
    });
  });

  it('last_N_days are instants N × 24 h back, whatever the zone', () => {
    const now = at('2026-11-03T12:00:00Z');
    expect(presetWindow('last_7_days', now, 'America/New_York')).toEqual({ from: now - 7 * 24 * H, to: now });
  });

  it('local days are 23, 24 or 25 h and clipped to the window', () => {
    const days = localDays({ from: at('2026-10-31T04:00:00Z'), to: at('2026-11-02T05:00:00Z') }, 'America/New_York');
    expect(days.map((d) => [d.date, (d.to - d.from) / H])).toEqual([
      ['2026-10-31', 24],
      ['2026-11-01', 25],
    ]);
    const clipped = localDays({ from: at('2026-10-31T10:00:00Z'), to: at('2026-10-31T11:00:00Z') }, 'UTC');
    expect(clipped).toEqual([{ date: '2026-10-31', from: at('2026-10-31T10:00:00Z'), to: at('2026-10-31T11:00:00Z') }]);
  });

  it('periods overlapping a range are whole periods', () => {
    const p = periodsOverlapping(
      'monthly',
      { from: at('2026-07-15T00:00:00Z'), to: at('2026-09-02T00:00:00Z') },
      'UTC',
    );
    expect(p.map((w) => new Date(w.from).toISOString().slice(0, 10))).toEqual([
      '2026-07-01',
      '2026-08-01',
      '2026-09-01',
    ]);
  });
});
