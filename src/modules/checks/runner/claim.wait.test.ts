import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../platform/clock.ts';
import { ManualTimers } from '../../../platform/timers.ts';
import type { ClaimedCheck } from '../engine/check.types.ts';
import { ClaimWait } from './claim.wait.ts';

const T0 = Date.parse('2026-05-01T00:00:00.000Z');

/** A schedule of one region held in memory: `due` lists what the next claim takes; `nextDueAt` what it answers. */
function setup(options: { nextDueAt?: number | null; safetyPollMs?: number } = {}) {
  const clock = new ManualClock(T0);
  const timers = new ManualTimers();
  const listeners: Array<() => void> = [];
  const state = {
    due: [] as ClaimedCheck[],
    nextDueAt: options.nextDueAt ?? null,
    claims: 0,
    /** Runs inside the next claim after it has read, before it answers (a change committed meanwhile). */
    duringClaim: null as (() => void) | null,
  };
  const engine = {
    async claim(_owner: string, _regions: readonly string[], limit: number) {
      state.claims += 1;
      const taken = state.due.splice(0, limit);
      const during = state.duringClaim;
      state.duringClaim = null;
      during?.();
      return taken;
    },
    async nextDueAt() {
      return state.nextDueAt;
    },
  };
  const wait = new ClaimWait({
    engine,
    clock,
    timers,
    onScheduleChanged: (listener) => listeners.push(listener),
    safetyPollMs: () => options.safetyPollMs ?? 30_000,
  });
  const scheduleChanged = () => listeners.forEach((l) => l());
  return { clock, timers, state, wait, scheduleChanged };
}

const check = (monitorId: string) => ({ monitorId }) as ClaimedCheck;

/** Lets the awaited claims and reads of the wait settle (no time passes: the timers are manual). */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

/** Observes a pending claim without awaiting it. */
function track(promise: Promise<ClaimedCheck[]>) {
  const seen: { result: ClaimedCheck[] | null } = { result: null };
  void promise.then((r) => (seen.result = r));
  return seen;
}

describe('ClaimWait (the remote runners’ long-poll)', () => {
  it('answers at once with what is due, leaving no timer behind', async () => {
    const { wait, state, timers } = setup();
    state.due = [check('mon_1'), check('mon_2')];
    expect(await wait.claim('run_1', ['far'], 10, 25_000)).toEqual([check('mon_1'), check('mon_2')]);
    expect(state.claims).toBe(1);
    expect(timers.size).toBe(0);
  });

  it('waits on a schedule change instead of claiming again: the change wakes it and the claim answers', async () => {
    const { wait, state, timers, scheduleChanged } = setup();
    const pending = track(wait.claim('run_1', ['far'], 10, 25_000));
    await settle();
    expect(state.claims).toBe(1);
    expect(pending.result).toBeNull();
    // An idle wait reads nothing: 20 s pass (manual timers) without a second claim.
    timers.advance(20_000);
    await settle();
    expect(state.claims).toBe(1);
    state.due = [check('mon_3')];
    scheduleChanged();
    await settle();
    expect(state.claims).toBe(2);
    expect(pending.result).toEqual([check('mon_3')]);
    expect(timers.size).toBe(0);
  });

  it('wakes when the next check falls due (by the injected clock), not before', async () => {
    const { wait, state, timers, clock } = setup({ nextDueAt: T0 + 3_000 });
    const pending = track(wait.claim('run_1', ['far'], 10, 25_000));
    await settle();
    timers.advance(2_999);
    await settle();
    expect(state.claims).toBe(1);
    clock.advance(3_000);
    state.due = [check('mon_4')];
    timers.advance(1);
    await settle();
    expect(state.claims).toBe(2);
    expect(pending.result).toEqual([check('mon_4')]);
  });

  it('ends at the wait time with one last claim, and answers nothing when nothing came due', async () => {
    const { wait, state, timers } = setup({ safetyPollMs: 10_000 });
    const pending = track(wait.claim('run_1', ['far'], 10, 25_000));
    await settle();
    timers.advance(10_000); // the safety poll
    await settle();
    expect(state.claims).toBe(2);
    timers.advance(10_000);
    await settle();
    expect(state.claims).toBe(3);
    expect(pending.result).toBeNull();
    timers.advance(5_000); // the deadline
    await settle();
    expect(state.claims).toBe(4);
    expect(pending.result).toEqual([]);
    expect(timers.size).toBe(0);
  });

  it('does not lose a change committed while its claim was reading: it looks again at once', async () => {
    const { wait, state, timers, scheduleChanged } = setup();
    state.duringClaim = () => {
      state.due = [check('mon_5')];
      scheduleChanged();
    };
    const pending = track(wait.claim('run_1', ['far'], 10, 25_000));
    await settle();
    expect(state.claims).toBe(2);
    expect(pending.result).toEqual([check('mon_5')]);
    expect(timers.size).toBe(0);
  });

  it('waits at least the shortest wait when the next due time has passed (a check due but leased elsewhere)', async () => {
    const { wait, state, timers } = setup({ nextDueAt: T0 - 5_000 });
    const pending = track(wait.claim('run_1', ['far'], 10, 25_000));
    await settle();
    expect(state.claims).toBe(1);
    timers.advance(99);
    await settle();
    expect(state.claims).toBe(1);
    timers.advance(1);
    await settle();
    expect(state.claims).toBe(2);
    expect(pending.result).toBeNull();
  });

  it('answers nothing at once when the runner is gone, and claims nothing more', async () => {
    const { wait, state, timers } = setup();
    const gone = new AbortController();
    const pending = track(wait.claim('run_1', ['far'], 10, 25_000, gone.signal));
    await settle();
    state.due = [check('mon_6')];
    gone.abort();
    await settle();
    expect(pending.result).toEqual([]);
    expect(state.claims).toBe(1);
    expect(state.due).toHaveLength(1);
    expect(timers.size).toBe(0);
  });

  it('with no wait claims once', async () => {
    const { wait, state, timers } = setup();
    expect(await wait.claim('run_1', ['far'], 10, 0)).toEqual([]);
    expect(state.claims).toBe(1);
    expect(timers.size).toBe(0);
  });
});
