import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../../../../test/support/databases.ts';
import { firstDueAt, nextSlotAfter, phaseOf } from './schedule.jitter.ts';
import { PrecompiledQueries } from '../../../platform/db/index.ts';
import { LEASE_MARGIN_MS, ScheduleRepository, type ScheduleEntry } from './schedule.repository.ts';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const INTERVAL = 30_000;

function entry(id: string, region = 'local', due = T0): ScheduleEntry {
  return {
    monitorId: id,
    regionCode: region,
    organizationId: 'org_x',
    intervalMs: INTERVAL,
    firstDueAt: due,
    monitorVersion: 1,
    timeoutMs: 10_000,
  };
}

describe('jitter', () => {
  it('spreads 10,000 monitors over the interval (no second holds more than 3x its share)', () => {
    const perSecond = new Array<number>(30).fill(0);
    for (let i = 0; i < 10_000; i++)
      perSecond[Math.floor(phaseOf(`mon_${i.toString(36).padStart(26, '0')}`, INTERVAL) / 1000)]! += 1;
    expect(Math.max(...perSecond)).toBeLessThan((10_000 / 30) * 1.5);
    expect(Math.min(...perSecond)).toBeGreaterThan((10_000 / 30) * 0.5);
  });

  it('slots are phase-aligned, strictly after now, and deterministic', () => {
    const phase = phaseOf('mon_a', INTERVAL);
    expect(phaseOf('mon_a', INTERVAL)).toBe(phase);
    for (const now of [T0, T0 + 1, T0 + 29_999, T0 + 123_456_789]) {
      const next = nextSlotAfter(now, phase, INTERVAL);
      expect(next).toBeGreaterThan(now);
      expect(next - now).toBeLessThanOrEqual(INTERVAL);
      expect((next - phase) % INTERVAL).toBe(0);
    }
    expect(firstDueAt(T0, phase, INTERVAL) - T0).toBeLessThan(5_000);
  });
});

