import { DecodedSketches, LatencySketch } from '../checks/index.ts';
import { localDays, type LocalDay, type Window } from './report.period.ts';
import type { ReportRollups } from './report.sources.ts';

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

/** The latency quantiles a local day is summed up by (p50, p95, p99: the performance report's daily series). */
export const DAY_QUANTILES = [0.5, 0.95, 0.99] as const;

/**
 * Checks, failures and latency of one monitor on one local day: the day's sketch is summed up (DAY_QUANTILES, in that
 * order; null when it holds no latency) and not kept, because 90 days × 1,000 monitors of sketches kept until the
 * report is written were most of its garbage collection.
 */
export interface DayFigures {
  checks: number;
  failures: number;
  /** Latencies in the day's sketch (successful checks). */
  latencies: number;
  quantiles: Array<number | null>;
}

export function emptyFigures(): CheckFigures {
  return { checks: 0, failures: 0, sketch: new LatencySketch() };
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

/** A prefix sum of a UTC day asked for (hours [0, k) of the day starting at `day`) and the groups it counts toward. */
interface PrefixTerm {
  day: number;
  k: number;
  terms: Term[];
}

/**
 * Writes each group as daily rollups and prefix sums of UTC days (closed days carry them): a UTC
 * day the group covers whole is its daily row; hours [0, b) of it are prefix b; hours [a, 24) the daily row less
 * prefix a; hours [a, b) prefix b less prefix a. Every local day is then at most three rows (a New York day: its
 * UTC day, the next day's prefix added, its own taken). `hours`: the same prefixes as hours, for the days that have
 * no prefix sums yet (not closed, or not compacted yet), which the source reads instead.
 */
function decomposeWithPrefixes(groups: readonly HourGroup[]): {
  days: Map<number, Term[]>;
  prefixes: PrefixTerm[];
  hours: Map<number, Term[]>;
} {
  const days = new Map<number, Term[]>();
  const prefixAt = new Map<string, PrefixTerm>();
  const pushDay = (at: number, term: Term) => {
    const list = days.get(at);
    if (list) list.push(term);
    else days.set(at, [term]);
  };
  const pushPrefix = (day: number, k: number, term: Term) => {
    const id = `${day}:${k}`;
    const p = prefixAt.get(id);
    if (p) p.terms.push(term);
    else prefixAt.set(id, { day, k, terms: [term] });
  };
  groups.forEach((g, group) => {
    for (let day = Math.floor(g.from / DAY_MS) * DAY_MS; day < g.to; day += DAY_MS) {
      const a = (Math.max(day, g.from) - day) / HOUR_MS;
      const b = (Math.min(day + DAY_MS, g.to) - day) / HOUR_MS;
      if (b <= a) continue;
      if (a === 0 && b === 24) {
        pushDay(day, { group, sign: 1 });
      } else if (a === 0) {
        pushPrefix(day, b, { group, sign: 1 });
      } else if (b === 24) {
        pushDay(day, { group, sign: 1 });
        pushPrefix(day, a, { group, sign: -1 });
      } else {
        pushPrefix(day, b, { group, sign: 1 });
        pushPrefix(day, a, { group, sign: -1 });
      }
    }
  });
  const prefixes = [...prefixAt.values()];
  const hours = new Map<number, Term[]>();
  for (const p of prefixes)
    for (let h = p.day; h < p.day + p.k * HOUR_MS; h += HOUR_MS) {
      const list = hours.get(h);
      if (list) list.push(...p.terms);
      else hours.set(h, [...p.terms]);
    }
  return { days, prefixes, hours };
}

/** Terms by bucket start as an array indexed by hours since `origin`: looked up once per row read. */
interface TermsByHour {
  origin: number;
  at: Array<Term[] | undefined>;
}

function byHour(terms: ReadonlyMap<number, Term[]>): TermsByHour {
  const starts = [...terms.keys()];
  const origin = starts.length > 0 ? Math.min(...starts) : 0;
  const at: Array<Term[] | undefined> = [];
  for (const [start, list] of terms) at[(start - origin) / HOUR_MS] = list;
  return { origin, at };
}

/**
 * The edge hours in blocks of hours with the same terms (New York: the first five UTC hours of a day add to the local
 * day before and are taken from the next), hours in order within a block: the database sums each (monitor, block)
 * into one row, a third of the rows of a New York report.
 */
function blocksOf(hours: ReadonlyMap<number, Term[]>): { hours: number[][]; terms: Term[][] } {
  const index = new Map<string, number>();
  const out: { hours: number[][]; terms: Term[][] } = { hours: [], terms: [] };
  for (const start of [...hours.keys()].sort((a, b) => a - b)) {
    const terms = hours.get(start)!;
    const signature = terms.map((t) => `${t.group}${t.sign > 0 ? '+' : '-'}`).join(' ');
    let block = index.get(signature);
    if (block === undefined) {
      block = out.hours.length;
      index.set(signature, block);
      out.hours.push([]);
      out.terms.push(terms);
    }
    out.hours[block]!.push(start);
  }
  return out;
}

const ceilHour = (ms: number) => Math.ceil(ms / HOUR_MS) * HOUR_MS;

/** A UTC hour a window edge cuts: its rollups count it whole, the window holds only [keepFrom, keepTo) of it. */
interface EdgeHour {
  hour: number;
  /** The group (local day) the hour belongs to: the one in which it starts. */
  group: number;
  keepFrom: number;
  keepTo: number;
}

function edgeHoursOf(window: Window, groups: readonly HourGroup[]): EdgeHour[] {
  const out: EdgeHour[] = [];
  for (const hour of [Math.floor(window.from / HOUR_MS) * HOUR_MS, ceilHour(window.to) - HOUR_MS]) {
    const keepFrom = Math.max(hour, window.from);
    const keepTo = Math.min(hour + HOUR_MS, window.to);
    if ((keepFrom === hour && keepTo === hour + HOUR_MS) || out.some((e) => e.hour === hour)) continue;
    const group = groups.findIndex((g) => g.from <= hour && hour < g.to);
    if (group >= 0) out.push({ hour, group, keepFrom, keepTo });
  }
  return out;
}

/** What one monitor's figures in a group gain (or lose: negative counts, sign −1) at an edge hour. */
interface EdgeCorrection {
  group: number;
  checks: number;
  failures: number;
  sketches: Array<{ sketch: Uint8Array | string | null; sign: 1 | -1 }>;
}

/**
 * Per monitor key, what makes an edge hour's counts those of the window's part of it alone (DECISIONS §11: `[from,
 * to)`), as the timeline makes the downtime exact. From the raw executions (their rollups count exactly them):
 * the parts outside the window are taken away when their executions are all there (retention has not reached them,
 * or the hour's executions still add up to its rollups); otherwise the hour's rollups are replaced by the
 * executions of the part inside, when those are all there; otherwise (retention deleted part of that hour) its
 * checks and failures are counted in proportion to the part inside and its latencies whole. A source without
 * executions (unit fakes), or a caller without the report's instant (`now`), changes nothing.
 */
async function edgeCorrections(
  source: ReportRollups,
  part: readonly number[],
  edges: readonly EdgeHour[],
  now: number | undefined,
): Promise<Map<number, EdgeCorrection[]>> {
  const out = new Map<number, EdgeCorrection[]>();
  const tally = source.executionTally?.bind(source);
  if (!tally || now === undefined || edges.length === 0) return out;
  const push = (key: number, c: EdgeCorrection) => {
    const list = out.get(key);
    if (list) list.push(c);
    else out.set(key, [c]);
  };
  const none = { checks: 0, failures: 0 };
  for (const e of edges) {
    const outside = [
      [e.hour, e.keepFrom],
      [e.keepTo, e.hour + HOUR_MS],
    ].filter(([a, b]) => b! > a!);
    const [hourRows, kept, ...dropped] = await Promise.all([
      source.rollupRows(part, e.hour, e.hour + HOUR_MS, 'hour'),
      tally(part, e.keepFrom, e.keepTo, now),
      ...outside.map(([a, b]) => tally(part, a!, b!, now)),
    ]);
    const whole = new Map<number, { checks: number; failures: number; rows: typeof hourRows }>();
    for (const r of hourRows) {
      const w = whole.get(r.monitor_key) ?? { checks: 0, failures: 0, rows: [] };
      w.checks += r.checks;
      w.failures += r.failures;
      w.rows.push(r);
      whole.set(r.monitor_key, w);
    }
    const droppedComplete = dropped.every((d) => d.complete);
    for (const [key, w] of whole) {
      const inside = kept.byMonitor.get(key);
      const stored = (inside ?? none).checks + dropped.reduce((n, d) => n + (d.byMonitor.get(key) ?? none).checks, 0);
      if (droppedComplete || stored === w.checks) {
        for (const d of dropped) {
          const t = d.byMonitor.get(key);
          if (t)
            push(key, {
              group: e.group,
              checks: -t.checks,
              failures: -t.failures,
              sketches: [{ sketch: t.sketch, sign: -1 }],
            });
        }
      } else if (kept.complete) {
        const sketches: EdgeCorrection['sketches'] = w.rows.map((r) => ({ sketch: r.sketch, sign: -1 }));
        if (inside) sketches.push({ sketch: inside.sketch, sign: 1 });
        const t = inside ?? none;
        push(key, { group: e.group, checks: t.checks - w.checks, failures: t.failures - w.failures, sketches });
      } else {
        const share = (e.keepTo - e.keepFrom) / HOUR_MS;
        push(key, {
          group: e.group,
          checks: Math.round(w.checks * share) - w.checks,
          failures: Math.round(w.failures * share) - w.failures,
          sketches: [],
        });
      }
    }
  }
  return out;
}

/**
 * Per monitor id: the figures of the window and (unless `options.days` is false) of each local day, merged from
 * rollups (never raw executions).
 * Buckets are UTC hours; a bucket belongs to the window and to the local day in which it starts (zones with a
 * non-whole-hour offset place an hour in the day where it starts); an hour a window edge cuts is then corrected to
 * the part inside the window (edgeCorrections). Each day is read as daily rollups plus or minus a few hourly ones (decompose above), daily and hourly rows
 * of a part of the monitors in one snapshot; the window's total is the sum of its days.
 */
export async function figuresFromRollups(
  source: ReportRollups,
  monitorIds: readonly string[],
  window: Window,
  timezone: string,
  options: { days: boolean; localDays?: readonly LocalDay[]; now?: number } = { days: true },
): Promise<Map<string, { total: CheckFigures; days: Map<string, DayFigures> }>> {
  const keys = await source.monitorKeys(monitorIds);
  const idOfKey = new Map([...keys].map(([id, key]) => [key, id]));
  const out = new Map(monitorIds.map((id) => [id, { total: emptyFigures(), days: new Map<string, DayFigures>() }]));
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
  const { days: dayTerms, hours: hourTerms, prefixes } = decomposeWithPrefixes(groups);
  const prefixRequests = { days: prefixes.map((p) => p.day), ks: prefixes.map((p) => p.k) };
  const dayStarts = [...dayTerms.keys()].sort((a, b) => a - b);
  const blocks = blocksOf(hourTerms);
  const edges = edgeHoursOf(window, groups);
  const keyList = [...keys.values()];
  const dayTermsAt = byHour(dayTerms);
  // One decoder and one scratch sketch for the whole read: what follows each part's await runs without yielding, so
  // parts never share them.
  const decoded = new DecodedSketches();
  const scratch = new LatencySketch();
  const readPart = async (part: number[]) => {
    const [rows, corrections] = await Promise.all([
      source.rollupSnapshot(
        part,
        dayStarts.length > 0 ? { from: dayStarts[0]!, to: dayStarts[dayStarts.length - 1]! + DAY_MS } : null,
        blocks.hours,
        prefixRequests,
      ),
      edgeCorrections(source, part, edges, options.now),
    ]);
    // Two passes. First, every sketch read is decoded once (an edge hour of a non-UTC zone is a term of two local
    // days; a block row holds the sketches of its hours) and each (monitor, group) target gets its checks, failures
    // and the range of keys it will receive.
    // Then each target's sketch is built with room for that range: no sketch grows bin by bin.
    const monitorIndex = new Map(part.map((k, i) => [k, i]));
    const targets = part.length * groups.length;
    const checks = new Float64Array(targets);
    const failures = new Float64Array(targets);
    const low = new Float64Array(targets).fill(Infinity);
    const high = new Float64Array(targets).fill(-Infinity);
    const touched = new Uint8Array(targets);
    const terms: number[] = []; // (decoded row, target, sign) triples, in reading order
    decoded.clear();
    // A row read (a day, or a block's part) adds its counts to its terms' targets, and each of its sketches, decoded
    // once, is recorded for each of them.
    const addCounts = (m: number, rowTerms: readonly Term[], rowChecks: number, rowFailures: number) => {
      for (const t of rowTerms) {
        const target = m * groups.length + t.group;
        touched[target] = 1;
        checks[target]! += t.sign * rowChecks;
        failures[target]! += t.sign * rowFailures;
      }
    };
    const addSketch = (m: number, rowTerms: readonly Term[], r: number) => {
      if (r < 0) return;
      const rowLow = decoded.lowKey(r);
      const rowHigh = decoded.highKey(r);
      for (const t of rowTerms) {
        const target = m * groups.length + t.group;
        if (rowLow < low[target]!) low[target] = rowLow;
        if (rowHigh > high[target]!) high[target] = rowHigh;
        terms.push(r, target, t.sign);
      }
    };
    for (const row of rows.days) {
      const m = monitorIndex.get(row.monitor_key);
      const rowTerms = dayTermsAt.at[(Number(row.hour_start) - dayTermsAt.origin) / HOUR_MS];
      if (m === undefined || !rowTerms) continue;
      addCounts(m, rowTerms, row.checks, row.failures);
      addSketch(m, rowTerms, decoded.push(row.sketch));
    }
    for (const row of rows.prefixes ?? []) {
      const m = monitorIndex.get(row.monitor_key);
      const rowTerms = prefixes[Number(row.hour_start)]?.terms;
      if (m === undefined || !rowTerms) continue;
      addCounts(m, rowTerms, row.checks, row.failures);
      addSketch(m, rowTerms, decoded.push(row.sketch));
    }
    for (const row of rows.blocks) {
      const m = monitorIndex.get(row.monitor_key);
      const rowTerms = blocks.terms[row.block];
      if (m === undefined || !rowTerms) continue;
      addCounts(m, rowTerms, row.checks, row.failures);
      // The block's sketches in one text, decoded in one call; their rows are the decoder's last ones.
      const added = decoded.pushFramed(row.sketches);
      for (let r = decoded.size - added; r < decoded.size; r++) addSketch(m, rowTerms, r);
    }
    // Last, the edge hours' corrections: a sketch taken away is part of what was added before it.
    for (const [key, list] of corrections) {
      const m = monitorIndex.get(key);
      if (m === undefined) continue;
      for (const c of list) {
        addCounts(m, [{ group: c.group, sign: 1 }], c.checks, c.failures);
        for (const s of c.sketches) addSketch(m, [{ group: c.group, sign: s.sign }], decoded.push(s.sketch));
      }
    }
    // Terms by target (counting sort, reading order kept within a target), then each target built in one scratch
    // sketch, summed up, merged into its monitor's total and cleared: no sketch per day is allocated or kept.
    const count = terms.length / 3;
    const startOf = new Int32Array(targets + 1);
    for (let i = 0; i < count; i++) startOf[terms[3 * i + 1]! + 1]! += 1;
    for (let t = 0; t < targets; t++) startOf[t + 1]! += startOf[t]!;
    const order = new Int32Array(count);
    const filled = startOf.slice(0, targets);
    for (let i = 0; i < count; i++) order[filled[terms[3 * i + 1]!]!++] = i;
    part.forEach((key, m) => {
      const entry = out.get(idOfKey.get(key)!)!;
      let monitorLow = Infinity;
      let monitorHigh = -Infinity;
      for (let g = 0; g < groups.length; g++) {
        monitorLow = Math.min(monitorLow, low[m * groups.length + g]!);
        monitorHigh = Math.max(monitorHigh, high[m * groups.length + g]!);
      }
      // The total receives at most the keys of its days: room for them all at once.
      entry.total.sketch.reserve(monitorLow, monitorHigh);
      for (let g = 0; g < groups.length; g++) {
        const target = m * groups.length + g;
        if (touched[target] === 0) continue;
        scratch.clear();
        scratch.reserve(low[target]!, high[target]!);
        for (let j = startOf[target]!; j < startOf[target + 1]!; j++) {
          const i = order[j]!;
          scratch.mergeDecoded(decoded, terms[3 * i]!, terms[3 * i + 2]! as 1 | -1);
        }
        entry.total.checks += checks[target]!;
        entry.total.failures += failures[target]!;
        entry.total.sketch.merge(scratch);
        if (options.days)
          entry.days.set(groups[g]!.date!, {
            checks: checks[target]!,
            failures: failures[target]!,
            latencies: scratch.count,
            quantiles: scratch.quantiles(DAY_QUANTILES),
          });
      }
    });
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
