/**
 * Issue 31 (alert latency): a result that may change its monitor's verdict (the first failures, the first successes
 * after them) is sent within urgentFlushMs, while steady results keep waiting for the batch timer (flushMs).
 * Time is a FakeTime (the runner's clock and timers): the batches' send times are exact.
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

interface Batch {
  at: number;
  results: Array<{ monitorId: string; status: string }>;
}

/** Hands out the checks the test queues; records every batch sent (and can hold a send until released). */
class ScriptedSource implements WorkSource {
  queue: ClaimedCheck[] = [];
  batches: Batch[] = [];
  hold: Promise<void> | null = null;
  async claim(max: number): Promise<ClaimedCheck[]> {
    return this.queue.splice(0, max);
  }
  async submit(results: CheckResult[]): Promise<number> {
    this.batches.push({
      at: time.now(),
      results: results.map((r) => ({ monitorId: r.monitorId, status: r.observation.status })),
    });
    if (this.hold) await this.hold;
    return 0;
  }
}

/** What each monitor's next check observes. */
const outcome = new Map<string, { status: 'up' | 'down'; durationMs: number }>();
const probes = {
  run: async (target: { id: string }, ctx: { now(): number }): Promise<Observation> => {
    const o = outcome.get(target.id) ?? { status: 'up', durationMs: 10 };
    return {
      status: o.status,
      started_at: ctx.now(),
      duration_ms: o.durationMs,
      timings: { dns_ms: null, connect_ms: null, tls_ms: null, ttfb_ms: null, download_ms: null, total_ms: 10 },
      http_status: o.status === 'up' ? 200 : 503,
      assertions: [],
      error: o.status === 'up' ? null : { code: 'http_status', message: 'HTTP 503' },
    };
  },
};

function check(monitorId: string, config: Record<string, unknown>): ClaimedCheck {
  return {
    monitorId,
    organizationId: 'org_1',
    regionCode: 'eu',
    dueAt: time.now(),
    target: { id: monitorId, type: 'http', target: 'https://example.test', interval_seconds: 30, config },
    createdAt: 0,
    lastHeartbeatAt: null,
  };
}

