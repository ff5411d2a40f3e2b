/**
 * Availability accounting, pure (DECISIONS §11). A monitor's timeline (lifecycle changes and the state machine's
 * verdicts) becomes disjoint spans of time in one of five states; a report clips them to its window.
 *
 * - absent: before the monitor was created or after it was deleted;
 * - paused: paused by a user;
 * - no_data: existing and not paused, but without a verdict yet (after creation or a resume, until the first
 *   up or down);
 * - down: from the first failing check of the run that confirmed the outage (`since`) to the verdict that ended it;
 * - up: otherwise;
 * - maintenance: time a maintenance window with `exclude_from_sla` covered (DECISIONS §16), laid over the up, down and
 *   no_data time by `withMaintenance`: neither uptime nor downtime.
 * Monitored time = up + down; paused, no_data, maintenance and absent time are not monitored.
 * Degraded time (DECISIONS §20: slow, or failing in fewer regions than confirm_regions) is up time marked `degraded`:
 * it counts as up for uptime_percent and is reported beside it as degraded_seconds.
 */

export type TimelineKind = 'created' | 'paused' | 'resumed' | 'deleted' | 'down' | 'up' | 'degraded';

export interface TimelineEntry {
  kind: TimelineKind;
  at: number;
  /** down only: when the failure began (≤ at). */
  since: number | null;
}

export type SpanState = 'absent' | 'paused' | 'no_data' | 'up' | 'down' | 'maintenance';

/** [start, end) in epoch ms. */
export type Interval = readonly [number, number];

export interface Span {
  start: number;
  end: number;
  state: SpanState;
  /** Up time while the monitor was degraded (only with state `up`). */
  degraded?: boolean;
}

/**
 * The spans of one monitor from its first entry to `until` (exclusive), in order; time before the first entry is
 * absent. Entries must be in recorded order (by `at`, ties in the order they were written).
 */
export function spansOf(entries: readonly TimelineEntry[], until: number): Span[] {
  const spans: Span[] = [];
  let exists = false;
  let paused = false;
  let verdict: 'up' | 'down' | 'degraded' | null = null;
  let cursor = -Infinity;
  const state = (): SpanState =>
    !exists ? 'absent' : paused ? 'paused' : verdict === 'degraded' ? 'up' : (verdict ?? 'no_data');
  const close = (at: number) => {
    const end = Math.min(at, until);
    if (end > cursor) {
      const s = state();
      spans.push({ start: cursor, end, state: s, ...(s === 'up' && verdict === 'degraded' && { degraded: true }) });
    }
    cursor = Math.max(cursor, end);
  };
  for (const e of entries) {
    if (e.at > until) break;
    close(e.at);
    switch (e.kind) {
      case 'created':
        exists = true;
        paused = false;
        verdict = null;
        break;
      case 'deleted':
        exists = false;
        verdict = null;
        break;
      // Only an existing monitor is paused or resumed (a report may start its timeline at such an entry).
      case 'paused':
        exists = true;
        paused = true;
        verdict = null;
        break;
      case 'resumed':
        exists = true;
        paused = false;
        verdict = null;
        break;
      case 'up':
        verdict = 'up';
        break;
      case 'degraded':
        verdict = 'degraded';
        break;
      case 'down':
        if (exists && !paused && e.since !== null && e.since < e.at) relabelDown(spans, e.since, e.at);
        verdict = 'down';
        break;
    }
  }
  close(until);
  return merged(spans.filter((s) => s.end > s.start));
}

/** The failure that the down verdict confirms began at `since`: the up or no-data time since then was down. */
function relabelDown(spans: Span[], since: number, at: number): void {
  for (let i = spans.length - 1; i >= 0; i--) {
    const s = spans[i]!;
    if (s.end <= since) break;
    if (s.state !== 'up' && s.state !== 'no_data') break; // never across a pause, a creation or a deletion
    if (s.start >= since) {
      s.state = 'down';
      delete s.degraded;
      continue;
    }
    spans.splice(i + 1, 0, { start: since, end: Math.min(s.end, at), state: 'down' });
    s.end = since;
    break;
  }
}

