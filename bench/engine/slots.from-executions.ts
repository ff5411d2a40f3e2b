/**
 * Lateness and duplicates read back from the stored executions (for `--mode serve`, where the measured
 * processes carry no instrumentation). A check's slot follows from its start: slots of a monitor are the
 * instants ≡ its schedule row's phase_ms (mod interval), so a start belongs to the latest slot at or before it —
 * exact while lateness stays below one interval, which the figures show.
 */
import { sql, type Kysely } from 'kysely';

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
  // One region per bench run: a monitor's phase is that of its (only) schedule row.
  const phases = new Map(
    (
      await sql<{ monitor_id: string; phase_ms: string | number }>`
        select monitor_id, phase_ms from check_schedule`.execute(db)
    ).rows.map((r) => [r.monitor_id, Number(r.phase_ms)]),
  );
  const runs = new Map<string, number>();
  const lateness: number[] = [];
  for (const row of rows) {
    const startedAt = Number(row.started_at);
    const phase = phases.get(row.monitor_id);
    if (phase === undefined) continue; // deleted since
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
