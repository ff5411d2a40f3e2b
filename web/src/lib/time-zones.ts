/** IANA zones the browser knows, for zone pickers (UTC first); the API checks the name again. */
export function timeZones(): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
  const zones = intl.supportedValuesOf?.('timeZone') ?? [];
  return ['UTC', ...zones.filter((z) => z !== 'UTC')];
}

/** The zones a select offers for `current`: every known zone, with `current` first when it is not one of them. */
export function zoneChoices(current: string): string[] {
  const zones = timeZones();
  return zones.includes(current) ? zones : [current, ...zones];
}

/** The browser's own zone, the default of a new report or schedule. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/**
 * An instant as local date, time and offset in `zone`: "Mon 26 Oct 2026, 08:00 GMT+1" (built from parts, so every
 * engine writes it the same way, whatever its locale data puts between them).
 */
export function inZone(epochMs: number, zone: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'shortOffset',
  }).formatToParts(new Date(epochMs));
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('weekday')} ${part('day')} ${part('month')} ${part('year')}, ${part('hour')}:${part('minute')} ${part('timeZoneName')}`;
}