describe('urgent flush of verdict-changing results', () => {
  let runner: CheckRunner | null = null;
  let source = new ScriptedSource();
  afterEach(async () => {
    source.hold = null;
    await runner?.stop();
    runner = null;
  });

  const start = () => {
    time = new FakeTime();
    source = new ScriptedSource();
    outcome.clear();
    runner = new CheckRunner({
      source,
      probes,
      clock: time.clock,
      timers: time,
      logger: createLogger({ level: 'warn', pretty: false, destination: new LogCapture() }),
      concurrency: 50,
      allowPrivateTargets: true,
      idleMs: 1_000,
      flushMs: 250,
      urgentFlushMs: 5,
    });
    runner.start();
    return runner;
  };

  /** Runs one check per monitor now (claimed at once), each observing `status`; answers when that was. */
  const run = async (
    monitors: string[],
    status: 'up' | 'down',
    config: Record<string, unknown> = { failure_threshold: 2, success_threshold: 1 },
    durationMs = 10,
  ): Promise<number> => {
    for (const id of monitors) {
      outcome.set(id, { status, durationMs });
      source.queue.push(check(id, config));
    }
    runner!.nudge();
    const at = time.now();
    await time.advance(0);
    return at;
  };

  /** Runs the check and answers how long after it its result was sent (null: not within 1 s). */
  const sentAfter = async (
    monitorId: string,
    status: 'up' | 'down',
    config?: Record<string, unknown>,
    durationMs?: number,
  ): Promise<number | null> => {
    const before = source.batches.length;
    const at = await run([monitorId], status, config, durationMs);
    for (let waited = 0; waited < 1_000; waited++) {
      const sent = source.batches.slice(before).find((b) => b.results.some((r) => r.monitorId === monitorId));
      if (sent) return sent.at - at;
      await time.advance(1);
    }
    return null;
  };

  it('a first failure is sent within urgentFlushMs; steady successes wait for flushMs', async () => {
    start();
    expect(await sentAfter('mon_a', 'up')).toBe(250);
    expect(await sentAfter('mon_a', 'up')).toBe(250);
    expect(await sentAfter('mon_a', 'down')).toBe(5);
  });

  it('steady failures wait; the recovery after them is sent urgently; the next success waits again', async () => {
    start();
    expect(await sentAfter('mon_a', 'down')).toBe(5);
    expect(await sentAfter('mon_a', 'down')).toBe(5); // the failure_threshold-th: opens the incident
    expect(await sentAfter('mon_a', 'down')).toBe(250); // already down
    expect(await sentAfter('mon_a', 'down')).toBe(250);
    expect(await sentAfter('mon_a', 'up')).toBe(5); // resolves
    expect(await sentAfter('mon_a', 'up')).toBe(250);
  });

  it("respects the monitor's failure_threshold and success_threshold (from the claimed check's config)", async () => {
    start();
    const config = { failure_threshold: 3, success_threshold: 2 };
    const delays: Array<number | null> = [];
    for (const s of ['down', 'down', 'down', 'down', 'up', 'up', 'up'] as const) {
      delays.push(await sentAfter('mon_a', s, config));
    }
    expect(delays).toEqual([5, 5, 5, 250, 5, 5, 250]);
    // Without thresholds in the config: the engine's defaults (2 and 1).
    const defaults: Array<number | null> = [];
    for (const s of ['down', 'down', 'down', 'up', 'up'] as const) defaults.push(await sentAfter('mon_b', s, {}));
    expect(defaults).toEqual([5, 5, 250, 5, 250]);
  });

  it('slow results (degraded_latency_ms) count toward degraded: the first ones and the fast one after are urgent', async () => {
    start();
    const config = { failure_threshold: 2, success_threshold: 1, degraded_latency_ms: 500 };
    const delays: Array<number | null> = [];
    for (const ms of [100, 900, 900, 900, 100, 100]) delays.push(await sentAfter('mon_a', 'up', config, ms));
    expect(delays).toEqual([250, 5, 5, 250, 5, 250]);
  });

  it('urgent results finishing together go in one batch, with the steady results buffered before them', async () => {
    start();
    await run(['mon_steady'], 'up');
    await time.advance(100);
    expect(source.batches).toEqual([]);
    const at = await run(['mon_a', 'mon_b', 'mon_c'], 'down');
    await time.advance(10);
    expect(source.batches).toHaveLength(1);
    expect(source.batches[0]!.at - at).toBe(5);
    expect(source.batches[0]!.results.map((r) => r.monitorId)).toEqual(['mon_steady', 'mon_a', 'mon_b', 'mon_c']);
    // Nothing else is pending: the steady result's 250 ms timer was replaced, not left to send an empty batch.
    await time.advance(500);
    expect(source.batches).toHaveLength(1);
  });

  it('during a slow send, urgent results queue as one batch behind it, in order', async () => {
    const r = start();
    let release: () => void = () => {};
    source.hold = new Promise<void>((resolve) => (release = resolve));
    await run(['mon_a'], 'down');
    await time.advance(5);
    expect(source.batches).toHaveLength(1); // being sent, held
    for (const id of ['mon_b', 'mon_c', 'mon_d']) {
      await run([id], 'down');
      await time.advance(5);
    }
    expect(source.batches).toHaveLength(1);
    expect(r.pending).toBe(4); // no slot freed before its batch was handed over
    source.hold = null;
    release();
    await time.advance(1);
    expect(source.batches.map((b) => b.results.map((x) => x.monitorId))).toEqual([
      ['mon_a'],
      ['mon_b', 'mon_c', 'mon_d'],
    ]);
    expect(r.pending).toBe(0);
  });
});
