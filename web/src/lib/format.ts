// Relative times stay English: the words around them are English.
const rtf = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

export function relativeTime(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return 'never';
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 60) return rtf.format(seconds, 'second');
  if (abs < 3600) return rtf.format(Math.round(seconds / 60), 'minute');
  if (abs < 86_400) return rtf.format(Math.round(seconds / 3600), 'hour');
  return rtf.format(Math.round(seconds / 86_400), 'day');
}

/*
 * The one way the app writes an instant: the viewer's own locale (the browser's language) and time zone, date
 * and time to the minute. Pages pass a zone only where the figures belong to one (a report's time zone). Cached
 * per zone: building a formatter costs far more than using one.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(kind: 'dateTime' | 'date' | 'day', timeZone: string | undefined): Intl.DateTimeFormat {
  const key = `${kind}|${timeZone ?? ''}`;
  let f = formatters.get(key);
  if (!f) {
    const options: Intl.DateTimeFormatOptions =
      kind === 'dateTime'
        ? { dateStyle: 'medium', timeStyle: 'short' }
        : kind === 'date'
          ? { dateStyle: 'medium' }
          : { dateStyle: 'full' };
    f = new Intl.DateTimeFormat(undefined, { ...options, ...(timeZone ? { timeZone } : {}) });
    formatters.set(key, f);
  }
  return f;
}

/** "28 Nov 2026, 15:20" / "Nov 28, 2026, 3:20 PM": an instant in the viewer's locale and zone (or `timeZone`). */
export function dateTime(iso: string | number | null | undefined, timeZone?: string): string {
  if (iso === null || iso === undefined || iso === '') return '—';
  return formatter('dateTime', timeZone).format(new Date(iso));
}

/** The date alone, same style as dateTime. */
export function dateOnly(iso: string | number | null | undefined, timeZone?: string): string {
  if (iso === null || iso === undefined || iso === '') return '—';
  return formatter('date', timeZone).format(new Date(iso));
}

/** A day as a heading: "Saturday, 28 November 2026" in the viewer's locale. */
export function dayHeading(date: Date): string {
  return formatter('day', undefined).format(date);
}

export function percent(value: number | null | undefined, digits = 2): string {
  return value === null || value === undefined ? '—' : `${value.toFixed(digits)} %`;
}

export function ms(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : `${Math.round(value)} ms`;
}

export function duration(seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds)} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
  return `${Math.floor(seconds / 86_400)} d ${Math.floor((seconds % 86_400) / 3600)} h`;
}

/** Any value as text: strings as they are, everything else as JSON. */
export function asText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** "1 check", "2 checks": a count with its noun in the right number (the server's texts follow the same rule). */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}
