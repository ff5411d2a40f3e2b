import type { HistoryBucket } from '../api/monitors';
import type { DayUptime } from '../ui/charts';

/** The last `count` UTC days, oldest first, each with its bucket's uptime (null when the API had none). */
export function lastDays(buckets: HistoryBucket[], count: number, now = Date.now()): DayUptime[] {
  const byDay = new Map(buckets.map((b) => [b.start.slice(0, 10), b.uptime_percent]));
  const today = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), new Date(now).getUTCDate());
  const days: DayUptime[] = [];
  for (let i = count - 1; i >= 0; i -= 1) {
    const day = new Date(today - i * 86_400_000).toISOString().slice(0, 10);
    days.push({ day, uptime: byDay.get(day) ?? null });
  }
  return days;
}
