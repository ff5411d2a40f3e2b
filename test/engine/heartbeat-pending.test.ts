/**
 * A heartbeat monitor has no verdict before its first ping: it stays `pending` (not `up`) while its first deadline
 * (creation + interval + grace) has not passed. Its first ping makes it up at once; silence past the grace takes it
 * down; a monitor that never received a ping goes down once that first deadline has passed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, ManualClock, type TestApp } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';

describe.each(testDialects())('heartbeat monitor before its first ping on %s', (dialect) => {
  let t: TestApp;
  let clock: ManualClock;

  beforeAll(async () => {
    clock = new ManualClock(Date.parse('2026-03-01T10:00:00.000Z'));
    t = await createTestApp({ dialect, clock });
  });
  afterAll(async () => {
    await t.close();
  });

  /** Scheduler rounds every second for `ms`. */
  async function run(ms: number) {
    for (let elapsed = 0; elapsed < ms; elapsed += 1_000) {
      clock.advance(1_000);
      await t.tocsin.services.checks.localRunner.runOnce();
    }
  }

  async function createHeartbeat() {
    const org = await t.createOrg();
    const created = await t.tocsin.app.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      headers: bearer(org.apiKey),
      payload: {
        type: 'heartbeat',
        name: 'nightly job',
        interval_seconds: 60,
        config: { grace_seconds: 30, failure_threshold: 1, success_threshold: 1 },
      },
    });
    expect(created.statusCode).toBe(201);
    const m = created.json<{ id: string; target: string; status: string }>();
    expect(m.status).toBe('pending');
    const status = async () => (await t.tocsin.services.monitors.findAnywhere(m.id))!.status;
    return { id: m.id, path: new URL(m.target).pathname, status };
  }

  it('stays pending until the first ping, then is up, and goes down after interval + grace without a ping', async () => {
    const hb = await createHeartbeat();
    await run(80_000); // several slots, still inside the first deadline (60 s + 30 s)
    expect(await hb.status()).toBe('pending');
    expect((await t.tocsin.app.inject({ method: 'POST', url: hb.path })).statusCode).toBe(200);
    await run(1_000);
    expect(await hb.status()).toBe('up');
    await run(60_000 + 30_000 + 30_000);
    expect(await hb.status()).toBe('down');
  });

  it('never pinged: pending until the first deadline has passed, then down ("no heartbeat received yet")', async () => {
    const hb = await createHeartbeat();
    await run(85_000);
    expect(await hb.status()).toBe('pending');
    await run(70_000);
    expect(await hb.status()).toBe('down');
  });
});
