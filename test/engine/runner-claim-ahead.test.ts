/**
 * Issue 36 item 9: the in-process runner claims `lookaheadMs` ahead and starts the checks claimed early on a grid of
 * `startGridMs` (the first grid instant at or after each due time, one timer per instant), so at an even 50 checks/s it
 * claims about twice a second instead of ten times, and no check starts before its slot nor later than one grid step
 * after it. Time is a FakeTime (the runner's clock and timers): the start times are exact.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  CheckRunner,
  type CheckResult,
  type ClaimedCheck,
  type Observation,
  type WorkSource,
} from '../../src/modules/checks/index.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { LogCapture } from '../support/app.ts';
import { FakeTime } from '../support/fake-time.ts';

let time = new FakeTime();

/** A schedule of due times: a claim takes those due by now + lookahead (as the repository does). */
class ScheduleSource implements WorkSource {
  due: number[] = [];
  claims: Array<{ at: number; lookaheadMs: number; taken: number }> = [];
  submitted = 0;
  async claim(max: number, _waitMs: number, lookaheadMs = 0): Promise<ClaimedCheck[]> {
    const horizon = time.now() + lookaheadMs;
    const taken = this.due.filter((d) => d <= horizon).slice(0, max);
    this.due = this.due.filter((d) => !taken.includes(d));
    this.claims.push({ at: time.now(), lookaheadMs, taken: taken.length });
    return taken.map((dueAt) => ({
      monitorId: `mon_${dueAt}`,
      organizationId: 'org_1',
      regionCode: 'eu',
      dueAt,
      target: { id: `mon_${dueAt}`, type: 'http', target: 'https://example.test', interval_seconds: 20, config: {} },
      createdAt: 0,
      lastHeartbeatAt: null,
    }));
  }
  async nextDueAt(): Promise<number | null> {
    return this.due.length > 0 ? Math.min(...this.due) : null;
  }
  async submit(results: CheckResult[]): Promise<number> {
    this.submitted += results.length;
    return 0;
  }
}

/** When each check started, by its due time. */
const startedAt = new Map<number, number>();
const probes = {
  run: async (target: { id: string }, ctx: { now(): number }): Promise<Observation> => {
    startedAt.set(Number(target.id.slice(4)), ctx.now());
    return {
      status: 'up',
      started_at: ctx.now(),
      duration_ms: 5,
      timings: { dns_ms: null, connect_ms: null, tls_ms: null, ttfb_ms: null, download_ms: null, total_ms: 5 },
      http_status: 200,
      assertions: [],
      error: null,
    };
  },
};

describe('claiming ahead, starting on a grid', () => {
  let runner: CheckRunner | null = null;
  afterEach(async () => {
    await runner?.stop();
    runner = null;
  });

  it('50 checks a second, evenly: about 2.5 claims a second, every check started in [due, due + grid), never before', async () => {
    time = new FakeTime();
    startedAt.clear();
    const source = new ScheduleSource();
    const t0 = time.now();
    // 50 checks a second over 4 s, 20 ms apart, not on the grid (7 ms off).
    source.due = Array.from({ length: 200 }, (_, i) => t0 + 7 + 20 * i);
    const timersBefore: number[] = [];
    runner = new CheckRunner({
      source,
      probes,
      clock: time.clock,
      timers: time,
      logger: createLogger({ level: 'warn', pretty: false, destination: new LogCapture() }),
      concurrency: 200,
      allowPrivateTargets: true,
      idleMs: 100,
      maxIdleMs: 1_000,
      lookaheadMs: 500,
      startGridMs: 100,
    });
    runner.start();
    for (let ms = 0; ms < 4_500; ms += 50) {
      await time.advance(50);
      timersBefore.push(time.size);
    }
    await runner.stop();
    runner = null;

    expect(startedAt.size).toBe(200);
    for (const [due, at] of startedAt) {
      expect(at).toBeGreaterThanOrEqual(due);
      expect(at - due).toBeLessThan(100);
      expect(at % 100).toBe(0); // on the grid
    }
    // Claims every lookahead − idle (400 ms) while checks are due, each taking the next 400–500 ms of them.
    const busy = source.claims.filter((c) => c.taken > 0);
    expect(busy.length).toBeGreaterThanOrEqual(8);
    expect(busy.length).toBeLessThanOrEqual(12);
    for (const c of busy) expect(c.lookaheadMs).toBe(500);
    // One start timer per grid instant (at most 5 pending for a 500 ms horizon, plus the loop's and the flush's).
    expect(Math.max(...timersBefore)).toBeLessThanOrEqual(8);
    expect(source.submitted).toBe(200);
  });

  it('without lookahead (the default) a check claimed due starts at once, as before', async () => {
    time = new FakeTime();
    startedAt.clear();
    const source = new ScheduleSource();
    source.due = [time.now()];
    runner = new CheckRunner({
      source,
      probes,
      clock: time.clock,
      timers: time,
      logger: createLogger({ level: 'warn', pretty: false, destination: new LogCapture() }),
      concurrency: 10,
      allowPrivateTargets: true,
    });
    const at = time.now();
    runner.start();
    await time.advance(0);
    expect(startedAt.get(at)).toBe(at);
    expect(source.claims[0]!.lookaheadMs).toBe(0);
  });
});