function merged(spans: Span[]): Span[] {
  const out: Span[] = [];
  for (const s of spans) {
    const last = out[out.length - 1];
    if (last && last.state === s.state && !last.degraded === !s.degraded && last.end === s.start) last.end = s.end;
    else out.push({ ...s });
  }
  return out;
}

/**
 * The spans with the time of `maintenance` (sorted, disjoint intervals) relabelled `maintenance` where the monitor was
 * up, down or without a verdict (paused and absent time stay what they were: nobody was watching).
 */
export function withMaintenance(spans: readonly Span[], maintenance: readonly Interval[]): Span[] {
  if (maintenance.length === 0) return [...spans];
  const out: Span[] = [];
  for (const s of spans) {
    if (s.state !== 'up' && s.state !== 'down' && s.state !== 'no_data') {
      out.push({ ...s });
      continue;
    }
    let cursor = s.start;
    for (const [ms, me] of maintenance) {
      if (me <= cursor || ms >= s.end) continue;
      if (ms > cursor) out.push({ ...s, start: cursor, end: ms });
      out.push({ start: Math.max(ms, cursor), end: Math.min(me, s.end), state: 'maintenance' });
      cursor = Math.min(me, s.end);
    }
    if (cursor < s.end) out.push({ ...s, start: cursor, end: s.end });
  }
  return merged(out.filter((s) => s.end > s.start));
}

/** The intervals of the spans in `state`, clipped to [from, to). */
export function intervalsIn(spans: readonly Span[], state: SpanState, from: number, to: number): Interval[] {
  const out: Interval[] = [];
  for (const s of spans) {
    if (s.state !== state || s.end <= from || s.start >= to) continue;
    out.push([Math.max(s.start, from), Math.min(s.end, to)]);
  }
  return out;
}

/** Sorted, disjoint union of interval lists. */
export function union(lists: ReadonlyArray<readonly Interval[]>): Interval[] {
  const all = lists.flat().sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const [s, e] of all) {
    const last = out[out.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}

export function totalMs(intervals: readonly Interval[]): number {
  let sum = 0;
  for (const [s, e] of intervals) sum += e - s;
  return sum;
}

/** Milliseconds per state within [from, to); the states sum to to − from. */
export interface Accounting {
  windowMs: number;
  /** Degraded time included. */
  upMs: number;
  /** The part of upMs the monitor was degraded. */
  degradedMs: number;
  downMs: number;
  pausedMs: number;
  noDataMs: number;
  /** Covered by a window that excludes maintenance from the SLA: neither up nor down. */
  maintenanceMs: number;
  absentMs: number;
}

export function accountingOf(spans: readonly Span[], from: number, to: number): Accounting {
  const ms = (state: SpanState) => totalMs(intervalsIn(spans, state, from, to));
  const upMs = ms('up');
  const degradedMs = totalMs(
    intervalsIn(
      spans.filter((s) => s.degraded === true),
      'up',
      from,
      to,
    ),
  );
  const downMs = ms('down');
  const pausedMs = ms('paused');
  const noDataMs = ms('no_data');
  const maintenanceMs = ms('maintenance');
  return {
    windowMs: to - from,
    upMs,
    degradedMs,
    downMs,
    pausedMs,
    noDataMs,
    maintenanceMs,
    absentMs: to - from - upMs - downMs - pausedMs - noDataMs - maintenanceMs,
  };
}

/** Several monitors judged together ("any_down"): down whenever one is down, monitored whenever one is monitored. */
export function combinedAccounting(
  spansPerMonitor: ReadonlyArray<readonly Span[]>,
  from: number,
  to: number,
): { monitoredMs: number; downMs: number } {
  const down = union(spansPerMonitor.map((s) => intervalsIn(s, 'down', from, to)));
  const monitored = union(
    spansPerMonitor.flatMap((s) => [intervalsIn(s, 'up', from, to), intervalsIn(s, 'down', from, to)]),
  );
  return { monitoredMs: totalMs(monitored), downMs: totalMs(down) };
}

/** 100 × up / monitored, null when nothing was monitored. */
export function uptimePercent(upMs: number, monitoredMs: number): number | null {
  return monitoredMs > 0 ? (100 * upMs) / monitoredMs : null;
}
