import { Temporal } from 'temporal-polyfill';
import type { Frequency } from './scheduled-report.schedule.ts';

/** The period a run reports on: half-open [from, to) in epoch ms, with the zone it was taken in. */
export interface RunPeriod {
  from: number;
  to: number;
  timezone: string;
}

function startOf(date: Temporal.PlainDate, timezone: string): number {
  // A midnight that does not exist (a DST gap at 00:00) begins at the first later instant.
  return date.toZonedDateTime({ timeZone: timezone }).epochMilliseconds;
}

/**
 * DECISIONS §12: the last complete period before the run, in the schedule's zone. daily → the previous local day;
 * weekly → the 7 local days ending at the run day's local midnight; monthly → the previous calendar month;
 * quarterly → the previous calendar quarter. Lengths are real (a DST day lasts 23 or 25 hours).
 */
export function periodBefore(frequency: Frequency, runAt: number, timezone: string): RunPeriod {
  const today = Temporal.Instant.fromEpochMilliseconds(runAt).toZonedDateTimeISO(timezone).toPlainDate();
  let first: Temporal.PlainDate;
  let end: Temporal.PlainDate;
  switch (frequency) {
    case 'daily':
      end = today;
      first = today.subtract({ days: 1 });
      break;
    case 'weekly':
      end = today;
      first = today.subtract({ days: 7 });
      break;
    case 'monthly':
      end = today.with({ day: 1 });
      first = end.subtract({ months: 1 });
      break;
    case 'quarterly':
      end = Temporal.PlainDate.from({ year: today.year, month: today.month - ((today.month - 1) % 3), day: 1 });
      first = end.subtract({ months: 3 });
      break;
  }
  return { from: startOf(first, timezone), to: startOf(end, timezone), timezone };
}
