import { describe, expect, it } from 'vitest';
import { startStallMeter } from './stall-meter.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('stall meter', () => {
  it('counts the time the event loop could not run timers, and stops counting when stopped', async () => {
    const meter = startStallMeter();
    await sleep(50);
    const before = meter.stalledMs();
    const blockedUntil = performance.now() + 300;
    while (performance.now() < blockedUntil); // the loop is blocked: no timer can fire
    expect(meter.stalledMs() - before).toBeGreaterThanOrEqual(300 - 20 - 1);
    meter.stop();
    const stopped = meter.stalledMs();
    const again = performance.now() + 100;
    while (performance.now() < again);
    expect(meter.stalledMs()).toBe(stopped);
  });
});
