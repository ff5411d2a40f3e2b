/** How figures read in report PDFs. Percentages and counts are the JSON's numbers as they are. */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    if (formatters.size > 64) formatters.clear();
    formatters.set(timeZone, f);
  }
  return f;
}

function parts(iso: string, timeZone: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(iso))) out[p.type] = p.value;
  return out;
}

/** `2026-10-01 00:00` in `timeZone`. */
export function formatInstant(iso: string, timeZone: string): string {
  const p = parts(iso, timeZone);
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
}

/** `2026-10-01`: the local date of an instant in `timeZone`. */
export function localDate(iso: string, timeZone: string): string {
  const p = parts(iso, timeZone);
  return `${p.year}-${p.month}-${p.day}`;
}

export function formatInstantOrDash(iso: string | null, timeZone: string): string {
  return iso === null ? '—' : formatInstant(iso, timeZone);
}

/** A figure as the JSON has it (at most 5 decimals, as the reports round them); `—` for null. */
export function formatNumber(v: number | null): string {
  return v === null ? '—' : String(Math.round(v * 1e5) / 1e5);
}

/** `99.99713 %`; `—` when there is nothing to say (no monitored time). */
export function formatPercent(v: number | null): string {
  return v === null ? '—' : `${formatNumber(v)} %`;
}

export function formatMs(v: number | null): string {
  return v === null ? '—' : `${v} ms`;
}

/** A duration for reading: `0 s`, `42 s`, `12 min 5 s`, `3 h 07 min`, `2 d 4 h`. Negative keeps its sign. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null) return '—';
  const sign = seconds < 0 ? '−' : '';
  let s = Math.round(Math.abs(seconds));
  if (s < 60) return `${sign}${s} s`;
  const d = Math.floor(s / 86_400);
  s -= d * 86_400;
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  s -= m * 60;
  if (d > 0) return `${sign}${d} d ${h} h`;
  if (h > 0) return `${sign}${h} h ${String(m).padStart(2, '0')} min`;
  return `${sign}${m} min ${s} s`;
}

export function formatCount(v: number | null): string {
  return v === null ? '—' : String(v);
}
