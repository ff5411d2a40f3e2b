import { describe, expect, it } from 'vitest';
import {
  applyResult,
  resetCounters,
  type MachineMonitor,
  type MonitorCheckStatus,
  type RegionCounters,
} from './monitor-state.machine.ts';

const STALE = 120_000;

function monitor(over: Partial<MachineMonitor> & { confirm?: number | null } = {}): MachineMonitor {
  const confirm = over.confirm ?? null;
  return {
    status: 'pending',
    regionCodes: ['a'],
    failureThreshold: 2,
    successThreshold: 1,
    confirmRegions: (n) => confirm ?? (n <= 1 ? 1 : Math.floor(n / 2) + 1),
    ...over,
  };
}

/** `slow`: a success over `degraded_latency_ms`. */
type Step = [region: string, status: 'up' | 'down' | 'slow', expected: MonitorCheckStatus, transition?: string];

/** Feeds results one by one (10 s apart) and checks the status and transitions after each. */
function run(m: MachineMonitor, steps: Step[], start: RegionCounters[] = []): void {
  let counters = start;
  let status = m.status;
  let at = 1_000_000;
  steps.forEach(([region, result, expected, transition], i) => {
    at += 10_000;
    const out = applyResult(
      { ...m, status },
      counters,
      {
        regionCode: region,
        status: result === 'slow' ? 'up' : result,
        at,
        cause: result === 'down' ? `HTTP 503 (expected 200)` : null,
        slow: result === 'slow',
      },
      STALE,
    );
    counters = out.regions;
    status = out.status;
    expect(status, `step ${i}`).toBe(expected);
    expect(out.transition ? `${out.transition.from}->${out.transition.to}` : undefined, `step ${i} transition`).toBe(
      transition,
    );
  });
}

