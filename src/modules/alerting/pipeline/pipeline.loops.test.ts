/**
 * The alert dispatcher's loop on fake timers: after a round that consumed events the next runs at once; empty rounds
 * back off from pollMs, doubling, to a second; a failed round is logged and counts as an empty one; a nudge (an event
 * recorded in this process) ends the wait at once. The fan-out itself is stubbed (pipeline.test.ts tests it on both
 * databases).
 */
import { describe, expect, it, vi } from 'vitest';
import { FakeTime } from '../../../../test/support/fake-time.ts';
import type { Logger } from '../../../platform/logger.ts';
import { AlertPipeline, type AlertPipelineDeps } from './pipeline.ts';

function pipelineOn(time: FakeTime) {
  const errors: string[] = [];
  const logger = { error: (_: unknown, message: string) => errors.push(message) } as unknown as Logger; // test stand-in: only error() is called
  // fanOutOnce is stubbed below: the database, events, providers and the rest are never reached.
  const unused = {} as never;
  const deps: AlertPipelineDeps = {
    database: unused,
    events: unused,
    orgs: unused,
    monitors: unused,
    registry: new Map(),
    secrets: unused,
    providerContext: unused,
    publicUrl: 'https://tocsin.example',
    allowPrivateTargets: false,
    clock: time.clock,
    logger,
    pollMs: 100,
    timers: time,
  };
  const pipeline = new AlertPipeline(deps);
  const consumed: Array<number | Error> = [];
  const fanOut = vi.spyOn(pipeline, 'fanOutOnce').mockImplementation(async () => {
    const next = consumed.shift() ?? 0;
    if (next instanceof Error) throw next;
    return next;
  });
  return { pipeline, fanOut, consumed, errors };
}

describe('alert dispatcher loop', () => {
  it('runs again at once after consuming events, backs off 100 → 1000 ms while idle, a failure counts as idle', async () => {
    const time = new FakeTime();
    const { pipeline, fanOut, consumed, errors } = pipelineOn(time);
    consumed.push(3, 2);
    await pipeline.dispatcher.start();
    await time.advance(0);
    expect(fanOut).toHaveBeenCalledTimes(3); // 3, 2, then an empty round
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      waits.push(time.nextIn()!);
      await time.advance(time.nextIn()!);
    }
    expect(waits).toEqual([100, 200, 400, 800, 1000, 1000]);

    consumed.push(5); // work again: the idle count starts over
    await time.advance(time.nextIn()!);
    expect(time.nextIn()).toBe(100);

    consumed.push(new Error('database gone'));
    await time.advance(100);
    expect(errors).toEqual(['alert dispatcher round failed']);
    expect(time.nextIn()).toBe(200); // the second empty round in a row
    await pipeline.dispatcher.stop();
  });

  it('a nudge ends the idle wait at once', async () => {
    const time = new FakeTime();
    const { pipeline, fanOut } = pipelineOn(time);
    await pipeline.dispatcher.start();
    for (let i = 0; i < 5; i++) await time.advance(time.nextIn()!);
    expect(time.nextIn()).toBe(1000);
    const before = fanOut.mock.calls.length;
    pipeline.nudge();
    await time.advance(0);
    expect(fanOut).toHaveBeenCalledTimes(before + 1);
    await pipeline.dispatcher.stop();
    expect(time.size).toBe(0);
  });
});