describe.each(testDialects())('check_schedule on %s', (dialect) => {
  let db: TestDatabase;
  // A database per case: claims take every due row of a region, so rows left by another case would be claimed too.
  beforeEach(async () => {
    db = await createTestDatabase(dialect);
  });
  afterEach(async () => {
    await db.drop();
  });

  it('claims due rows once, leases them, and moves them to the next slot (no replay after downtime)', async () => {
    const repo = new ScheduleRepository(db.database);
    await repo.upsert([entry('mon_claim1'), entry('mon_claim2', 'local', T0 + 60_000), entry('mon_claim3', 'eu')]);
    const now = T0 + 10 * 60_000; // ten minutes late: twenty missed slots
    const first = await repo.claim('p1', ['local'], now, 30_000, 10);
    expect(first.map((c) => c.monitorId).sort()).toEqual(['mon_claim1', 'mon_claim2']);
    for (const c of first) {
      expect(c.dueAt).toBeLessThanOrEqual(now);
      expect(now - c.dueAt).toBeLessThan(INTERVAL);
      const row = (await repo.get(c.monitorId, 'local'))!;
      expect(row.next_due_at).toBe(nextSlotAfter(now, row.phase_ms, INTERVAL));
      expect(row.lease_owner).toBe('p1');
    }
    // Nothing more is due now: the missed slots are not replayed.
    expect(await repo.claim('p2', ['local'], now, 30_000, 10)).toEqual([]);
    // Region filter.
    expect((await repo.claim('p2', ['eu'], now, 30_000, 10)).map((c) => c.monitorId)).toEqual(['mon_claim3']);
  });

  it("a leased row is not claimed again until its lease ends or is released; a dead owner's lease expires", async () => {
    const repo = new ScheduleRepository(db.database);
    await repo.upsert([entry('mon_lease')]);
    const c1 = await repo.claim('dead', ['local'], T0, 45_000, 10);
    expect(c1.map((c) => c.monitorId)).toContain('mon_lease');
    // The next slot is due, but the lease (45 s) still holds.
    expect((await repo.claim('alive', ['local'], T0 + 40_000, 45_000, 10)).map((c) => c.monitorId)).not.toContain(
      'mon_lease',
    );
    // Lease expired: the other process takes over.
    const c2 = await repo.claim('alive', ['local'], T0 + 46_000, 45_000, 10);
    expect(c2.map((c) => c.monitorId)).toContain('mon_lease');
    // The dead owner cannot release what it lost.
    await repo.release('dead', [{ monitorId: 'mon_lease', regionCode: 'local' }]);
    expect((await repo.get('mon_lease', 'local'))!.lease_owner).toBe('alive');
    await repo.release('alive', [{ monitorId: 'mon_lease', regionCode: 'local' }]);
    expect((await repo.get('mon_lease', 'local'))!.lease_owner).toBeNull();
  });

  it('a row is leased for its check timeout and a margin when that is longer than the lease, and its save keeps it', async () => {
    const repo = new ScheduleRepository(db.database);
    // Interval 30 s, timeout 45 s: longer than the 20 s lease below, and longer than an interval.
    await repo.upsert([entry('mon_quick'), { ...entry('mon_slow'), timeoutMs: 45_000 }]);
    const claimed = await repo.claim('p1', ['local'], T0, 20_000, 10);
    expect(claimed.map((c) => c.monitorId).sort()).toEqual(['mon_quick', 'mon_slow']);
    expect((await repo.get('mon_quick', 'local'))!.lease_until).toBe(T0 + 20_000);
    expect((await repo.get('mon_slow', 'local'))!.lease_until).toBe(T0 + 45_000 + LEASE_MARGIN_MS);
    // Both next slots are due at T0 + 30 s and no result came: the quick row's lease has ended, the slow one's holds.
    const at = T0 + 30_000 + 1;
    expect((await repo.claim('p2', ['local'], at, 20_000, 10)).map((c) => c.monitorId)).toEqual(['mon_quick']);
    expect((await repo.liveLeases('p1', [{ monitorId: 'mon_slow', regionCode: 'local' }], at)).size).toBe(1);
    // A save with a shorter timeout: the next claim leases the configured time again.
    await repo.upsert([{ ...entry('mon_slow'), timeoutMs: 5_000, monitorVersion: 2 }]);
    expect((await repo.get('mon_slow', 'local'))!.timeout_ms).toBe(5_000);
    await repo.release('p1', [{ monitorId: 'mon_slow', regionCode: 'local' }]);
    expect((await repo.claim('p2', ['local'], at, 20_000, 10)).map((c) => c.monitorId)).toEqual(['mon_slow']);
    expect((await repo.get('mon_slow', 'local'))!.lease_until).toBe(at + 20_000);
  });

  it("a release frees the rows of every region it names that the owner holds, and no other owner's", async () => {
    // One compiled statement shared by both owners: the owner is bound on each run, not kept from the first.
    const queries = new PrecompiledQueries();
    const repo = new ScheduleRepository(db.database, queries);
    await repo.upsert([entry('mon_r1', 'eu'), entry('mon_r1', 'us'), entry('mon_r2', 'eu'), entry('mon_r3', 'us')]);
    const a = await repo.claim('a', ['eu', 'us'], T0, 30_000, 3);
    const b = await repo.claim('b', ['eu', 'us'], T0, 30_000, 3);
    expect(a.length + b.length).toBe(4);
    const all = [...a, ...b].map((c) => ({ monitorId: c.monitorId, regionCode: c.regionCode }));
    const ownerOf = async () =>
      Object.fromEntries(
        await Promise.all(
          all.map(async (k) => [
            `${k.monitorId}/${k.regionCode}`,
            (await repo.get(k.monitorId, k.regionCode))!.lease_owner,
          ]),
        ),
      );
    // Owner "b" releases every key (its own and a's, same row count as a's release below): only its own are freed.
    await repo.release('b', all.slice(0, a.length));
    const afterB = await ownerOf();
    for (const k of a) expect(afterB[`${k.monitorId}/${k.regionCode}`]).toBe('a');
    await repo.release('a', a);
    await repo.release('b', b);
    expect(Object.values(await ownerOf())).toEqual([null, null, null, null]);
  });

  it('a claim with lookahead takes rows due soon, reports their own slot and moves them one interval on', async () => {
    const repo = new ScheduleRepository(db.database);
    const phase = phaseOf('mon_ahead', INTERVAL);
    const slot = nextSlotAfter(T0, phase, INTERVAL);
    await repo.upsert([{ ...entry('mon_ahead', 'ahead'), firstDueAt: slot }]);
    expect(await repo.claim('p', ['ahead'], slot - 500, 30_000, 10, 300)).toEqual([]);
    const got = await repo.claim('p', ['ahead'], slot - 200, 30_000, 10, 300);
    expect(got.map((c) => c.dueAt)).toEqual([slot]);
    expect((await repo.get('mon_ahead', 'ahead'))!.next_due_at).toBe(slot + INTERVAL);
  });

  it('claims at most `limit` rows, the most overdue first', async () => {
    const repo = new ScheduleRepository(db.database);
    await repo.upsert(
      Array.from({ length: 20 }, (_, i) => entry(`mon_lim${String(i).padStart(2, '0')}`, 'lim', T0 - i * 1000)),
    );
    const got = await repo.claim('p', ['lim'], T0, 30_000, 5);
    expect(got).toHaveLength(5);
    expect(got.map((c) => c.monitorId).sort()).toEqual([
      'mon_lim15',
      'mon_lim16',
      'mon_lim17',
      'mon_lim18',
      'mon_lim19',
    ]);
  });

  it("claims fairly across organizations: round-robin over each one's oldest due checks, then by due time", async () => {
    const repo = new ScheduleRepository(db.database);
    // Organization "big": 50 checks due since 10 s ago (one a 100 ms); "small": 3 checks due only just now.
    await repo.upsert([
      ...Array.from({ length: 50 }, (_, i) => ({
        ...entry(`mon_big${String(i).padStart(2, '0')}`, 'fair', T0 - 10_000 + i * 100),
        organizationId: 'org_big',
      })),
      ...[0, 1, 2].map((i) => ({ ...entry(`mon_small${i}`, 'fair', T0 - 300 + i * 100), organizationId: 'org_small' })),
    ]);
    // Four free slots: strictly oldest-first would give all four to org_big.
    const first = await repo.claim('p', ['fair'], T0, 60_000, 4);
    const order = (cs: typeof first) =>
      [...cs].sort((a, b) => a.wasDueAt - b.wasDueAt).map((c) => `${c.organizationId}:${c.monitorId}`);
    expect(order(first)).toEqual([
      'org_big:mon_big00',
      'org_big:mon_big01',
      'org_small:mon_small0',
      'org_small:mon_small1',
    ]);
    // How late each was: the claim at T0 minus its due time before the claim.
    expect(first.map((c) => T0 - c.wasDueAt).sort((a, b) => b - a)).toEqual([10_000, 9_900, 300, 200]);
    const second = await repo.claim('p', ['fair'], T0, 60_000, 4);
    expect(order(second)).toEqual([
      'org_big:mon_big02',
      'org_big:mon_big03',
      'org_big:mon_big04',
      'org_small:mon_small2',
    ]);
    // Claimed rows (lease held: their check in flight) are not claimed again; the backlog is what is left.
    expect(await repo.backlog(T0)).toEqual([{ regionCode: 'fair', count: 45, oldestDueAt: T0 - 10_000 + 500 }]);
  });

  it('a late row skips its missed slots: the claim runs the latest slot and tells the oldest one', async () => {
    const repo = new ScheduleRepository(db.database);
    const first = T0 + 1_000;
    await repo.upsert([entry('mon_skip', 'skip', first)]);
    const now = first + 3 * INTERVAL + 700; // three slots missed
    const [c] = await repo.claim('p', ['skip'], now, 60_000, 10);
    expect(c).toMatchObject({ wasDueAt: first, dueAt: first + 3 * INTERVAL });
    expect((await repo.get('mon_skip', 'skip'))!.next_due_at).toBe(first + 4 * INTERVAL);
    // Leased, so not backlog; once its lease ends unreleased and its slot is due, it is.
    expect(await repo.backlog(now)).toEqual([]);
    expect(await repo.backlog(now + 60_001)).toEqual([
      { regionCode: 'skip', count: 1, oldestDueAt: first + 4 * INTERVAL },
    ]);
  });

  it('upsert keeps the due time unless the interval changed', async () => {
    const repo = new ScheduleRepository(db.database);
    await repo.upsert([entry('mon_up', 'local', T0 + 5000)]);
    await repo.upsert([{ ...entry('mon_up', 'local', T0 + 9000), monitorVersion: 2 }]);
    expect((await repo.get('mon_up', 'local'))!).toMatchObject({ next_due_at: T0 + 5000, monitor_version: 2 });
    await repo.upsert([{ ...entry('mon_up', 'local', T0 + 7000), intervalMs: 60_000 }]);
    expect((await repo.get('mon_up', 'local'))!).toMatchObject({ next_due_at: T0 + 7000, interval_ms: 60_000 });
  });

  it("a row's slots are anchored on its first due time, and stay there when it is saved again", async () => {
    const repo = new ScheduleRepository(db.database);
    const first = T0 + 2_345;
    await repo.upsert([entry('mon_anchor', 'anchor', first)]);
    expect((await repo.get('mon_anchor', 'anchor'))!.phase_ms).toBe(first % INTERVAL);
    const [c1] = await repo.claim('p', ['anchor'], first + 80, 30_000, 10);
    expect(c1!.dueAt).toBe(first);
    await repo.release('p', [c1!]);
    // Saved again later (another first due): the anchor does not move.
    await repo.upsert([{ ...entry('mon_anchor', 'anchor', T0 + 9_999), monitorVersion: 2 }]);
    expect((await repo.get('mon_anchor', 'anchor'))!).toMatchObject({
      phase_ms: first % INTERVAL,
      next_due_at: first + INTERVAL,
    });
    expect(await repo.claim('p', ['anchor'], first + INTERVAL - 1, 30_000, 10)).toEqual([]);
    const [c2] = await repo.claim('p', ['anchor'], first + INTERVAL + 50, 30_000, 10);
    expect(c2!.dueAt - c1!.dueAt).toBe(INTERVAL);
    // A new interval re-anchors on the new first due time.
    await repo.upsert([{ ...entry('mon_anchor', 'anchor', T0 + 100_001), intervalMs: 60_000 }]);
    expect((await repo.get('mon_anchor', 'anchor'))!).toMatchObject({
      phase_ms: (T0 + 100_001) % 60_000,
      next_due_at: T0 + 100_001,
    });
  });

  it('two handles (two processes) claiming concurrently never get the same slot', async () => {
    const repo = new ScheduleRepository(db.database);
    const other = new ScheduleRepository(db.reopen());
    await repo.upsert(
      Array.from({ length: 300 }, (_, i) => entry(`mon_race${String(i).padStart(3, '0')}`, 'race', T0)),
    );
    const seen = new Map<string, number>();
    for (let round = 0; round < 10; round++) {
      const now = T0 + round * 1000;
      const [a, b] = await Promise.all([
        Promise.all([repo.claim('a', ['race'], now, 60_000, 40), repo.claim('a', ['race'], now, 60_000, 40)]),
        Promise.all([other.claim('b', ['race'], now, 60_000, 40), other.claim('b', ['race'], now, 60_000, 40)]),
      ]);
      for (const c of [...a.flat(), ...b.flat()]) {
        const key = `${c.monitorId}@${c.dueAt}`;
        seen.set(key, (seen.get(key) ?? 0) + 1);
      }
    }
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
    expect(seen.size).toBe(300);
  });
});
