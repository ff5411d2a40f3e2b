import { Temporal } from 'temporal-polyfill';

/**
 * Five-field cron expressions (minute hour day-of-month month day-of-week) and the @-macros, evaluated on the wall
 * clock of an IANA zone. Written here rather than taken from npm: the rules the product promises (DST, "never
 * fires", the fastest rate for the plan floor) are few and need to be exact.
 *
 * Rules, as Vixie/Debian cron:
 * - `*`, `n`, `a-b`, `*∕s`, `a-b/s`, `a/s` (a to the field's end), lists with commas; month and weekday names;
 *   weekday 7 is Sunday;
 * - when both day-of-month and day-of-week are restricted (neither starts with `*`), a day matching either fires;
 * - a wall time that does not exist (spring forward) fires at the end of the gap (02:30 → 03:00 in Europe/Berlin);
 * - a wall time that exists twice (fall back) fires once, at its first occurrence.
 */
export interface CronExpression {
  source: string;
  minutes: readonly number[];
  hours: readonly number[];
  days: ReadonlySet<number>;
  months: ReadonlySet<number>;
  weekdays: ReadonlySet<number>;
  dayRestricted: boolean;
  weekdayRestricted: boolean;
}

const MACROS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

const MONTH_NAMES = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

interface FieldSpec {
  name: string;
  min: number;
  max: number;
  names?: readonly string[];
  /** The first name's number (months are 1-based). */
  nameBase?: number;
}

const FIELDS: readonly FieldSpec[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: MONTH_NAMES, nameBase: 1 },
  { name: 'day of week', min: 0, max: 7, names: DAY_NAMES, nameBase: 0 },
];

export class CronSyntaxError extends Error {}

function value(token: string, spec: FieldSpec): number {
  const lower = token.toLowerCase();
  const named = spec.names?.indexOf(lower) ?? -1;
  if (named >= 0) return named + (spec.nameBase ?? 0);
  if (!/^\d{1,2}$/.test(token)) throw new CronSyntaxError(`"${token}" is not a valid ${spec.name}`);
  const n = Number(token);
  if (n < spec.min || n > spec.max) {
    throw new CronSyntaxError(`${spec.name} ${n} is outside ${spec.min}-${spec.max}`);
  }
  return n;
}

function parseField(text: string, spec: FieldSpec): Set<number> {
  const out = new Set<number>();
  for (const part of text.split(',')) {
    const [range, stepText, extra] = part.split('/');
    if (extra !== undefined || range === undefined || range === '') {
      throw new CronSyntaxError(`"${part}" is not a valid ${spec.name}`);
    }
    let step = 1;
    if (stepText !== undefined) {
      if (!/^\d{1,2}$/.test(stepText) || Number(stepText) === 0) {
        throw new CronSyntaxError(`step "${stepText}" of the ${spec.name} must be 1-99`);
      }
      step = Number(stepText);
    }
    let from: number;
    let to: number;
    if (range === '*') {
      from = spec.min;
      to = spec.max;
    } else if (range.includes('-')) {
      const [a, b, more] = range.split('-');
      if (a === undefined || b === undefined || more !== undefined) {
        throw new CronSyntaxError(`"${range}" is not a valid ${spec.name} range`);
      }
      from = value(a, spec);
      to = value(b, spec);
      if (from > to) throw new CronSyntaxError(`the ${spec.name} range "${range}" runs backwards`);
    } else {
      from = value(range, spec);
      to = stepText === undefined ? from : spec.max;
    }
    for (let n = from; n <= to; n += step) out.add(n);
  }
  return out;
}

/** Parses an expression or throws a CronSyntaxError saying what is wrong. */
export function parseCron(source: string): CronExpression {
  const trimmed = source.trim();
  const expanded = trimmed.startsWith('@') ? MACROS[trimmed.toLowerCase()] : trimmed;
  if (expanded === undefined) {
    throw new CronSyntaxError(`"${trimmed}" is not a known macro (@hourly, @daily, @weekly, @monthly, @yearly)`);
  }
  const parts = expanded.split(/\s+/);
  if (parts.length !== 5) throw new CronSyntaxError(`must have 5 fields (minute hour day month weekday)`);
  const sets = parts.map((p, i) => parseField(p, FIELDS[i]!));
  const weekdays = new Set([...sets[4]!].map((d) => d % 7));
  return {
    source: trimmed,
    minutes: [...sets[0]!].sort((a, b) => a - b),
    hours: [...sets[1]!].sort((a, b) => a - b),
    days: sets[2]!,
    months: sets[3]!,
    weekdays,
    dayRestricted: !parts[2]!.startsWith('*'),
    weekdayRestricted: !parts[4]!.startsWith('*'),
  };
}

