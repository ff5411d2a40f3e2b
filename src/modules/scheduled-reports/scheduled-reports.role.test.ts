/**
 * The scheduled reports' loop on fake timers: it waits until the next round's due time (at least 250 ms), 5 s after a
 * failed round, and a wake runs a round at once. The rounds themselves are stubbed here (their work is tested in
 * test/scheduled-reports against both databases).
 */
import { describe, expect, it, vi } from 'vitest';
import { FakeTime } from '../../../test/support/fake-time.ts';
import type { Logger } from '../../platform/logger.ts';
import { ScheduledReportsRole, type ScheduledReportsRoleDeps } from './scheduled-reports.role.ts';

function roleOn(time: FakeTime) {
  const errors: string[] = [];
  const logger = { error: (_: unknown, message: string) => errors.push(message) } as unknown as Logger; // test stand-in: only error() is called
  // The round is stubbed below: the database, runner and files are never reached.
  const unused = {} as never;
  const deps: ScheduledReportsRoleDeps = {
    database: unused,
    runner: unused,
    files: unused,
    clock: time.clock,
    logger,
    timers: time,
  };
  const role = new ScheduledReportsRole(deps);
  const next: Array<() => Promise<number>> = [];
  const round = vi.spyOn(role, 'round').mockImplementation(() => {
    const answer = next.shift();
    return answer ? answer() : Promise.resolve(time.now() + 60_000);
  });
  return { role, round, next, errors };
}

describe('scheduled reports loop', () => {
  it('sleeps until the next due time, at least 250 ms, and 5 s after a failed round', async () => {
    const time = new FakeTime();
    const { role, round, next, errors } = roleOn(time);
    next.push(async () => time.now() + 10_000);
    await role.start();
    await time.advance(0);
    expect(round).toHaveBeenCalledTimes(1);
    expect(time.nextIn()).toBe(10_000);

    next.push(async () => time.now() - 1_000); // a lease already expired: still 250 ms, no spinning
    await time.advance(10_000);
    expect(round).toHaveBeenCalledTimes(2);
    expect(time.nextIn()).toBe(250);

    next.push(async () => {
      throw new Error('database gone');
    });
    await time.advance(250);
    expect(round).toHaveBeenCalledTimes(3);
    expect(errors).toEqual(['scheduled reports: round failed']);
    expect(time.nextIn()).toBe(5_000);
    await time.advance(4_999);
    expect(round).toHaveBeenCalledTimes(3);
    await time.advance(1);
    expect(round).toHaveBeenCalledTimes(4);
    await role.stop();
  });

  it('a wake runs a round at once; a wake during a round runs another right after it', async () => {
    const time = new FakeTime();
    const { role, round, next } = roleOn(time);
    await role.start();
    await time.advance(0);
    expect(round).toHaveBeenCalledTimes(1);
    role.wake(); // a schedule changed in this process
    await time.advance(0);
    expect(round).toHaveBeenCalledTimes(2);

    let finish: () => void = () => {};
    next.push(() => new Promise<number>((resolve) => (finish = () => resolve(time.now() + 60_000))));
    role.wake();
    await time.advance(0);
    expect(round).toHaveBeenCalledTimes(3); // in flight
    role.wake(); // a run was asked for while the round ran: it may have read before the request was there
    finish();
    await time.advance(0);
    expect(round).toHaveBeenCalledTimes(4);
    expect(time.nextIn()).toBe(60_000);
    await role.stop();
  });

  it('stop waits for the round in flight and runs no more', async () => {
    const time = new FakeTime();
    const { role, round, next } = roleOn(time);
    let finish: () => void = () => {};
    next.push(() => new Promise<number>((resolve) => (finish = () => resolve(time.now() + 1_000))));
    await role.start();
    let stopped = false;
    const stopping = role.stop().then(() => (stopped = true));
    await time.advance(5_000);
    expect(stopped).toBe(false);
    finish();
    await stopping;
    await time.advance(5_000);
    expect(round).toHaveBeenCalledTimes(1);
    expect(time.size).toBe(0);
  });
});
