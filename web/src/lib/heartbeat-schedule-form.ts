/**
 * A heartbeat schedule as the web app's form holds it (a count and a unit, or a cron and its zone; a grace count and
 * unit) and as the API takes it. No cron here: the server previews and judges what the form sends.
 */

export const SCHEDULE_UNITS: [number, string][] = [
  [86_400, 'days'],
  [3_600, 'hours'],
  [60, 'minutes'],
  [1, 'seconds'],
];

/** Seconds as a count of the largest unit that divides them (5400 → 90 minutes), for the form's two controls. */
function split(seconds: unknown, fallbackUnit: number): { n: string; unit: number } {
  if (typeof seconds !== 'number' || !Number.isInteger(seconds) || seconds <= 0) return { n: '', unit: fallbackUnit };
  const unit = SCHEDULE_UNITS.find(([s]) => seconds % s === 0)?.[0] ?? 1;
  return { n: String(seconds / unit), unit };
}

/** "90" of minutes → 5400; text that is not a whole number of seconds goes as typed, for the API to name. */
function joined(n: string, unit: number): number | string {
  const value = Number(n) * unit;
  return n.trim() !== '' && Number.isInteger(value) ? value : n;
}

function parsed(text: unknown): Record<string, unknown> {
  if (typeof text !== 'string' || text.trim() === '') return {};
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export interface ScheduleForm {
  mode: 'every' | 'cron';
  n: string;
  unit: number;
  cron: string;
  timezone: string;
  graceN: string;
  graceUnit: number;
}

/** The form's values from a stored (or prefilled) config: `schedule` is JSON text in the draft, as the API holds it. */
export function scheduleFormOf(draft: Record<string, unknown>, defaultZone: string): ScheduleForm {
  const schedule = parsed(draft.schedule);
  const every = split(schedule.every_seconds, 60);
  const grace = split(typeof draft.grace_seconds === 'string' ? Number(draft.grace_seconds) : null, 60);
  return {
    mode: typeof schedule.cron === 'string' ? 'cron' : 'every',
    n: every.n,
    unit: every.unit,
    cron: typeof schedule.cron === 'string' ? schedule.cron : '',
    timezone: typeof schedule.timezone === 'string' ? schedule.timezone : defaultZone,
    graceN: grace.n,
    graceUnit: grace.unit,
  };
}

/** The schedule as the API takes it (null: none, pings due every check interval), and the grace in seconds. */
export function configOfScheduleForm(form: ScheduleForm): {
  schedule: Record<string, unknown> | null;
  grace: number | string | null;
} {
  const grace = form.graceN.trim() === '' ? null : joined(form.graceN, form.graceUnit);
  if (form.mode === 'cron') {
    return { schedule: form.cron.trim() === '' ? null : { cron: form.cron, timezone: form.timezone }, grace };
  }
  return { schedule: form.n.trim() === '' ? null : { every_seconds: joined(form.n, form.unit) }, grace };
}

/** Seconds in the largest unit that divides them: "15 minutes", "1 hour", "61 seconds". */
export function durationInWords(seconds: number): string {
  const [size, unit] = SCHEDULE_UNITS.find(([s]) => seconds > 0 && seconds % s === 0) ?? [1, 'seconds'];
  const n = seconds / size;
  return `${n} ${n === 1 ? unit.slice(0, -1) : unit}`;
}