function dayMatches(cron: CronExpression, date: Temporal.PlainDate): boolean {
  if (!cron.months.has(date.month)) return false;
  const dom = cron.days.has(date.day);
  const dow = cron.weekdays.has(date.dayOfWeek % 7);
  if (cron.dayRestricted && cron.weekdayRestricted) return dom || dow;
  return dom && dow;
}

/** Whether some month of the expression has one of its days (Feb 29 counts): false for `30 2 31 2 *`. */
export function canFire(cron: CronExpression): boolean {
  if (!cron.dayRestricted || cron.weekdayRestricted) return true;
  const longest = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return [...cron.months].some((m) => [...cron.days].some((d) => d <= longest[m - 1]!));
}

/** The instant of a wall time: the end of a DST gap when it does not exist, its first occurrence when it repeats. */
function instantOf(wall: Temporal.PlainDateTime, timeZone: string): number {
  const earlier = wall.toZonedDateTime(timeZone, { disambiguation: 'earlier' });
  if (Temporal.PlainDateTime.compare(earlier.toPlainDateTime(), wall) === 0) return earlier.epochMilliseconds;
  const transition = earlier.getTimeZoneTransition('next');
  return transition ? transition.epochMilliseconds : earlier.epochMilliseconds;
}

/** Days searched for the next fire: Feb 29 on a given weekday can be 28 years away; we look 8 years ahead. */
const SEARCH_DAYS = 366 * 8;

/** The first fire strictly after `after` (epoch ms) in `timeZone`, or null when none within 8 years. */
export function nextFire(cron: CronExpression, after: number, timeZone: string): number | null {
  const start = Temporal.Instant.fromEpochMilliseconds(after).toZonedDateTimeISO(timeZone);
  const startDate = start.toPlainDate();
  // DST moves a wall time by at most a few hours: earlier wall times of the first day cannot come after `after`.
  const skipBefore = start.hour * 60 + start.minute - 180;
  for (let i = 0; i < SEARCH_DAYS; i++) {
    const date = startDate.add({ days: i });
    if (!dayMatches(cron, date)) continue;
    for (const hour of cron.hours) {
      for (const minute of cron.minutes) {
        if (i === 0 && hour * 60 + minute < skipBefore) continue;
        const at = instantOf(date.toPlainDateTime({ hour, minute }), timeZone);
        if (at > after) return at;
      }
    }
  }
  return null;
}

/**
 * The shortest time between two fires (seconds) on the UTC clock, over the next 1,000 fires from `from`: the
 * expression's nominal rate, compared with the plan's interval floor (at most a year ahead). Null when it never
 * fires.
 */
export function shortestGapSeconds(cron: CronExpression, from: number): number | null {
  let previous = nextFire(cron, from, 'UTC');
  if (previous === null) return null;
  let shortest = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 1000; i++) {
    const next = nextFire(cron, previous, 'UTC');
    if (next === null) break;
    shortest = Math.min(shortest, (next - previous) / 1000);
    previous = next;
    // A minute is the finest a cron can fire; a year of fires holds every pattern the fields can make.
    if (shortest <= 60 || next - from > 400 * 86_400_000) break;
  }
  return shortest === Number.POSITIVE_INFINITY ? Number.MAX_SAFE_INTEGER : shortest;
}

/** An IANA zone name (Temporal also takes UTC offsets such as +02:00, which do not follow DST: refused). */
export function isIanaZone(zone: string): boolean {
  if (!/^[A-Za-z]/.test(zone)) return false;
  try {
    Temporal.Now.zonedDateTimeISO(zone);
    return true;
  } catch {
    return false;
  }
}
