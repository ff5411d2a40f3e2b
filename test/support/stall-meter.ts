/** How often the meter looks at the clock. */
const TICK_MS = 20;

export interface StallMeter {
  /** Milliseconds this process's timers ran late since the meter started (up to now, or to stop()). */
  stalledMs(): number;
  stop(): void;
}

/**
 * How long this process could not run its timers: on a loaded machine (other processes on the CPUs, or this
 * process's own work) every timer fires late by that much, the server's time-outs and wake-ups included when they
 * share the process with the test. A wall-clock bound of `expected + slack + stalledMs()` then says what the code
 * does (it enforced its time-out, it did not wait for another one) whatever the machine's speed; on a quiet machine
 * the stall is about zero and the bound is as tight as before.
 */
export function startStallMeter(): StallMeter {
  let stalled = 0;
  let last = performance.now();
  let stopped: number | null = null;
  const sample = (now: number) => {
    stalled += Math.max(0, now - last - TICK_MS);
    last = now;
  };
  const timer = setInterval(() => sample(performance.now()), TICK_MS);
  return {
    stalledMs: () => stopped ?? stalled + Math.max(0, performance.now() - last - TICK_MS),
    stop() {
      if (stopped !== null) return;
      clearInterval(timer);
      sample(performance.now());
      stopped = stalled;
    },
  };
}
