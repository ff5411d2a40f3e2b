/**
 * An idle in-process runner waits on events instead of polling: with nothing scheduled it reads the next due time
 * once per maxIdleMs (no claim), claims when a nudge says the schedule changed, and sleeps until the next due time.
 * Time is a FakeTime (the runner's clock and timers), advanced by the test: real sleeps with millisecond windows
 * failed on a loaded machine.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  CheckRunner,
  createProbeRegistry,
  type ClaimedCheck,
  type WorkSource,
} from '../../src/modules/checks/index.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { LogCapture } from '../support/app.ts';
import { FakeTime } from '../support/fake-time.ts';

let time = new FakeTime();
const advance = (ms: number) => time.advance(ms);

class CountingSource implements WorkSource {
  claims: number[] = [];
  dueReads = 0;
  next: number | null = null;
  due: number[] = [];
  async claim(): Promise<ClaimedCheck[]> {
    this.claims.push(time.now());
    // The fake timers fire on their due time: a claim then finds the check due (no early-firing slack needed).
    if (this.next !== null && time.now() >= this.next) {
      this.due.push(this.next);
      this.next = null; // claimed: the row moved on
    }
    return [];
  }
  async nextDueAt(): Promise<number | null> {
    this.dueReads += 1;
    return this.next;
  }
  async submit(): Promise<number> {
    return 0;
  }
}

describe('idle in-process runner', () => {
  let runner: CheckRunner | null = null;
  afterEach(async () => {
    await runner?.stop();
  });

  const start = (source: WorkSource) => {
    time = new FakeTime();
    runner = new CheckRunner({
      source,
      probes: createProbeRegistry(),
      clock: time.clock,
      timers: time,
      logger: createLogger({ level: 'warn', pretty: false, destination: new LogCapture() }),
      concurrency: 5,
      allowPrivateTargets: true,
      idleMs: 100,
      maxIdleMs: 400,
    });
    runner.start();
    return runner;
  };

  it('with nothing scheduled: one claim, then only a due-time read every maxIdleMs (not a claim every 100 ms)', async () => {
    const source = new CountingSource();
    start(source);
    await advance(1_300);
    expect(source.claims).toHaveLength(1);
    expect(source.dueReads).toBeGreaterThanOrEqual(3);
    expect(source.dueReads).toBeLessThanOrEqual(5);
  });

  it('a nudge claims at once; a due time 250 ms ahead is claimed then, not before', async () => {
    const source = new CountingSource();
    const r = start(source);
    await advance(50);
    const nudgedAt = time.now();
    r.nudge();
    await advance(30);
    expect(source.claims).toHaveLength(2);
    expect(source.claims[1]! - nudgedAt).toBeLessThan(30); // not the 400 ms idle wait

    const dueAt = time.now() + 250;
    source.next = dueAt;
    r.nudge(); // the schedule changed: claim (nothing yet), read the due time, sleep until it
    await advance(150);
    expect(source.claims).toHaveLength(3);
    await advance(200);
    expect(source.claims).toHaveLength(4);
    expect(source.claims[3]!).toBe(dueAt); // on its due time, not before
    expect(source.due).toEqual([dueAt]);
  });
});
