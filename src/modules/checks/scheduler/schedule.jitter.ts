/**
 * Deterministic spreading of checks over their interval: each monitor gets a phase (a hash of its id
 * modulo the interval), and its checks are due at the instants t where t ≡ phase (mod interval).
 * 10,000 monitors at 30 s thus fire about 333 a second instead of all on the same second, and every
 * process computes the same slots.
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
