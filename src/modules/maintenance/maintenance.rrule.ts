import { Temporal } from 'temporal-polyfill';

/**
 * The RRULE subset of DECISIONS §16 (RFC 5545 §3.3.10): FREQ=DAILY|WEEKLY|MONTHLY, INTERVAL, BYDAY (weekdays; in a
 * MONTHLY rule also with an ordinal such as 1MO or -1FR), BYMONTHDAY (1..31 or -31..-1), COUNT, UNTIL, and WKST=MO
 * (the only week start, accepted for completeness). Anything else is refused with a reason, never ignored.
 */
export interface RecurrenceRule {
  freq: 'DAILY' | 'WEEKLY' | 'MONTHLY';
  interval: number;
  /** Temporal weekday numbers (Monday 1 … Sunday 7), each with an ordinal (null = every such day). */
  byDay: Array<{ weekday: number; ordinal: number | null }>;
  byMonthDay: number[];
  count: number | null;
  /** Epoch ms; an occurrence starting after it is not part of the rule. */
  until: number | null;
}

const WEEKDAYS: Record<string, number> = { MO: 1, TU: 2, WE: 3, TH: 4, FR: 5, SA: 6, SU: 7 };
export const MAX_COUNT = 10_000;
const MAX_INTERVAL = 1000;

export type ParsedRule = { ok: true; rule: RecurrenceRule } | { ok: false; issue: string };

/** Parses `FREQ=WEEKLY;BYDAY=SA;…` (an optional leading `RRULE:` is allowed). */
export function parseRrule(text: string): ParsedRule {
  const body = text.trim().replace(/^RRULE:/i, '');
  if (body === '') return { ok: false, issue: 'is empty' };
  const parts = new Map<string, string>();
  for (const part of body.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) return { ok: false, issue: `"${part}" is not NAME=VALUE` };
    const name = part.slice(0, eq).toUpperCase();
    if (parts.has(name)) return { ok: false, issue: `${name} is given twice` };
    parts.set(name, part.slice(eq + 1).toUpperCase());
  }
  const freq = parts.get('FREQ');
  if (freq === undefined) return { ok: false, issue: 'FREQ is required' };
  if (freq !== 'DAILY' && freq !== 'WEEKLY' && freq !== 'MONTHLY') {
    return { ok: false, issue: `FREQ=${freq} is not supported (DAILY, WEEKLY or MONTHLY)` };
  }
  for (const name of parts.keys()) {
    if (!['FREQ', 'INTERVAL', 'BYDAY', 'BYMONTHDAY', 'COUNT', 'UNTIL', 'WKST'].includes(name)) {
      return { ok: false, issue: `${name} is not supported (FREQ, INTERVAL, BYDAY, BYMONTHDAY, COUNT, UNTIL)` };
    }
  }
  const wkst = parts.get('WKST');
  if (wkst !== undefined && wkst !== 'MO') return { ok: false, issue: 'WKST other than MO is not supported' };
  let interval = 1;
  const intervalText = parts.get('INTERVAL');
  if (intervalText !== undefined) {
    if (!/^\d{1,4}$/.test(intervalText) || Number(intervalText) < 1 || Number(intervalText) > MAX_INTERVAL) {
      return { ok: false, issue: `INTERVAL must be an integer from 1 to ${MAX_INTERVAL}` };
    }
    interval = Number(intervalText);
  }
  const byDay: RecurrenceRule['byDay'] = [];
  const byDayText = parts.get('BYDAY');
  if (byDayText !== undefined) {
    for (const item of byDayText.split(',')) {
      const m = /^([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)$/.exec(item);
      if (!m) return { ok: false, issue: `BYDAY value "${item}" is not a weekday (MO…SU, optionally 1MO or -1FR)` };
      const ordinal = m[1] === undefined ? null : Number(m[1]);
      if (ordinal !== null) {
        if (freq !== 'MONTHLY') return { ok: false, issue: `BYDAY ordinals (${item}) need FREQ=MONTHLY` };
        if (ordinal === 0 || Math.abs(ordinal) > 5)
          return { ok: false, issue: `BYDAY ordinal in "${item}" must be 1..5 or -5..-1` };
      }
      byDay.push({ weekday: WEEKDAYS[m[2]!]!, ordinal });
    }
  }
  const byMonthDay: number[] = [];
  const byMonthDayText = parts.get('BYMONTHDAY');
  if (byMonthDayText !== undefined) {
    for (const item of byMonthDayText.split(',')) {
      const n = /^[+-]?\d{1,2}$/.test(item) ? Number(item) : NaN;
      if (!Number.isInteger(n) || n === 0 || Math.abs(n) > 31) {
        return { ok: false, issue: `BYMONTHDAY value "${item}" must be 1..31 or -31..-1` };
      }
      byMonthDay.push(n);
    }
  }
  let count: number | null = null;
  const countText = parts.get('COUNT');
  if (countText !== undefined) {
    if (!/^\d{1,5}$/.test(countText) || Number(countText) < 1 || Number(countText) > MAX_COUNT) {
      return { ok: false, issue: `COUNT must be an integer from 1 to ${MAX_COUNT}` };
    }
    count = Number(countText);
  }
  let until: number | null = null;
  const untilText = parts.get('UNTIL');
  if (untilText !== undefined) {
    if (count !== null) return { ok: false, issue: 'COUNT and UNTIL cannot both be given (RFC 5545)' };
    const parsed = parseUntil(untilText);
    if (parsed === null) {
      return {
        ok: false,
        issue: `UNTIL "${untilText}" must be a UTC date-time (20261231T235959Z) or a date (20261231)`,
      };
    }
    until = parsed;
  }
  return { ok: true, rule: { freq, interval, byDay, byMonthDay, count, until } };
}

