/**
 * Idle loops wait on change signals, not on a poll: a change committed by another process (another database handle
 * with its own signals, like a second `tocsin serve` or an admin command) reaches this process — on PostgreSQL
 * through LISTEN/NOTIFY, on SQLite through `data_version` within a second — so its idle dispatcher and idle runner,
 * whose safety polls are then 30 s apart, act on it at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServices, type Built } from '../../src/main.ts';
import { systemClock } from '../../src/platform/clock.ts';
import type { Database } from '../../src/platform/db/index.ts';
import { LONG_SAFETY_POLL_MS } from '../../src/platform/db/index.ts';
import { createTestApp, type TestApp, type TestOrg } from '../support/app.ts';
import { testServices } from '../support/services.ts';
import { startStallMeter } from '../support/stall-meter.ts';
import { startHttpTarget, type RunningTarget } from '../support/targets/index.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * How long until `what` holds, in the time this process could run: on a loaded machine the process's timers (the
 * dispatcher's, the runner's, the signal listener's) fire late by however long it could not run, and that stall is
 * neither counted against the bound nor against the `ms` allowed.
 */
async function waitFor(what: () => Promise<boolean>, ms: number): Promise<number> {
  const meter = startStallMeter();
  const start = Date.now();
  try {
    while (Date.now() - start - meter.stalledMs() < ms) {
      if (await what()) return Date.now() - start - meter.stalledMs();
      await sleep(25);
    }
  } finally {
    meter.stop();
  }
  throw new Error(`not within ${ms} ms`);
}

const dialects = (['sqlite', 'postgres'] as const).filter((d) => d === 'sqlite' || testServices.postgresUrl);

/** How soon after the other process's commit this one has acted, at most: NOTIFY at once, data_version ≤ 1 s. */
const noticedWithinMs = { sqlite: 1_000, postgres: 0 };

describe.each(dialects)('change signals across processes (%s)', (dialect) => {
  let t: TestApp;
  let other: Built;
  let otherDb: Database;
  let org: TestOrg;
  let target: RunningTarget;
  let startedAt: number;
  beforeAll(async () => {
    target = await startHttpTarget();
    // This process: every background role, the real clock, no monitors (idle).
    t = await createTestApp({ dialect, clock: systemClock, background: true });
    org = await t.createOrg();
    await t.tocsin.startBackground();
    startedAt = Date.now();
    // The "other process": its own pool and signals, no background roles (its changes must be heard, not run).
    otherDb = t.db.reopen();
    other = buildServices(t.config, otherDb, systemClock, t.tocsin.logger);
  }, 30_000);
  afterAll(async () => {
    await t?.close();
    await otherDb?.close();
    await target?.close();
  });

  it('another process’s outbox event is fanned out at once by this idle dispatcher', async () => {
    // Idle for 8 s: the dispatcher's waits have doubled past 6 s (without the signal it would see the event late).
    await sleep(8_000);
    const event = await otherDb.transaction((tx) =>
      other.services.events.record(tx, {
        organizationId: org.organizationId,
        type: 'monitor_status_changed',
        monitorId: null,
        incidentId: null,
        occurredAt: Date.now(),
        payload: { from: 'pending', to: 'up' },
      }),
    );
    const took = await waitFor(() => t.tocsin.services.events.consumedBy('alerting', event.id), 3_000);
    expect(took).toBeLessThan(1_500 + noticedWithinMs[dialect]);
  }, 20_000);

  it('a monitor created by another process is checked on its first slot, not at the 30 s safety poll', async () => {
    const actor = (await other.services.auth.authenticate(org.apiKey))!;
    const created = Date.now();
    const monitor = await other.services.monitors.create(
      { actor, db: otherDb, clock: systemClock },
      { target: `${target.url}/new`, interval_seconds: 30, name: 'made elsewhere' },
    );
    // First due within 5 s of its creation (jitter); this runner has slept since its start, its next safety poll
    // is LONG_SAFETY_POLL_MS after that.
    const took = await waitFor(
      async () => (await t.tocsin.services.monitors.findManyAnywhere([monitor.id]))[0]?.status === 'up',
      10_000,
    );
    expect(took).toBeLessThan(7_000 + noticedWithinMs[dialect]);
    expect(created - startedAt + took).toBeLessThan(LONG_SAFETY_POLL_MS);
  }, 20_000);
});
