/**
 * Spreading of checks over time. A new (or resumed, or re-timed) monitor's first check is due soon, jittered by a
 * hash of its id (`firstDueAt`), and its later checks follow one interval apart: the schedule row's slots are the
 * instants t ≡ phase (mod interval) with the phase anchored on that first due time (`anchoredPhase`). Monitors
 * created at different times thus fall on different phases, monitors created together are spread over the 5 s
 * jitter window, and every process computes the same slots from the stored phase.
 */

/** FNV-1a, 32 bits. */
export function hashId(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function phaseOf(monitorId: string, intervalMs: number): number {
  return hashId(monitorId) % intervalMs;
}

/** The first slot strictly after `now`. After downtime this is "run once now, then on the phase": never a replay. */
export function nextSlotAfter(now: number, phaseMs: number, intervalMs: number): number {
  return now - ((((now - phaseMs) % intervalMs) + intervalMs) % intervalMs) + intervalMs;
}

/** When a new (or resumed, or re-timed) monitor is first due: soon, but spread over a few seconds. */
export function firstDueAt(now: number, phaseMs: number, intervalMs: number): number {
  return now + (phaseMs % Math.min(intervalMs, 5_000));
}

/** The phase of a schedule row whose first check is due at `firstDue`: its slots are `firstDue + k × interval`. */
export function anchoredPhase(firstDue: number, intervalMs: number): number {
  return ((firstDue % intervalMs) + intervalMs) % intervalMs;
}
