import { afterEach, describe, expect, it, vi } from 'vitest';
import { PeriodicPass } from './periodic-pass.ts';
import type { Logger } from './logger.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('PeriodicPass', () => {
  it('runs a pass at start and each period, skips a tick while one runs, and stop waits for the pass in flight', async () => {
    vi.useFakeTimers();
    let passes = 0;
    let finish: (() => void) | null = null;
    const role = new PeriodicPass({
      name: 'test-pass',
      everyMs: 1000,
      failureMessage: 'failed',
      pass: () => {
        passes++;
        return new Promise<void>((resolve) => (finish = resolve));
      },
    });
    await role.start();
    expect(passes).toBe(1);
    await vi.advanceTimersByTimeAsync(3000); // still running: the ticks are skipped
    expect(passes).toBe(1);
    finish!();
    await vi.advanceTimersByTimeAsync(1000);
    expect(passes).toBe(2);
    let stopped = false;
    const stopping = role.stop().then(() => (stopped = true));
    expect(role.stopping).toBe(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    finish!();
    await stopping;
    await vi.advanceTimersByTimeAsync(5000);
    expect(passes).toBe(2);
  });

  it('logs a failed pass and runs the next one on time', async () => {
    vi.useFakeTimers();
    const errors: string[] = [];
    const logger = { error: (_: unknown, message: string) => errors.push(message) } as unknown as Logger; // test stand-in: only error() is called
    let passes = 0;
    const role = new PeriodicPass({
      name: 'failing-pass',
      everyMs: 1000,
      failureMessage: 'the pass failed',
      logger,
      pass: async () => {
        passes++;
        throw new Error('boom');
      },
    });
    await role.start();
    await vi.advanceTimersByTimeAsync(1000);
    expect(passes).toBe(2);
    expect(errors).toEqual(['the pass failed', 'the pass failed']);
    await role.stop();
  });
});
