import { Temporal } from 'temporal-polyfill';
import { occurrenceStarts, parseRrule, type LocalRecurrence } from './maintenance.rrule.ts';
import type { MaintenanceSchedule, MaintenanceWindow, Occurrence } from './maintenance.types.ts';

/**
 * A window's occurrences, computed from its schedule (never stored): DESIGN "windows are data, occurrences are
 * computed". An occurrence ended early lasts until it was ended.
 */
export function recurrenceOf(schedule: MaintenanceSchedule, timezone: string): LocalRecurrence | null {
  if (schedule.type !== 'recurring') return null;
  const parsed = parseRrule(schedule.rrule);
  if (!parsed.ok) throw new Error(`stored RRULE no longer parses: ${parsed.issue}`);
  const [hour, minute] = schedule.startTime.split(':').map(Number) as [number, number];
  return {
    rule: parsed.rule,
    startDate: Temporal.PlainDate.from(schedule.startDate),
    startTime: { hour, minute },
    durationMs: schedule.durationMinutes * 60_000,
    timezone,
  };
}

type Timed = Pick<MaintenanceWindow, 'schedule' | 'timezone' | 'earlyEnds'>;

/** Occurrences overlapping [from, to), in order, with early ends applied (an occurrence ended before it began is gone). */
export function occurrencesBetween(w: Timed, from: number, to: number): Occurrence[] {
  const early = new Map(w.earlyEnds.map((e) => [e.start, e.endedAt]));
  const cut = (start: number, end: number): Occurrence | null => {
    const ended = early.get(start);
    const realEnd = ended === undefined ? end : Math.min(end, ended);
    return realEnd > start && realEnd > from && start < to ? { start, end: realEnd } : null;
  };
  if (w.schedule.type === 'once') {
    const o = cut(w.schedule.startsAt, w.schedule.endsAt);
    return o ? [o] : [];
  }
  const r = recurrenceOf(w.schedule, w.timezone)!;
  const out: Occurrence[] = [];
  for (const start of occurrenceStarts(r, from, to)) {
    const o = cut(start, start + r.durationMs);
    if (o) out.push(o);
  }
  return out;
}

/** The occurrence in progress at `t` (start ≤ t < end), if any. */
export function occurrenceAt(w: Timed, t: number): Occurrence | null {
  return occurrencesBetween(w, t, t + 1).find((o) => o.start <= t && t < o.end) ?? null;
}

/** How far ahead `nextOccurrence` looks: a rule whose next occurrence is further away shows none. */
const HORIZON_MS = 400 * 86_400_000;

/** The occurrence in progress at `t`, else the next one to start (within ~400 days), else null. */
export function nextOccurrence(w: Timed, t: number): Occurrence | null {
  return occurrencesBetween(w, t, t + HORIZON_MS).find((o) => o.end > t) ?? null;
}
