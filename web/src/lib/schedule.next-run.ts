import { Temporal } from 'temporal-polyfill';

/**
 * The next run of a schedule, computed in the browser exactly as the server does
 * (src/modules/scheduled-reports/scheduled-report.schedule.ts, DECISIONS §8): the first instant after `after` whose
 * local date in `timezone` fits the frequency, at `time_of_day`. A time skipped by a DST change moves forward by the
 * gap, a time that happens twice is taken the first time (`disambiguation: 'compatible'`). The page shows it while
 * the form is edited; test/web/schedule.next-run.test.ts checks it against the server's function.
 */
export interface ScheduleFields {
  frequency: 'daily' | 'weekly' | 'monthly' | 'quarterly';
  day_of_week: number | null;
  day_of_month: number | null;
  time_of_day: string;
  timezone: string;
}

const QUARTER_MONTHS = new Set([1, 4, 7, 10]);

function timeOf(value: string): { hour: number; minute: number } | null {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(value);
  return m ? { hour: Number(m[1]), minute: Number(m[2]) } : null;
}

/** Whether `zone` is an IANA zone name (offsets such as +02:00 are refused by the API: they ignore DST). */
export function isTimeZone(zone: string): boolean {
  if (!/^[A-Za-z]/.test(zone)) return false;
  try {
    Temporal.Now.zonedDateTimeISO(zone);
    return true;
  } catch {
    return false;
  }
}

function runsOn(s: ScheduleFields, date: Temporal.PlainDate): boolean {
  switch (s.frequency) {
    case 'daily':
      return true;
    case 'weekly':
      // Temporal numbers Monday 1 … Sunday 7; the API numbers Sunday 0 … Saturday 6.
      return date.dayOfWeek % 7 === s.day_of_week;
    case 'monthly':
      return date.day === s.day_of_month;
    case 'quarterly':
      return date.day === s.day_of_month && QUARTER_MONTHS.has(date.month);
  }
}

function nextCandidate(s: ScheduleFields, date: Temporal.PlainDate): Temporal.PlainDate {
  if (s.frequency === 'daily' || s.frequency === 'weekly') return date.add({ days: 1 });
  const day = s.day_of_month ?? 1;
  const thisMonth = date.with({ day });
  return Temporal.PlainDate.compare(thisMonth, date) > 0
    ? thisMonth
    : date.with({ day: 1 }).add({ months: 1 }).with({ day });
}

/**
 * The first run strictly after `after` (epoch ms), or null while the fields cannot make a schedule (no zone, a
 * missing or out-of-range day): the form then says what is missing instead of a time.
 */
export function nextRunAt(s: ScheduleFields, after: number): number | null {
  const time = timeOf(s.time_of_day);
  if (!time || !isTimeZone(s.timezone)) return null;
  if (s.frequency === 'weekly' && (s.day_of_week === null || s.day_of_week < 0 || s.day_of_week > 6)) return null;
  if (
    (s.frequency === 'monthly' || s.frequency === 'quarterly') &&
    (s.day_of_month === null || s.day_of_month < 1 || s.day_of_month > 28)
  )
    return null;
  // Start a day early: a run on the previous local date can still lie after `after` when a gap pushed it forward.
  let date = Temporal.Instant.fromEpochMilliseconds(after).toZonedDateTimeISO(s.timezone).toPlainDate().subtract({
    days: 1,
  });
  if (s.frequency === 'monthly' || s.frequency === 'quarterly') date = date.with({ day: 1 }).subtract({ months: 1 });
  for (let i = 0; i < 2000; i++) {
    if (runsOn(s, date)) {
      const at = Temporal.PlainDateTime.from({
        year: date.year,
        month: date.month,
        day: date.day,
        ...time,
      }).toZonedDateTime(s.timezone, { disambiguation: 'compatible' }).epochMilliseconds;
      if (at > after) return at;
    }
    date = nextCandidate(s, date);
  }
  return null;
}
