import { LatencySketch } from '../../src/modules/checks/index.ts';
import type { RollupRow } from '../../src/modules/checks/rollups/rollups.tables.ts';
import { localDays, type Window } from '../../src/modules/reports/report.period.ts';

/**
 * A rollup history for the report-reading tests (rollups.block-read, rollups.day-prefixes): three monitors' hourly
 * rows around a window that crosses both DST changes, the daily rows the store keeps beside them, and the figures
 * per local day merged straight from the hours.
 */
export const H = 3_600_000;
export const DAY = 24 * H;
export const at = (iso: string) => Date.parse(iso);
export const MONITORS = [1, 2, 3];
/** Across New York's (March 8) and Berlin's (March 29) change to summer time; the edges inside hours. */
export const WINDOW: Window = { from: at('2026-03-01T03:17:00Z'), to: at('2026-04-02T20:41:00Z') };
export const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Asia/Kathmandu'];

/** Deterministic pseudo-random numbers (mulberry32): the same history on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * Hourly rows from two days before the window to two days after it (some hours missing, some without a sketch,
 * monitor 2 in two regions) and the daily rows the store keeps beside them (their sums).
 */
export function history(): { hourly: RollupRow[]; daily: RollupRow[] } {
  const next = random(13);
  const hourly: RollupRow[] = [];
  for (const monitor of MONITORS) {
    for (let h = at('2026-02-27T00:00:00Z'); h < at('2026-04-05T00:00:00Z'); h += H) {
      for (const region of monitor === 2 ? [1, 2] : [1]) {
        const dice = next();
        if (dice < 0.05) continue;
        const sketch = new LatencySketch();
        const checks = 1 + Math.floor(next() * 6);
        const failures = dice < 0.1 ? checks : Math.floor(next() * 2);
        for (let i = 0; i < checks - failures; i++) sketch.add(i === 0 && dice < 0.2 ? 0 : 20 + next() * 400 * monitor);
        hourly.push({
          monitor_key: monitor,
          hour_start: h,
          region_key: region,
          checks,
          failures,
          downtime_ms: 0,
          sketch: checks === failures ? null : sketch.encode(),
        });
      }
    }
  }
  const sums = new Map<string, RollupRow & { merged: LatencySketch }>();
  for (const r of hourly) {
    const day = Math.floor(r.hour_start / DAY) * DAY;
    const key = `${r.monitor_key} ${day} ${r.region_key}`;
    let d = sums.get(key);
    if (!d) {
      d = { ...r, hour_start: day, checks: 0, failures: 0, merged: new LatencySketch() };
      sums.set(key, d);
    }
    d.checks += r.checks;
    d.failures += r.failures;
    d.merged.mergeEncoded(r.sketch);
  }
  const daily = [...sums.values()].map(({ merged, ...r }) => ({
    ...r,
    sketch: merged.count > 0 ? merged.encode() : null,
  }));
  return { hourly, daily };
}

/** The figures merged straight from the hourly rows: each local day's hours (as figuresFromRollups counts them). */
export function reference(hourly: readonly RollupRow[], timezone: string) {
  const days = localDays(WINDOW, timezone);
  const ceilHour = (ms: number) => Math.ceil(ms / H) * H;
  const out = new Map<number, Map<string, { checks: number; failures: number; sketch: LatencySketch }>>();
  for (const monitor of MONITORS) {
    const byDay = new Map<string, { checks: number; failures: number; sketch: LatencySketch }>();
    days.forEach((d, i) => {
      const from = i === 0 ? Math.floor(WINDOW.from / H) * H : ceilHour(d.from);
      const to = i === days.length - 1 ? ceilHour(WINDOW.to) : ceilHour(d.to);
      const rows = hourly.filter((r) => r.monitor_key === monitor && r.hour_start >= from && r.hour_start < to);
      if (rows.length === 0) return;
      const sketch = new LatencySketch();
      for (const r of rows) sketch.mergeEncoded(r.sketch);
      byDay.set(d.date, {
        checks: rows.reduce((n, r) => n + r.checks, 0),
        failures: rows.reduce((n, r) => n + r.failures, 0),
        sketch,
      });
    });
    out.set(monitor, byDay);
  }
  return out;
}
