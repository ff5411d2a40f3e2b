/** Time source; injected everywhere so time-based logic is tested without sleeping. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that moves only when told to; for tests and benchmarks. */
export class ManualClock implements Clock {
  private current: number;
  constructor(start: number | string = '2026-01-01T00:00:00.000Z') {
    this.current = typeof start === 'number' ? start : Date.parse(start);
  }
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
  set(at: number | string): void {
    this.current = typeof at === 'number' ? at : Date.parse(at);
  }
}

export function toIso(ms: number): string {
  return new Date(ms).toISOString();
}

export function toIsoOrNull(ms: number | null | undefined): string | null {
  return ms === null || ms === undefined ? null : new Date(ms).toISOString();
}
