import { dateTime } from './format.ts';
/**
 * How the report pages write the report's figures. The browser test formats the downloaded JSON with these same
 * functions and finds the results on screen, so what the page shows is the API's value, only written for people.
 */

/** A percentage with three decimals (the API rounds to five), or an em dash when there is none. */
export function pct(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : `${value.toFixed(3)} %`;
}

/** Milliseconds rounded to whole ones. */
export function millis(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : `${Math.round(value)} ms`;
}

/** A count with thousands separators. */
export function count(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : value.toLocaleString('en-US');
}

/**
 * Seconds as days, hours, minutes and whole seconds, the largest two or three units ("1 d 2 h 5 min", "43 min 49 s"),
 * truncated, never rounded up: a budget shown as 43 min 50 s when 43 min 49.7 s are allowed would promise too much.
 * Below a minute the tenths are kept ("1.5 s"). Negative values (an overspent budget) keep their sign.
 */
export function span(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  const sign = value < 0 ? '−' : '';
  const abs = Math.abs(value);
  if (abs < 60) return `${sign}${(Math.floor(abs * 10) / 10).toString()} s`;
  const whole = Math.floor(abs);
  const d = Math.floor(whole / 86_400);
  const h = Math.floor((whole % 86_400) / 3_600);
  const m = Math.floor((whole % 3_600) / 60);
  const s = whole % 60;
  const parts =
    d > 0 ? [`${d} d`, `${h} h`, `${m} min`] : h > 0 ? [`${h} h`, `${m} min`, `${s} s`] : [`${m} min`, `${s} s`];
  return sign + parts.join(' ');
}

/** A burn rate ("1.25×"), two decimals. */
export function rate(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : `${value.toFixed(2)}×`;
}

/** A change against the previous period, with an arrow (not colour alone). */
export function trend(value: number | null | undefined): string {
  if (value === null || value === undefined) return 'no previous period';
  const arrow = value > 0 ? '▲' : value < 0 ? '▼' : '=';
  return `${arrow} ${Math.abs(value).toFixed(1)} %`;
}

/** An instant in the report's time zone, written as everywhere else (lib/format.ts dateTime). */
export function at(iso: string | null | undefined, timeZone: string): string {
  return dateTime(iso, timeZone);
}
