import { describe, expect, it } from 'vitest';
import { FakeTime } from '../../test/support/fake-time.ts';
import { BackgroundLoop, type BackgroundLoopOptions } from './background-loop.ts';

/** A pass the test ends by hand: `started` counts passes begun, `finish()` ends the one in flight. */
function manualPass(answer: () => number | void = () => undefined) {
  const state = {
    started: 0,
    woken: [] as boolean[],
    finish: (): void => {
      throw new Error('no pass in flight');
    },
    fail: (_err: Error): void => {
      throw new Error('no pass in flight');
    },
  };
  const pass: BackgroundLoopOptions['pass'] = ({ woken }) => {
    state.started++;
    state.woken.push(woken);
    return new Promise<number | void>((resolve, reject) => {
      state.finish = () => resolve(answer());
      state.fail = reject;
    });
  };
  return { state, pass };
}

const failedNot = (err: unknown): never => {
  throw err;
};

describe('BackgroundLoop', () => {
  it('runs a pass at start, then every everyMs counted from the end of a pass; passes never overlap', async () => {
    const time = new FakeTime();
    const { state, pass } = manualPass();
    const loop = new BackgroundLoop({ name: 't', everyMs: 1000, pass, failed: failedNot, timers: time });
    await loop.start();
    expect(state.started).toBe(1);
    await time.advance(5000); // the pass still runs: no second one, no timer
    expect(state.started).toBe(1);
    expect(time.size).toBe(0);
    state.finish();
    await loop.whenWaiting();
    expect(time.nextIn()).toBe(1000);
    await time.advance(999);
    expect(state.started).toBe(1);
    await time.advance(1);
    expect(state.started).toBe(2);
    expect(state.woken).toEqual([false, false]);
    state.finish();
    await loop.stop();
  });

  it('waits as long as the pass answers (0: the next pass at once)', async () => {
    const time = new FakeTime();
    const answers = [0, 0, 250];
    let passes = 0;
    const loop = new BackgroundLoop({
      name: 't',
      everyMs: 60_000,
      pass: async () => {
        passes++;
        return answers.shift();
      },
      failed: failedNot,
      timers: time,
    });
    await loop.start();
    await loop.whenWaiting();
    expect(passes).toBe(3);
    expect(time.nextIn()).toBe(250);
    await time.advance(250, () => loop.whenWaiting());
    expect(passes).toBe(4);
    expect(time.nextIn()).toBe(60_000); // answered nothing: everyMs
    await loop.stop();
  });

  it('wake() ends the wait at once; a wake during a pass skips the wait after it', async () => {
    const time = new FakeTime();
    const { state, pass } = manualPass(() => 10_000);
    const loop = new BackgroundLoop({ name: 't', everyMs: 10_000, pass, failed: failedNot, timers: time });
    await loop.start();
    state.finish();
    await loop.whenWaiting();
    loop.wake();
    await Promise.resolve();
    await Promise.resolve();
    expect(state.started).toBe(2);
    expect(state.woken).toEqual([false, true]);
    expect(time.size).toBe(0); // the woken wait's timer is cancelled

    loop.wake(); // during the second pass
    state.finish();
    await time.advance(0);
    expect(state.started).toBe(3);
    expect(state.woken).toEqual([false, true, true]);
    state.finish();
    await loop.whenWaiting();
    expect(time.nextIn()).toBe(10_000); // the pending wake was used once
    await loop.stop();
  });

  it('stop() during a pass lets it finish, runs no further pass, then runs atStop once', async () => {
    const time = new FakeTime();
    const { state, pass } = manualPass();
    const order: string[] = [];
    const loop = new BackgroundLoop({
      name: 't',
      everyMs: 1000,
      pass,
      failed: failedNot,
      timers: time,
      atStop: async () => {
        order.push('atStop');
      },
    });
    await loop.start();
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    expect(loop.stopping).toBe(true);
    await time.advance(5000);
    expect(stopped).toBe(false); // the pass in flight holds the stop
    expect(order).toEqual([]);
    order.push('pass ended');
    state.finish();
    await stopping;
    expect(order).toEqual(['pass ended', 'atStop']);
    expect(time.size).toBe(0);
    await time.advance(5000);
    expect(state.started).toBe(1);
  });

  it('stop() during the wait ends it at once', async () => {
    const time = new FakeTime();
    let passes = 0;
    const loop = new BackgroundLoop({
      name: 't',
      everyMs: 3_600_000,
      pass: async () => {
        passes++;
      },
      failed: failedNot,
      timers: time,
    });
    await loop.start();
    await loop.whenWaiting();
    await loop.stop(); // no time advanced: resolves without the hour
    expect(passes).toBe(1);
    expect(time.size).toBe(0);
  });

  it('a failed pass is reported and the wait it answers (a backoff) comes before the next pass', async () => {
    const time = new FakeTime();
    const { state, pass } = manualPass(() => 100);
    const reported: string[] = [];
    let failures = 0;
    const loop = new BackgroundLoop({
      name: 't',
      everyMs: 100,
      pass,
      failed: (err) => {
        reported.push((err as Error).message);
        failures++;
        return 1000 * 2 ** (failures - 1);
      },
      timers: time,
    });
    await loop.start();
    state.fail(new Error('boom 1'));
    await loop.whenWaiting();
    expect(time.nextIn()).toBe(1000);
    await time.advance(1000);
    state.fail(new Error('boom 2'));
    await loop.whenWaiting();
    expect(time.nextIn()).toBe(2000);
    await time.advance(1999);
    expect(state.started).toBe(2);
    await time.advance(1);
    expect(state.started).toBe(3);
    state.finish(); // succeeds: back to the pass's own wait
    await loop.whenWaiting();
    expect(time.nextIn()).toBe(100);
    expect(reported).toEqual(['boom 1', 'boom 2']);
    await loop.stop();
  });

  it("firstPass 'after-wait' runs the first pass once everyMs has passed", async () => {
    const time = new FakeTime();
    let passes = 0;
    const loop = new BackgroundLoop({
      name: 't',
      everyMs: 5000,
      firstPass: 'after-wait',
      pass: async () => {
        passes++;
      },
      failed: failedNot,
      timers: time,
    });
    await loop.start();
    await time.advance(4999);
    expect(passes).toBe(0);
    await time.advance(1);
    expect(passes).toBe(1);
    await loop.stop();
  });

  it('an atStop failure goes to failed; pause() inside a pass waits on the timers and ends at stop', async () => {
    const time = new FakeTime();
    const reported: string[] = [];
    let chunks = 0;
    const loop: BackgroundLoop = new BackgroundLoop({
      name: 't',
      everyMs: 1000,
      pass: async () => {
        while (!loop.stopping) {
          chunks++;
          await loop.pause(50);
        }
      },
      failed: (err) => void reported.push((err as Error).message),
      atStop: async () => {
        throw new Error('final flush failed');
      },
      timers: time,
    });
    await loop.start();
    expect(chunks).toBe(1);
    await time.advance(50);
    expect(chunks).toBe(2);
    await time.advance(100);
    expect(chunks).toBe(4);
    await loop.stop(); // ends the pause in progress: no 50 ms more
    expect(chunks).toBe(4);
    expect(reported).toEqual(['final flush failed']);
    expect(time.size).toBe(0);
  });

  it('start() twice runs one loop; it starts again after a stop', async () => {
    const time = new FakeTime();
    let passes = 0;
    const loop = new BackgroundLoop({
      name: 't',
      everyMs: 1000,
      pass: async () => {
        passes++;
      },
      failed: failedNot,
      timers: time,
    });
    await loop.start();
    await loop.start();
    await loop.whenWaiting();
    expect(passes).toBe(1);
    expect(time.size).toBe(1);
    await loop.stop();
    await loop.start();
    await loop.whenWaiting();
    expect(passes).toBe(2);
    await loop.stop();
    expect(loop.passes).toBe(2);
  });
});