/** UNTIL as an instant: a UTC date-time, or a date meaning the end of that day in UTC. */
function parseUntil(text: string): number | null {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})Z)?$/.exec(text);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  try {
    const date = Temporal.PlainDate.from({ year: y, month: mo, day: d }, { overflow: 'reject' });
    if (m[4] === undefined) return Date.UTC(date.year, date.month - 1, date.day, 23, 59, 59, 999);
    const [h, mi, s] = [Number(m[4]), Number(m[5]), Number(m[6])];
    if (h > 23 || mi > 59 || s > 59) return null;
    return Date.UTC(date.year, date.month - 1, date.day, h, mi, s);
  } catch {
    return null;
  }
}

/** The dates of one period (a day, a week from Monday, or a month) that the rule selects, in order. */
function datesOfPeriod(
  rule: RecurrenceRule,
  periodStart: Temporal.PlainDate,
  anchor: Temporal.PlainDate,
): Temporal.PlainDate[] {
  const monthDayMatches = (d: Temporal.PlainDate) =>
    rule.byMonthDay.length === 0 ||
    rule.byMonthDay.some((n) => (n > 0 ? d.day === n : d.day === d.daysInMonth + 1 + n));
  switch (rule.freq) {
    case 'DAILY': {
      const weekdayOk = rule.byDay.length === 0 || rule.byDay.some((b) => b.weekday === periodStart.dayOfWeek);
      return weekdayOk && monthDayMatches(periodStart) ? [periodStart] : [];
    }
    case 'WEEKLY': {
      const weekdays = rule.byDay.length > 0 ? rule.byDay.map((b) => b.weekday) : [anchor.dayOfWeek];
      const out: Temporal.PlainDate[] = [];
      for (let i = 0; i < 7; i++) {
        const d = periodStart.add({ days: i });
        if (weekdays.includes(d.dayOfWeek) && monthDayMatches(d)) out.push(d);
      }
      return out;
    }
    case 'MONTHLY': {
      const out: Temporal.PlainDate[] = [];
      for (let day = 1; day <= periodStart.daysInMonth; day++) {
        const d = periodStart.with({ day });
        const byDayOk =
          rule.byDay.length === 0
            ? rule.byMonthDay.length > 0 || day === anchor.day
            : rule.byDay.some((b) => b.weekday === d.dayOfWeek && ordinalMatches(b.ordinal, d));
        if (byDayOk && monthDayMatches(d)) out.push(d);
      }
      return out;
    }
  }
}

