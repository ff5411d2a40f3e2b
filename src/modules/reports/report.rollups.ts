import { LatencySketch } from '../checks/index.ts';
import { localDays, type Window } from './report.period.ts';
import type { ReportRollupRow, ReportRollups } from './report.sources.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Monitors whose rollups are read in one query (90 days of hourly rows for 20 monitors: 43,200 rows). */
const MONITORS_PER_READ = 20;

/** Checks, failures and the merged latency sketch of one monitor over some buckets. */
export interface CheckFigures {
  checks: number;
  failures: number;
  sketch: LatencySketch;
}

export function emptyFigures(): CheckFigures {
  return { checks: 0, failures: 0, sketch: new LatencySketch() };
}

function add(into: CheckFigures, row: ReportRollupRow): void {
  into.checks += row.checks;
  into.failures += row.failures;
  into.sketch.mergeEncoded(row.sketch);
}

/**
 * Per monitor id: the figures of the window and (unless `options.days` is false) of each local day, merged from
 * rollups (never raw executions).
 * Buckets are UTC hours (or whole UTC days where the window and every local day boundary allow it); a bucket
 * belongs to the window and to the local day in which it starts, so a window edge inside an hour counts that
 * hour whole (and zones with a non-whole-hour offset place an hour in the day where it starts).
 */
export async function figuresFromRollups(
  source: ReportRollups,
  monitorIds: readonly string[],
  window: Window,
  timezone: string,
  options: { days: boolean } = { days: true },
): Promise<Map<string, { total: CheckFigures; days: Map<string, CheckFigures> }>> {
  const keys = await source.monitorKeys(monitorIds);
  const idOfKey = new Map([...keys].map(([id, key]) => [key, id]));
  const out = new Map(monitorIds.map((id) => [id, { total: emptyFigures(), days: new Map<string, CheckFigures>() }]));
  if (keys.size === 0) return out;
  const days = localDays(window, timezone);
  // Daily rollups serve for the totals, and for the days when every local day begins at a UTC midnight (UTC).
  const alignedToUtcDays = !options.days || days.every((d, i) => i === 0 || d.from % DAY_MS === 0);
  const firstWholeDay = Math.ceil(window.from / DAY_MS) * DAY_MS;
  const lastWholeDay = Math.floor(window.to / DAY_MS) * DAY_MS;
  const hourFrom = Math.floor(window.from / HOUR_MS) * HOUR_MS;
  const dayOf = dayLocator(days);
  const fold = (rows: readonly ReportRollupRow[]) => {
    for (const row of rows) {
      const id = idOfKey.get(row.monitor_key);
      if (id === undefined) continue;
      const entry = out.get(id)!;
      add(entry.total, row);
      if (!options.days) continue;
      const date = dayOf(Math.max(Number(row.hour_start), window.from));
      if (date === null) continue;
      let day = entry.days.get(date);
      if (!day) entry.days.set(date, (day = emptyFigures()));
      add(day, row);
    }
  };
  // A few monitors at a time: rows are folded as they arrive, never all held at once.
  const keyList = [...keys.values()];
  for (let i = 0; i < keyList.length; i += MONITORS_PER_READ) {
    const part = keyList.slice(i, i + MONITORS_PER_READ);
    if (alignedToUtcDays && lastWholeDay > firstWholeDay) {
      fold(await source.rollupRows(part, hourFrom, firstWholeDay, 'hour'));
      fold(await source.rollupRows(part, firstWholeDay, lastWholeDay, 'day'));
      fold(await source.rollupRows(part, lastWholeDay, window.to, 'hour'));
    } else {
      fold(await source.rollupRows(part, hourFrom, window.to, 'hour'));
    }
  }
  return out;
}

/** The local date whose [from, to) holds the instant. */
function dayLocator(days: ReadonlyArray<{ date: string; from: number; to: number }>): (at: number) => string | null {
  return (at) => {
    let lo = 0;
    let hi = days.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const d = days[mid]!;
      if (at < d.from) hi = mid - 1;
      else if (at >= d.to) lo = mid + 1;
      else return d.date;
    }
    return null;
  };
}
