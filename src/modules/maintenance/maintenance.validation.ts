import { Temporal } from 'temporal-polyfill';
import type { ErrorDetail } from '../../platform/errors.ts';
import { parseRrule } from './maintenance.rrule.ts';
import type { MaintenanceSchedule } from './maintenance.types.ts';

/** The API's schedule (DECISIONS §16): one object; which fields each `type` needs is checked here. */
export interface ScheduleInput {
  type: 'once' | 'recurring';
  starts_at?: string;
  ends_at?: string;
  rrule?: string;
  start_time?: string;
  duration_minutes?: number;
  start_date?: string;
}

const ONCE_FIELDS = ['starts_at', 'ends_at'] as const;
const RECURRING_FIELDS = ['rrule', 'start_time', 'duration_minutes'] as const;

/** Fields the schedule's type needs and fields of the other type (refused, never ignored). */
function fieldDetails(input: ScheduleInput): ErrorDetail[] {
  const [needed, foreign] =
    input.type === 'once'
      ? [ONCE_FIELDS, [...RECURRING_FIELDS, 'start_date'] as const]
      : [RECURRING_FIELDS, ONCE_FIELDS];
  const details: ErrorDetail[] = [];
  for (const f of needed) {
    if (input[f] === undefined)
      details.push({ field: `schedule.${f}`, issue: `is required for a ${input.type} schedule` });
  }
  for (const f of foreign) {
    if (input[f] !== undefined)
      details.push({ field: `schedule.${f}`, issue: `is not a field of a ${input.type} schedule` });
  }
  return details;
}

/** An IANA zone name (Temporal also takes UTC offsets such as +02:00, which do not follow DST: refused). */
export function isTimeZone(zone: string): boolean {
  if (!/^[A-Za-z]/.test(zone)) return false;
  try {
    Temporal.Now.zonedDateTimeISO(zone);
    return true;
  } catch {
    return false;
  }
}

/**
 * The schedule's rules a schema cannot say: the end after the start, a supported RRULE, a real local time and date.
 * `today` is the local date in the window's zone, the default first day of a recurring window. Returns the stored
 * schedule, or the details of every problem (fields named from the body's root).
 */
export function scheduleOf(
  input: ScheduleInput,
  timezone: string,
  now: number,
): { schedule: MaintenanceSchedule; details: [] } | { schedule: null; details: ErrorDetail[] } {
  const details: ErrorDetail[] = fieldDetails(input);
  if (details.length > 0) return { schedule: null, details };
  if (input.type === 'once') {
    const startsAt = Date.parse(input.starts_at!);
    const endsAt = Date.parse(input.ends_at!);
    if (Number.isNaN(startsAt)) details.push({ field: 'schedule.starts_at', issue: 'must be an RFC 3339 date-time' });
    if (Number.isNaN(endsAt)) details.push({ field: 'schedule.ends_at', issue: 'must be an RFC 3339 date-time' });
    if (details.length === 0 && endsAt <= startsAt) {
      details.push({ field: 'schedule.ends_at', issue: 'must be after schedule.starts_at' });
    }
    return details.length > 0
      ? { schedule: null, details }
      : { schedule: { type: 'once', startsAt, endsAt }, details: [] };
  }
  const rrule = input.rrule!;
  const startTime = input.start_time!;
  const parsed = parseRrule(rrule);
  if (!parsed.ok) details.push({ field: 'schedule.rrule', issue: `unsupported RRULE: ${parsed.issue}` });
  if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(startTime)) {
    details.push({ field: 'schedule.start_time', issue: 'must be a local time HH:MM (00:00 to 23:59)' });
  }
  let startDate: string | null = null;
  if (input.start_date !== undefined) {
    try {
      startDate = Temporal.PlainDate.from(input.start_date, { overflow: 'reject' }).toString();
      if (!/^\d{4}-\d{2}-\d{2}$/.test(input.start_date)) throw new RangeError('not YYYY-MM-DD');
    } catch {
      details.push({ field: 'schedule.start_date', issue: 'must be a date YYYY-MM-DD' });
    }
  } else if (isTimeZone(timezone)) {
    startDate = Temporal.Instant.fromEpochMilliseconds(now).toZonedDateTimeISO(timezone).toPlainDate().toString();
  }
  if (details.length > 0 || startDate === null) return { schedule: null, details };
  return {
    schedule: {
      type: 'recurring',
      rrule: rrule
        .trim()
        .replace(/^RRULE:/i, '')
        .toUpperCase(),
      startTime,
      durationMinutes: input.duration_minutes!,
      startDate,
    },
    details: [],
  };
}

/** The API view of a stored schedule. */
export function scheduleView(s: MaintenanceSchedule): Record<string, unknown> {
  if (s.type === 'once') {
    return { type: 'once', starts_at: new Date(s.startsAt).toISOString(), ends_at: new Date(s.endsAt).toISOString() };
  }
  return {
    type: 'recurring',
    rrule: s.rrule,
    start_time: s.startTime,
    duration_minutes: s.durationMinutes,
    start_date: s.startDate,
  };
}
