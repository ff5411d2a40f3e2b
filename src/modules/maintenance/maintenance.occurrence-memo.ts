import { occurrencesBetween } from './maintenance.occurrences.ts';
import type { MaintenanceWindow, Occurrence } from './maintenance.types.ts';

type Timed = Pick<MaintenanceWindow, 'id' | 'schedule' | 'timezone' | 'earlyEnds'>;

interface Memo {
  /** What the occurrences follow from: a window edited or ended early (by any process) computes again. */
  fingerprint: string;
  from: number;
  to: number;
  occurrences: Occurrence[];
}

/**
 * `occurrencesBetween` for a long-lived reader that asks about the same windows over a range that slides forward (the
 * maintenance-events role, every 5 s): each window's occurrences are computed once over [from, to + aheadMs) and served
 * from memory while the asked range stays inside it and the window's schedule, zone and early ends are unchanged.
 * The RRULE expansion (Temporal dates and zone conversions) was nearly all of the role's pass: 1,000 windows cost
 * ~50 ms of CPU every 5 s (issue 31's benchmark, docs/BENCHMARKS.md). Answers equal `occurrencesBetween`'s.
 */
export class OccurrenceMemo {
  private readonly aheadMs: number;
  private readonly compute: typeof occurrencesBetween;
  private readonly byWindow = new Map<string, Memo>();
  /** `compute`: occurrencesBetween (tests count its calls through it). */
  constructor(options: { aheadMs?: number; compute?: typeof occurrencesBetween } = {}) {
    this.aheadMs = options.aheadMs ?? 10 * 60_000;
    this.compute = options.compute ?? occurrencesBetween;
  }

  /** Occurrences of `w` overlapping [from, to), in order (as `occurrencesBetween`). */
  between(w: Timed, from: number, to: number): Occurrence[] {
    const fingerprint = fingerprintOf(w);
    let memo = this.byWindow.get(w.id);
    if (!memo || memo.fingerprint !== fingerprint || from < memo.from || to > memo.to) {
      const end = to + this.aheadMs;
      memo = { fingerprint, from, to: end, occurrences: this.compute(w, from, end) };
      this.byWindow.set(w.id, memo);
    }
    // The same overlap test as occurrencesBetween's: [start, end) meets [from, to).
    return memo.occurrences.filter((o) => o.end > from && o.start < to);
  }

  /** Forgets every window not in `ids` (deleted since). */
  retainOnly(ids: ReadonlySet<string>): void {
    for (const id of this.byWindow.keys()) if (!ids.has(id)) this.byWindow.delete(id);
  }

  get size(): number {
    return this.byWindow.size;
  }
}

function fingerprintOf(w: Timed): string {
  return `${w.timezone}\u0000${JSON.stringify(w.schedule)}\u0000${JSON.stringify(w.earlyEnds)}`;
}
