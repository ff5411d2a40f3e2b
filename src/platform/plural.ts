/**
 * "1 check", "2 checks", "1.5 days": a count with its noun in the right number. Every English text the product
 * composes around a count goes through this (one rule, no "1 checks").
 */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

/** A span of time in the largest whole unit that fits, counted in words: "45 seconds", "1 minute", "3 hours", "2 days". */
export function spanText(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return plural(s, 'second');
  if (s < 3600) return plural(Math.floor(s / 60), 'minute');
  if (s < 86_400) return plural(Math.floor(s / 3600), 'hour');
  return plural(Math.round((s / 86_400) * 10) / 10, 'day');
}