describe('monitor state machine', () => {
  it.each<[string, Partial<MachineMonitor>, Step[]]>([
    ['pending → up on first success (success_threshold 1)', {}, [['a', 'up', 'up', 'pending->up']]],
    [
      'pending → down after failure_threshold failures',
      {},
      [
        ['a', 'down', 'pending'],
        ['a', 'down', 'down', 'pending->down'],
      ],
    ],
    [
      'one failure below threshold stays up',
      { status: 'up' },
      [
        ['a', 'down', 'up'],
        ['a', 'up', 'up'],
        ['a', 'down', 'up'],
      ],
    ],
    [
      'down needs failure_threshold consecutive failures, recovery needs success_threshold successes',
      { status: 'up', failureThreshold: 3, successThreshold: 2 },
      [
        ['a', 'down', 'up'],
        ['a', 'down', 'up'],
        ['a', 'down', 'down', 'up->down'],
        ['a', 'down', 'down'],
        ['a', 'up', 'down'],
        ['a', 'down', 'down'],
        ['a', 'up', 'down'],
        ['a', 'up', 'up', 'down->up'],
      ],
    ],
    [
      'flapping with threshold 1 alerts every transition',
      { status: 'up', failureThreshold: 1, successThreshold: 1 },
      [
        ['a', 'down', 'down', 'up->down'],
        ['a', 'up', 'up', 'down->up'],
        ['a', 'down', 'down', 'up->down'],
        ['a', 'up', 'up', 'down->up'],
      ],
    ],
    [
      'flapping below the threshold never goes down',
      { status: 'up', failureThreshold: 2 },
      [
        ['a', 'down', 'up'],
        ['a', 'up', 'up'],
        ['a', 'down', 'up'],
        ['a', 'up', 'up'],
        ['a', 'down', 'up'],
      ],
    ],
    [
      'quorum of 3 regions: one failing region is not down but degraded (DECISIONS §20), up once it passes again',
      { status: 'up', regionCodes: ['a', 'b', 'c'], failureThreshold: 1 },
      [
        ['a', 'up', 'up'],
        ['b', 'up', 'up'],
        ['c', 'down', 'degraded', 'up->degraded'],
        ['c', 'down', 'degraded'],
        ['a', 'up', 'degraded'],
        ['c', 'up', 'up', 'degraded->up'],
      ],
    ],
    [
      'quorum of 3 regions: a majority failing goes down, a majority passing recovers',
      { status: 'up', regionCodes: ['a', 'b', 'c'], failureThreshold: 1 },
      [
        ['a', 'up', 'up'],
        ['b', 'up', 'up'],
        ['c', 'up', 'up'],
        ['a', 'down', 'degraded', 'up->degraded'],
        ['b', 'down', 'down', 'degraded->down'],
        ['c', 'down', 'down'],
        ['a', 'up', 'down'],
        ['b', 'up', 'degraded', 'down->degraded'],
        ['c', 'up', 'up', 'degraded->up'],
      ],
    ],
    [
      'slow checks: failure_threshold consecutive slow ones degrade, success_threshold fast ones recover',
      { status: 'up', failureThreshold: 2, successThreshold: 2 },
      [
        ['a', 'slow', 'up'],
        ['a', 'up', 'up'],
        ['a', 'slow', 'up'],
        ['a', 'slow', 'degraded', 'up->degraded'],
        ['a', 'slow', 'degraded'],
        ['a', 'up', 'degraded'],
        ['a', 'slow', 'degraded'],
        ['a', 'up', 'degraded'],
        ['a', 'up', 'up', 'degraded->up'],
      ],
    ],
    [
      'down wins over degraded; recovering slowly is degraded, not up',
      { status: 'up', failureThreshold: 2, successThreshold: 1 },
      [
        ['a', 'slow', 'up'],
        ['a', 'slow', 'degraded', 'up->degraded'],
        ['a', 'down', 'degraded'],
        ['a', 'down', 'down', 'degraded->down'],
        ['a', 'slow', 'degraded', 'down->degraded'],
        ['a', 'up', 'up', 'degraded->up'],
        ['a', 'down', 'up'],
        ['a', 'down', 'down', 'up->down'],
        ['a', 'up', 'up', 'down->up'],
      ],
    ],
    [
      'a slow check and a failure in a row count together (both impaired), but not towards down',
      { status: 'up', failureThreshold: 2 },
      [
        ['a', 'down', 'up'],
        ['a', 'slow', 'degraded', 'up->degraded'],
        ['a', 'up', 'up', 'degraded->up'],
      ],
    ],
    [
      'pending: slow first checks are degraded once recovered by the usual rule',
      { status: 'pending', failureThreshold: 1, successThreshold: 1 },
      [['a', 'slow', 'degraded', 'pending->degraded']],
    ],
    [
      'several regions: one slow region degrades the monitor',
      { status: 'up', regionCodes: ['a', 'b'], failureThreshold: 1 },
      [
        ['a', 'up', 'up'],
        ['b', 'slow', 'degraded', 'up->degraded'],
        ['a', 'up', 'degraded'],
        ['b', 'up', 'up', 'degraded->up'],
      ],
    ],
    [
      'confirm_regions 1 of 3: any region failing goes down',
      { status: 'up', regionCodes: ['a', 'b', 'c'], failureThreshold: 1, confirmRegions: () => 1 },
      [
        ['a', 'up', 'up'],
        ['b', 'up', 'up'],
        ['c', 'down', 'down', 'up->down'],
        ['c', 'up', 'up', 'down->up'],
      ],
    ],
    [
      'paused ignores results',
      { status: 'paused' },
      [
        ['a', 'down', 'paused'],
        ['a', 'down', 'paused'],
        ['a', 'up', 'paused'],
      ],
    ],
    [
      'a result from a region the monitor no longer uses is ignored',
      { status: 'up' },
      [
        ['z', 'down', 'up'],
        ['z', 'down', 'up'],
      ],
    ],
  ])('%s', (_name, m, steps) => run(monitor(m), steps));

  it('a region without data (no live runner) is left out of the quorum instead of counting as down', () => {
    const m = monitor({ status: 'up', regionCodes: ['a', 'b', 'c'], failureThreshold: 1 });
    // Only region a reports: with one region of data, one failure confirms down.
    const out = applyResult(
      m,
      [],
      { regionCode: 'a', status: 'down', at: 1000, cause: 'timeout after 10000 ms' },
      STALE,
    );
    expect(out.transition).toMatchObject({
      from: 'up',
      to: 'down',
      cause: 'timeout after 10000 ms (failing in 1 of 1 regions: a)',
    });
    // b stopped reporting long ago (stale): quorum counts a and c only.
    const start: RegionCounters[] = [
      { regionCode: 'b', successes: 5, failures: 0, lastAt: 0, lastStatus: 'up', lastCause: null },
      { regionCode: 'c', successes: 0, failures: 1, lastAt: 500_000, lastStatus: 'down', lastCause: 'x' },
    ];
    const out2 = applyResult(m, start, { regionCode: 'a', status: 'down', at: 510_000, cause: 'y' }, STALE);
    expect(out2.transition?.to).toBe('down');
  });

  it('records the cause of the failing result and none on recovery', () => {
    const m = monitor({ status: 'up', failureThreshold: 1 });
    const down = applyResult(
      m,
      [],
      { regionCode: 'a', status: 'down', at: 1, cause: 'HTTP 503 (expected 200)' },
      STALE,
    );
    expect(down.transition).toEqual({ from: 'up', to: 'down', at: 1, cause: 'HTTP 503 (expected 200)', downSince: 1 });
    const up = applyResult(
      { ...m, status: 'down' },
      down.regions,
      { regionCode: 'a', status: 'up', at: 2, cause: null },
      STALE,
    );
    expect(up.transition).toEqual({ from: 'down', to: 'up', at: 2, cause: null });
  });

  it('a late result older than the last one does not rewind the counters', () => {
    const m = monitor({ status: 'up', failureThreshold: 1 });
    const start: RegionCounters[] = [
      { regionCode: 'a', successes: 3, failures: 0, lastAt: 100, lastStatus: 'up', lastCause: null },
    ];
    const out = applyResult(m, start, { regionCode: 'a', status: 'down', at: 50, cause: 'late' }, STALE);
    expect(out.transition).toBeNull();
    expect(out.updated).toBeNull();
  });

  it('pause during an incident: counters reset, then resume starts from pending and a still-failing target goes down again once', () => {
    const m = monitor({ status: 'down', failureThreshold: 2 });
    // Paused: results ignored.
    const paused = applyResult(
      { ...m, status: 'paused' },
      [],
      { regionCode: 'a', status: 'down', at: 1, cause: 'x' },
      STALE,
    );
    expect(paused.transition).toBeNull();
    // Resumed: pending with fresh counters; needs failure_threshold failures again.
    const fresh = resetCounters(['a']);
    const r1 = applyResult(
      { ...m, status: 'pending' },
      fresh,
      { regionCode: 'a', status: 'down', at: 2, cause: 'x' },
      STALE,
    );
    expect(r1.transition).toBeNull();
    const r2 = applyResult(
      { ...m, status: 'pending' },
      r1.regions,
      { regionCode: 'a', status: 'down', at: 3, cause: 'x' },
      STALE,
    );
    expect(r2.transition).toMatchObject({ from: 'pending', to: 'down' });
  });

  it('delete during an incident: a result for a region no longer listed changes nothing', () => {
    const m = monitor({ status: 'down', regionCodes: [] });
    const out = applyResult(m, [], { regionCode: 'a', status: 'up', at: 1, cause: null }, STALE);
    expect(out).toMatchObject({ transition: null, updated: null, status: 'down' });
  });

  it('a down verdict is dated back to the first failure of the run (one region: failure_threshold 3 → the first of the 3)', () => {
    const m = monitor({ status: 'up', failureThreshold: 3 });
    let counters: RegionCounters[] = [];
    const feed = (status: 'up' | 'down', at: number) => {
      const out = applyResult(m, counters, { regionCode: 'a', status, at, cause: 'x' }, STALE);
      counters = out.regions;
      return out;
    };
    feed('down', 1_000); // a failure that never reached the threshold: not part of the run below
    feed('up', 2_000);
    feed('down', 3_000);
    feed('down', 4_000);
    expect(feed('down', 5_000).transition).toMatchObject({ to: 'down', at: 5_000, downSince: 3_000 });
  });

  it('several regions: the monitor-level failure begins when `confirm` regions are failing (the confirm-th earliest start)', () => {
    const m = monitor({ status: 'up', regionCodes: ['a', 'b', 'c'], failureThreshold: 2, confirm: 2 });
    let counters: RegionCounters[] = [];
    const feed = (regionCode: string, status: 'up' | 'down', at: number) => {
      const out = applyResult(m, counters, { regionCode, status, at, cause: 'x' }, STALE);
      counters = out.regions;
      return out;
    };
    feed('c', 'up', 900);
    feed('a', 'down', 1_000); // a fails from 1 000
    feed('b', 'down', 1_500); // b fails from 1 500: two regions failing from 1 500
    feed('a', 'down', 2_000);
    expect(feed('b', 'down', 2_500).transition).toMatchObject({ to: 'down', at: 2_500, downSince: 1_500 });
  });

  it('the cause of a degraded verdict names the latency, or the regions that fail', () => {
    const slow = monitor({ status: 'up', failureThreshold: 1, degradedLatencyMs: 800 });
    const out = applyResult(slow, [], { regionCode: 'a', status: 'up', at: 1, cause: null, slow: true }, STALE);
    expect(out.transition).toEqual({ from: 'up', to: 'degraded', at: 1, cause: 'checks slower than 800 ms' });
    const m = monitor({ status: 'up', regionCodes: ['a', 'b', 'c'], failureThreshold: 1 });
    const start: RegionCounters[] = [
      { regionCode: 'a', successes: 3, failures: 0, lastAt: 1, lastStatus: 'up', lastCause: null },
      { regionCode: 'b', successes: 3, failures: 0, lastAt: 1, lastStatus: 'up', lastCause: null },
    ];
    const partial = applyResult(m, start, { regionCode: 'c', status: 'down', at: 2, cause: 'HTTP 502' }, STALE);
    expect(partial.transition).toEqual({
      from: 'up',
      to: 'degraded',
      at: 2,
      cause: 'HTTP 502 (failing in 1 of 3 regions: c)',
    });
    expect(partial.updated).toMatchObject({ impaired: 1, fast: 0, failures: 1 });
  });
});