function ordinalMatches(ordinal: number | null, d: Temporal.PlainDate): boolean {
  if (ordinal === null) return true;
  if (ordinal > 0) return Math.ceil(d.day / 7) === ordinal;
  return Math.ceil((d.daysInMonth - d.day + 1) / 7) === -ordinal;
}

function periodStartOf(rule: RecurrenceRule, date: Temporal.PlainDate): Temporal.PlainDate {
  if (rule.freq === 'DAILY') return date;
  if (rule.freq === 'WEEKLY') return date.subtract({ days: date.dayOfWeek - 1 });
  return date.with({ day: 1 });
}

function addPeriods(rule: RecurrenceRule, start: Temporal.PlainDate, n: number): Temporal.PlainDate {
  if (rule.freq === 'DAILY') return start.add({ days: n });
  if (rule.freq === 'WEEKLY') return start.add({ weeks: n });
  return start.add({ months: n });
}

function periodsBetween(rule: RecurrenceRule, a: Temporal.PlainDate, b: Temporal.PlainDate): number {
  if (rule.freq === 'MONTHLY') return (b.year - a.year) * 12 + (b.month - a.month);
  const days = a.until(b, { largestUnit: 'days' }).days;
  return rule.freq === 'DAILY' ? days : Math.floor(days / 7);
}

export interface LocalRecurrence {
  rule: RecurrenceRule;
  /** First local date occurrences may fall on. */
  startDate: Temporal.PlainDate;
  startTime: { hour: number; minute: number };
  durationMs: number;
  timezone: string;
}

/**
 * The local start time on `date` as an instant: a time inside a DST gap moves forward by the gap's length, a time
 * that happens twice takes its first occurrence (`disambiguation: 'compatible'`, DECISIONS §12's rule).
 */
export function localStart(r: LocalRecurrence, date: Temporal.PlainDate): number {
  return Temporal.PlainDateTime.from({
    year: date.year,
    month: date.month,
    day: date.day,
    hour: r.startTime.hour,
    minute: r.startTime.minute,
  }).toZonedDateTime(r.timezone, { disambiguation: 'compatible' }).epochMilliseconds;
}

/**
 * Occurrence starts in order, from the first whose end is after `from` until one starts at or after `to` (or the rule
 * ends). Without COUNT the expansion jumps straight to the periods around `from`; with COUNT it counts from the start
 * date (COUNT is at most MAX_COUNT).
 */
export function* occurrenceStarts(r: LocalRecurrence, from: number, to: number): Generator<number> {
  const { rule } = r;
  const firstPeriod = periodStartOf(rule, r.startDate);
  let k = 0;
  if (rule.count === null) {
    // A day before `from` less the duration is early enough for any zone offset (offsets are under a day).
    const lookBack = Temporal.Instant.fromEpochMilliseconds(from - r.durationMs - 86_400_000 * 2)
      .toZonedDateTimeISO(r.timezone)
      .toPlainDate();
    if (Temporal.PlainDate.compare(lookBack, r.startDate) > 0) {
      const skip = periodsBetween(rule, firstPeriod, periodStartOf(rule, lookBack));
      k = Math.max(0, Math.floor(skip / rule.interval) - 1) * rule.interval;
    }
  }
  let emitted = 0;
  // A rule whose periods never select a date (e.g. BYMONTHDAY=31 with FREQ=WEEKLY in February only) must not spin.
  let emptyPeriods = 0;
  for (;;) {
    const periodStart = addPeriods(rule, firstPeriod, k);
    k += rule.interval;
    const dates = datesOfPeriod(rule, periodStart, r.startDate).filter(
      (d) => Temporal.PlainDate.compare(d, r.startDate) >= 0,
    );
    if (dates.length === 0) {
      if (++emptyPeriods > 5000) return;
      continue;
    }
    emptyPeriods = 0;
    for (const d of dates) {
      const start = localStart(r, d);
      if (rule.until !== null && start > rule.until) return;
      if (rule.count !== null && emitted >= rule.count) return;
      emitted += 1;
      if (start >= to) return;
      if (start + r.durationMs > from) yield start;
    }
  }
}
