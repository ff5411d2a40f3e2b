/**
 * Wall-clock times in an IANA zone for the custom range inputs (`<input type="datetime-local">` has no zone): the
 * report's `from`/`to` are instants, and the inputs show and take them in the report's time zone.
 */

function partsIn(epochMs: number, timeZone: string): Record<string, number> {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(epochMs));
  return Object.fromEntries(parts.filter((p) => p.type !== 'literal').map((p) => [p.type, Number(p.value)]));
}

/** The zone's offset from UTC at an instant, in milliseconds. */
function offsetAt(epochMs: number, timeZone: string): number {
  const p = partsIn(epochMs, timeZone);
  const wall = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
  return wall - Math.floor(epochMs / 1000) * 1000;
}

/** An instant as `YYYY-MM-DDTHH:mm` on the zone's clock (what a datetime-local input shows). */
export function toZonedInput(iso: string, timeZone: string): string {
  const p = partsIn(Date.parse(iso), timeZone);
  const two = (n: number | undefined) => String(n ?? 0).padStart(2, '0');
  return `${String(p.year).padStart(4, '0')}-${two(p.month)}-${two(p.day)}T${two(p.hour)}:${two(p.minute)}`;
}

/**
 * `YYYY-MM-DDTHH:mm` on the zone's clock as an RFC 3339 instant, or null when it is not such a value. A wall time
 * that does not exist (skipped by a DST change) becomes the first later instant, as the API does with midnights.
 */
export function fromZonedInput(value: string, timeZone: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value);
  if (!m) return null;
  const wall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]));
  if (Number.isNaN(wall)) return null;
  // Two passes settle the offset around a change.
  let guess = wall - offsetAt(wall, timeZone);
  guess = wall - offsetAt(guess, timeZone);
  if (guess + offsetAt(guess, timeZone) === wall) return new Date(guess).toISOString();
  // In a gap: the first instant whose wall time is at or after the one asked for (the change itself), found by
  // halving the stretch between the two offsets' readings (a gap is at most a few hours).
  const before = offsetAt(guess - 86_400_000, timeZone);
  const after = offsetAt(guess + 86_400_000, timeZone);
  let lo = wall - Math.max(before, after);
  let hi = wall - Math.min(before, after);
  while (hi - lo > 1000) {
    const mid = Math.floor((lo + hi) / 2000) * 1000;
    if (mid + offsetAt(mid, timeZone) >= wall) hi = mid;
    else lo = mid;
  }
  return new Date(hi).toISOString();
}
