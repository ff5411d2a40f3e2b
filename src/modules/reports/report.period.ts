import { Temporal } from 'temporal-polyfill';

/** Period presets of DECISIONS §8. */
export const PERIOD_PRESETS = [
  'last_24_hours',
  'last_7_days',
  'last_30_days',
  'last_90_days',
  'month_to_date',
  'previous_month',
  'quarter_to_date',
  'previous_quarter',
] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];

/** Calendar periods of SLA targets. */
export const SLA_PERIODS = ['daily', 'weekly', 'monthly', 'quarterly'] as const;
export type SlaPeriod = (typeof SLA_PERIODS)[number];

/** A half-open window [from, to) in epoch ms. */
export interface Window {
  from: number;
  to: number;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export function isTimeZone(timezone: string): boolean {
  try {
    Temporal.Now.zonedDateTimeISO(timezone);
    return true;
  } catch {
    return false;
  }
}

function zoned(ms: number, timezone: string): Temporal.ZonedDateTime {
  return Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(timezone);
}

/** The instant a local date begins in `timezone` (a midnight that does not exist begins at the first later time). */
function startOfDate(date: Temporal.PlainDate, timezone: string): number {
  return date.toZonedDateTime({ timeZone: timezone }).epochMilliseconds;
}

function quarterStart(date: Temporal.PlainDate): Temporal.PlainDate {
  return Temporal.PlainDate.from({ year: date.year, month: date.month - ((date.month - 1) % 3), day: 1 });
}

/**
 * A preset resolved at `now` in `timezone`: `last_N_*` are the instants N×24 h before now (no calendar);
 * `*_to_date` run from the local start of the month or quarter to now; `previous_*` are whole calendar periods.
 */
export function presetWindow(preset: PeriodPreset, now: number, timezone: string): Window {
  const today = zoned(now, timezone).toPlainDate();
  switch (preset) {
    case 'last_24_hours':
      return { from: now - DAY_MS, to: now };
    case 'last_7_days':
      return { from: now - 7 * DAY_MS, to: now };
    case 'last_30_days':
      return { from: now - 30 * DAY_MS, to: now };
    case 'last_90_days':
      return { from: now - 90 * DAY_MS, to: now };
    case 'month_to_date':
      return { from: startOfDate(today.with({ day: 1 }), timezone), to: now };
    case 'previous_month': {
      const first = today.with({ day: 1 });
      return { from: startOfDate(first.subtract({ months: 1 }), timezone), to: startOfDate(first, timezone) };
    }
    case 'quarter_to_date':
      return { from: startOfDate(quarterStart(today), timezone), to: now };
    case 'previous_quarter': {
      const first = quarterStart(today);
      return { from: startOfDate(first.subtract({ months: 3 }), timezone), to: startOfDate(first, timezone) };
    }
  }
}

/** The calendar period (in `timezone`; weeks start on Monday) that contains the instant `at`. */
export function periodContaining(period: SlaPeriod, at: number, timezone: string): Window {
  const date = zoned(at, timezone).toPlainDate();
  let first: Temporal.PlainDate;
  let next: Temporal.PlainDate;
  switch (period) {
    case 'daily':
      first = date;
      next = date.add({ days: 1 });
      break;
    case 'weekly':
      first = date.subtract({ days: date.dayOfWeek - 1 });
      next = first.add({ days: 7 });
      break;
    case 'monthly':
      first = date.with({ day: 1 });
      next = first.add({ months: 1 });
      break;
    case 'quarterly':
      first = quarterStart(date);
      next = first.add({ months: 3 });
      break;
  }
  return { from: startOfDate(first, timezone), to: startOfDate(next, timezone) };
}

/** The calendar periods that overlap [from, to), oldest first, each whole (not clipped). */
export function periodsOverlapping(period: SlaPeriod, window: Window, timezone: string): Window[] {
  const out: Window[] = [];
  let p = periodContaining(period, window.from, timezone);
  while (p.from < window.to && out.length < 5000) {
    out.push(p);
    p = periodContaining(period, p.to, timezone);
  }
  return out;
}

export interface LocalDay extends Window {
  /** YYYY-MM-DD in the report's time zone. */
  date: string;
}

/** The local days of `timezone` that overlap [from, to), each clipped to the window (23, 24 or 25 h when whole). */
export function localDays(window: Window, timezone: string): LocalDay[] {
  return periodsOverlapping('daily', window, timezone).map((d) => ({
    date: zoned(d.from, timezone).toPlainDate().toString(),
    from: Math.max(d.from, window.from),
    to: Math.min(d.to, window.to),
  }));
}
