/**
 * Graceful under pressure (issue 18, item 5): one organization has 40 monitors whose targets never answer within
 * their 5 s timeout, another has 2 fast ones, and the runner has 4 slots. The test plays the runner against the
 * real engine and database (claim as many as free slots every 100 ms of a ManualClock; a slow check reports its
 * timeout 5 s after its claim, a fast one at once): the small organization's checks are still claimed on time
 * while the big one's backlog grows, a slot whose check is in flight is not claimed again, and /readyz and
 * /metrics tell how far behind the checks are.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHEDDING_AFTER_MS, type CheckResult, type ClaimedCheck } from '../../src/modules/checks/index.ts';
import { bearer, createTestApp, ManualClock, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { sampleValue } from '../operations/prometheus.text.ts';

const T0 = Date.parse('2026-06-01T00:00:00.000Z');
const INTERVAL_MS = 10_000;
const TIMEOUT_MS = 5_000;
const SLOTS = 4;
const TICK_MS = 100;

describe.each(testDialects())('fair shedding across organizations (%s)', (dialect) => {
  let t: TestApp;
  const clock = new ManualClock(T0);
  let big: TestOrg;
  let small: TestOrg;
  const orgOf = new Map<string, string>();

  async function monitors(org: TestOrg, n: number, firstDue: (i: number) => number): Promise<void> {
    for (let i = 0; i < n; i++) {
      const res = await t.tocsin.app.inject({
        method: 'POST',
        url: '/api/v1/monitors',
        headers: bearer(org.apiKey),
        payload: { target: `http://127.0.0.1:9/${i}`, interval_seconds: INTERVAL_MS / 1000 },
      });
      expect(res.statusCode).toBe(201);
      const id = res.json<{ id: string }>().id;
      orgOf.set(id, org === big ? 'big' : 'small');
      // Exact due times instead of the per-monitor jitter, so the claim order is known.
      const due = firstDue(i);
      await sql`update check_schedule set next_due_at = ${due}, phase_ms = ${due % INTERVAL_MS}
                 where monitor_id = ${id}`.execute(t.tocsin.database.tables<unknown>());
    }
  }

  beforeAll(async () => {
    t = await createTestApp({
      dialect,
      clock,
      configFile: { metrics: { enabled: true }, scheduler: { lease_seconds: 60 } },
    });
    big = await t.createOrg();
    small = await t.createOrg();
    await monitors(big, 40, (i) => T0 + 1_000 + i);
    await monitors(small, 2, (i) => T0 + 1_100 + i);
  });
  afterAll(async () => {
    await t.close();
  });

  const result = (c: ClaimedCheck, up: boolean): CheckResult => ({
    monitorId: c.monitorId,
    regionCode: c.regionCode,
    dueAt: c.dueAt,
    observation: {
      status: up ? 'up' : 'down',
      started_at: clock.now(),
      duration_ms: up ? 3 : TIMEOUT_MS,
      timings: { dns_ms: null, connect_ms: null, tls_ms: null, ttfb_ms: null, download_ms: null, total_ms: 3 },
      http_status: up ? 200 : null,
      assertions: [],
      error: up ? null : { code: 'timeout', message: `no answer within ${TIMEOUT_MS} ms` },
    },
  });

  it('the small organization is claimed on time while the big one sheds; /readyz and /metrics show the pressure', async () => {
    const engine = t.tocsin.services.checks.engine;
    const owner = 'proc_fair_test';
    /** Claimed checks in flight and when each reports. */
    const inFlight = new Map<string, { check: ClaimedCheck; endsAt: number }>();
    const claims: Array<{ org: string; monitorId: string; at: number; latenessMs: number }> = [];
    clock.set(T0 + 1_200);
    const end = T0 + 61_200;
    while (clock.now() < end) {
      const now = clock.now();
      const done = [...inFlight.values()].filter((f) => f.endsAt <= now);
      if (done.length > 0) {
        await engine.applyResults(
          owner,
          done.map((f) => result(f.check, orgOf.get(f.check.monitorId) === 'small')),
        );
        for (const f of done) inFlight.delete(f.check.monitorId);
      }
      const free = SLOTS - inFlight.size;
      if (free > 0) {
        for (const c of await engine.claim(owner, ['local'], free)) {
          // A monitor whose previous check is still in flight is never handed out again.
          expect(inFlight.has(c.monitorId)).toBe(false);
          const org = orgOf.get(c.monitorId)!;
          inFlight.set(c.monitorId, { check: c, endsAt: now + (org === 'small' ? 0 : TIMEOUT_MS) });
          claims.push({ org, monitorId: c.monitorId, at: now, latenessMs: now - c.dueAt });
        }
      }
      clock.advance(TICK_MS);
    }

    // The first claim: round-robin, each organization's oldest first (strictly oldest-first: four of "big").
    const first = claims.filter((c) => c.at === T0 + 1_200).map((c) => c.org);
    expect(first.sort()).toEqual(['big', 'big', 'small', 'small']);
    // Every slot of the small organization ran within one claim round of its due time, six slots each.
    const smallClaims = claims.filter((c) => c.org === 'small');
    expect(smallClaims).toHaveLength(12);
    // No slot is preempted, so a small check waits for the next slot to free, and gets that one: no check of "big"
    // was claimed between a small check's due time and its claim.
    for (const c of smallClaims) {
      expect(c.latenessMs).toBeLessThan(SHEDDING_AFTER_MS);
      const bigMeanwhile = claims.filter((b) => b.org === 'big' && b.at >= c.at - c.latenessMs && b.at < c.at);
      expect(bigMeanwhile).toEqual([]);
    }
    // "big" gets what is left: 4 slots held 5 s each, minus the small organization's share.
    const bigClaims = claims.filter((c) => c.org === 'big');
    expect(bigClaims.length).toBeGreaterThanOrEqual(40);
    expect(bigClaims.length).toBeLessThanOrEqual(48);

    const p = await engine.pressure();
    expect(p.shedding).toBe(true);
    expect(p.backlog).toBeGreaterThan(30);
    expect(p.oldestDueAgeMs).toBeGreaterThan(INTERVAL_MS);
    expect(p.latenessP99Ms).toBeGreaterThan(INTERVAL_MS);

    const ready = await t.tocsin.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200); // late, not unavailable
    expect(ready.json()).toEqual({
      status: 'ready',
      database: dialect,
      checks: {
        lateness_p50_ms: p.latenessP50Ms,
        lateness_p99_ms: p.latenessP99Ms,
        claimed_last_minute: p.claimedLastMinute,
        backlog: p.backlog,
        oldest_due_age_ms: p.oldestDueAgeMs,
        shedding: true,
      },
    });
    // The window is the last 60 whole seconds (the current one included).
    expect(p.claimedLastMinute).toBe(
      claims.filter((c) => c.at >= Math.floor(clock.now() / 1000) * 1000 - 59_000).length,
    );

    const scrape = (await t.tocsin.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(sampleValue(scrape, 'tocsin_checks_backlog', { region: 'local' })).toBe(p.backlog);
    expect(sampleValue(scrape, 'tocsin_checks_oldest_due_age_seconds', { region: 'local' })).toBe(
      p.oldestDueAgeMs / 1000,
    );
    expect(sampleValue(scrape, 'tocsin_check_claim_lateness_seconds_count', { region: 'local' })).toBe(claims.length);
    // Big monitors claimed more than an interval late skipped slots (never queued twice).
    expect(sampleValue(scrape, 'tocsin_check_slots_skipped_total', { region: 'local' })).toBeGreaterThan(0);
  });

  it('with nothing due, /readyz shows no backlog and no shedding', async () => {
    await sql`update check_schedule set next_due_at = ${clock.now() + 60_000}, lease_owner = null, lease_until = null`.execute(
      t.tocsin.database.tables<unknown>(),
    );
    const ready = await t.tocsin.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().checks).toMatchObject({ backlog: 0, oldest_due_age_ms: 0, shedding: false });
  });
});
