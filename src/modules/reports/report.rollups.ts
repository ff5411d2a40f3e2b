import { LatencySketch } from '../checks/index.ts';
import { localDays, type LocalDay, type Window } from './report.period.ts';
import type { ReportRollupRow, ReportRollups } from './report.sources.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Monitors whose rollups are read together (90 days: 90 daily rows and one to five edge hours a day each); small
 * enough that one part blocks the event loop for tens of milliseconds, not the whole report. */
const MONITORS_PER_READ = 25;
const PARTS_IN_FLIGHT = 4;

/** Checks, failures and the merged latency sketch of one monitor over some buckets. */
export interface CheckFigures {
  checks: number;
  failures: number;
  sketch: LatencySketch;
}

export function emptyFigures(): CheckFigures {
  return { checks: 0, failures: 0, sketch: new LatencySketch() };
}

function add(into: CheckFigures, row: ReportRollupRow, sign: 1 | -1): void {
  into.checks += sign * row.checks;
  into.failures += sign * row.failures;
  into.sketch.mergeEncoded(row.sketch, sign);
}

function mergeFigures(into: CheckFigures, part: CheckFigures): void {
  into.checks += part.checks;
  into.failures += part.failures;
  into.sketch.merge(part.sketch);
}

/** A group of hours the figures are asked for (a local day, or the whole window): hour starts in [from, to). */
interface HourGroup {
  date: string | null;
  from: number;
  to: number;
}

/** Which groups a rollup bucket adds to (+1) or is taken from (−1). */
interface Term {
  group: number;
  sign: 1 | -1;
}

/**
 * Writes each group as UTC days and hours: a UTC day the group covers whole is its daily rollup; one it covers for
 * at most 12 hours is those hours; one it covers for more is the daily rollup less the hours it does not cover
 * (exact: a daily rollup is the sum of its hours, and bin counts are integers). A Berlin day is then 3 rows instead
 * of 24, a New York day 11.
 */
function decompose(groups: readonly HourGroup[]): { days: Map<number, Term[]>; hours: Map<number, Term[]> } {
  const days = new Map<number, Term[]>();
  const hours = new Map<number, Term[]>();
  const push = (map: Map<number, Term[]>, at: number, term: Term) => {
    const list = map.get(at);
    if (list) list.push(term);
    else map.set(at, [term]);
  };
  groups.forEach((g, group) => {
    for (let day = Math.floor(g.from / DAY_MS) * DAY_MS; day < g.to; day += DAY_MS) {
      const a = Math.max(day, g.from);
      const b = Math.min(day + DAY_MS, g.to);
      const covered = (b - a) / HOUR_MS;
      if (covered <= 0) continue;
      if (covered === 24) {
        push(days, day, { group, sign: 1 });
      } else if (covered <= 12) {
        for (let h = a; h < b; h += HOUR_MS) push(hours, h, { group, sign: 1 });
      } else {
        push(days, day, { group, sign: 1 });
        for (let h = day; h < a; h += HOUR_MS) push(hours, h, { group, sign: -1 });
        for (let h = b; h < day + DAY_MS; h += HOUR_MS) push(hours, h, { group, sign: -1 });
      }
    }
  });
  return { days, hours };
}

const ceilHour = (ms: number) => Math.ceil(ms / HOUR_MS) * HOUR_MS;

/**
 * Per monitor id: the figures of the window and (unless `options.days` is false) of each local day, merged from
 * rollups (never raw executions).
 * Buckets are UTC hours; a bucket belongs to the window and to the local day in which it starts, so a window edge
 * inside an hour counts that hour whole (and zones with a non-whole-hour offset place an hour in the day where it
 * starts). Each day is read as daily rollups plus or minus a few hourly ones (decompose above), daily and hourly rows
 * of a part of the monitors in one snapshot; the window's total is the sum of its days.
 */
export async function figuresFromRollups(
  source: ReportRollups,
  monitorIds: readonly string[],
  window: Window,
  timezone: string,
  options: { days: boolean; localDays?: readonly LocalDay[] } = { days: true },
): Promise<Map<string, { total: CheckFigures; days: Map<string, CheckFigures> }>> {
  const keys = await source.monitorKeys(monitorIds);
  const idOfKey = new Map([...keys].map(([id, key]) => [key, id]));
  const out = new Map(monitorIds.map((id) => [id, { total: emptyFigures(), days: new Map<string, CheckFigures>() }]));
  if (keys.size === 0) return out;
  const hourFrom = Math.floor(window.from / HOUR_MS) * HOUR_MS;
  const hourTo = ceilHour(window.to);
  let groups: HourGroup[];
  if (options.days) {
    // The caller's days when it has them: zone arithmetic (temporal-polyfill) is slow enough to do once.
    const days = options.localDays ?? localDays(window, timezone);
    groups = days.map((d, i) => ({
      date: d.date,
      from: i === 0 ? hourFrom : ceilHour(d.from),
      to: i === days.length - 1 ? hourTo : ceilHour(d.to),
    }));
  } else {
    groups = [{ date: null, from: hourFrom, to: hourTo }];
  }
  const { days: dayTerms, hours: hourTerms } = decompose(groups);
  const dayStarts = [...dayTerms.keys()].sort((a, b) => a - b);
  const hourStarts = [...hourTerms.keys()].sort((a, b) => a - b);
  const keyList = [...keys.values()];
  const readPart = async (part: number[]) => {
    const perGroup = new Map<number, Array<CheckFigures | undefined>>(part.map((k) => [k, []]));
    const fold = (rows: readonly ReportRollupRow[], terms: ReadonlyMap<number, Term[]>) => {
      for (const row of rows) {
        const figures = perGroup.get(row.monitor_key);
        const list = terms.get(Number(row.hour_start));
        if (!figures || !list) continue;
        for (const t of list) add((figures[t.group] ??= emptyFigures()), row, t.sign);
      }
    };
    const rows = await source.rollupSnapshot(
      part,
      dayStarts.length > 0 ? { from: dayStarts[0]!, to: dayStarts[dayStarts.length - 1]! + DAY_MS } : null,
      hourStarts,
    );
    fold(rows.days, dayTerms);
    fold(rows.hours, hourTerms);
    for (const [key, figures] of perGroup) {
      const entry = out.get(idOfKey.get(key)!)!;
      for (let g = 0; g < groups.length; g++) {
        const f = figures[g];
        if (!f) continue;
        mergeFigures(entry.total, f);
        if (options.days) entry.days.set(groups[g]!.date!, f);
      }
    }
  };
  // A few parts in flight: on PostgreSQL each part is a few round trips, which then overlap (SQLite's one connection
  // takes them in turn). Between two parts the event loop runs: a report over many monitors must not hold it.
  let next = 0;
  const worker = async () => {
    while (next < keyList.length) {
      const part = keyList.slice(next, next + MONITORS_PER_READ);
      next += MONITORS_PER_READ;
      await readPart(part);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  };
  await Promise.all(Array.from({ length: PARTS_IN_FLIGHT }, worker));
  return out;
}
