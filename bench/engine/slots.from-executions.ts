/**
 * Lateness and duplicates read back from the stored executions (for `--mode serve`, where the measured
 * processes carry no instrumentation). A check's slot follows from its start: slots of a monitor are the
 * instants ≡ phaseOf(monitor, interval) (mod interval), so a start belongs to the latest slot at or before it —
 * exact while lateness stays below one interval, which the figures show.
 */
import { sql, type Kysely } from 'kysely';
import { phaseOf } from '../../src/modules/checks/index.ts';

export interface SlotFigures {
  checksInWindow: number;
  /** Sorted ascending. */
  lateness: number[];
  duplicateSlots: number;
  slotsRun: number;
}

export async function slotsFromExecutions(
  db: Kysely<unknown>,
  intervalMs: number,
  windowStart: number,
  windowEnd: number,
): Promise<SlotFigures> {
  const rows = (
    await sql<{ started_at: string | number; region_key: number; monitor_id: string }>`
      select e.started_at, e.region_key, k.monitor_id
      from execution e join monitor_key k on k.id = e.monitor_key
      where e.started_at >= ${windowStart} and e.started_at < ${windowEnd + intervalMs}`.execute(db)
  ).rows;
  const phases = new Map<string, number>();
  const runs = new Map<string, number>();
  const lateness: number[] = [];
  for (const row of rows) {
    const startedAt = Number(row.started_at);
    let phase = phases.get(row.monitor_id);
    if (phase === undefined) phases.set(row.monitor_id, (phase = phaseOf(row.monitor_id, intervalMs)));
    const slot = startedAt - ((((startedAt - phase) % intervalMs) + intervalMs) % intervalMs);
    if (slot < windowStart || slot >= windowEnd) continue;
    lateness.push(startedAt - slot);
    const key = `${row.monitor_id}:${row.region_key}:${slot}`;
    runs.set(key, (runs.get(key) ?? 0) + 1);
  }
  lateness.sort((a, b) => a - b);
  let duplicateSlots = 0;
  for (const n of runs.values()) if (n > 1) duplicateSlots++;
  return { checksInWindow: lateness.length, lateness, duplicateSlots, slotsRun: runs.size };
}
