import { Temporal } from 'temporal-polyfill';

export const FREQUENCIES = ['daily', 'weekly', 'monthly', 'quarterly'] as const;
export type Frequency = (typeof FREQUENCIES)[number];

/** The fields that decide when a schedule runs (DECISIONS §8; never a cron expression). */
export interface ScheduleRule {
  frequency: Frequency;
  /** 0 = Sunday … 6 = Saturday; weekly only. */
  dayOfWeek: number | null;
  /** 1 … 28; monthly and quarterly only. */
  dayOfMonth: number | null;
  /** `HH:MM`, local to `timezone`. */
  timeOfDay: string;
  timezone: string;
}

const QUARTER_MONTHS = new Set([1, 4, 7, 10]);

export function parseTimeOfDay(value: string): { hour: number; minute: number } | null {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(value);
  return m ? { hour: Number(m[1]), minute: Number(m[2]) } : null;
}

function runsOn(rule: ScheduleRule, date: Temporal.PlainDate): boolean {
  switch (rule.frequency) {
    case 'daily':
      return true;
    case 'weekly':
      // Temporal numbers Monday 1 … Sunday 7; the API numbers Sunday 0 … Saturday 6.
      return date.dayOfWeek % 7 === rule.dayOfWeek;
    case 'monthly':
      return date.day === rule.dayOfMonth;
    case 'quarterly':
      return date.day === rule.dayOfMonth && QUARTER_MONTHS.has(date.month);
  }
}

/** The next candidate date after `date` on which the rule may run (skips whole months for monthly rules). */
function nextCandidate(rule: ScheduleRule, date: Temporal.PlainDate): Temporal.PlainDate {
  if (rule.frequency === 'daily' || rule.frequency === 'weekly') return date.add({ days: 1 });
  const day = rule.dayOfMonth ?? 1;
  const thisMonth = date.with({ day });
  return Temporal.PlainDate.compare(thisMonth, date) > 0
    ? thisMonth
    : date.with({ day: 1 }).add({ months: 1 }).with({ day });
}

/**
 * The instant of the rule's local time on `date`: a time inside a DST gap moves forward by the gap's length, a
 * time that happens twice takes its first occurrence (`disambiguation: 'compatible'`, RFC 5545's behaviour).
 */
export function localRunInstant(rule: ScheduleRule, date: Temporal.PlainDate): number {
  const time = parseTimeOfDay(rule.timeOfDay);
  if (!time) throw new Error(`not a time of day: ${rule.timeOfDay}`);
  return Temporal.PlainDateTime.from({ year: date.year, month: date.month, day: date.day, ...time }).toZonedDateTime(
    rule.timezone,
    { disambiguation: 'compatible' },
  ).epochMilliseconds;
}

/** The first run of the rule strictly after `after` (epoch ms). */
export function nextRunAt(rule: ScheduleRule, after: number): number {
  // Start a day early: a run on the previous local date can still lie after `after` when a gap pushed it forward.
  let date = Temporal.Instant.fromEpochMilliseconds(after).toZonedDateTimeISO(rule.timezone).toPlainDate().subtract({
    days: 1,
  });
  if (rule.frequency === 'monthly' || rule.frequency === 'quarterly')
    date = date.with({ day: 1 }).subtract({ months: 1 });
  for (let i = 0; i < 2000; i++) {
    if (runsOn(rule, date)) {
      const at = localRunInstant(rule, date);
      if (at > after) return at;
    }
    date = nextCandidate(rule, date);
  }
  throw new Error('no next run found within 2000 candidate dates');
}
