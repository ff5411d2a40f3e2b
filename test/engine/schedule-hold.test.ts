/**
 * CheckEngine.hold: monitors leased to an owner are not claimed by any runner until the hold ends (`tocsin demo`
 * writing their history beside a running server), and releaseHold hands them back. The demo generator holds every
 * monitor it saves from the transaction that saves it, and releases them when done.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemo } from '../../src/cli/demo/demo.generator.ts';
import { bearer, createTestApp, ManualClock, type TestApp } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';

describe.each(testDialects())('holding monitors off the runners (%s)', (dialect) => {
  let t: TestApp;
  const clock = new ManualClock(Date.parse('2026-11-24T10:00:00.000Z'));
  beforeAll(async () => {
    t = await createTestApp({ dialect, clock });
  });
  afterAll(async () => t.close());

  it('a held monitor is not claimed until the hold is released', async () => {
    const org = await t.createOrg();
    const res = await t.tocsin.app.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      headers: bearer(org.apiKey),
      payload: { name: 'Held', type: 'tcp', target: '127.0.0.1:9', interval_seconds: 30 },
    });
    expect(res.statusCode, res.body).toBe(201);
    const { engine } = t.tocsin.services.checks;
    await t.tocsin.database.transaction((tx) => engine.hold(tx, 'holder', [res.json().id], clock.now() + 600_000));
    clock.advance(60_000);
    expect(await engine.claim('runner', ['local'], 10)).toEqual([]);
    await engine.releaseHold('holder');
    expect((await engine.claim('runner', ['local'], 10)).map((c) => c.monitorId)).toEqual([res.json().id]);
  });

  it('the demo holds what it creates while it writes, and releases it at the end', async () => {
    const { engine } = t.tocsin.services.checks;
    let meanwhile: Promise<unknown[]> | undefined;
    const demo = await generateDemo(
      {
        services: t.tocsin.services,
        database: t.tocsin.database,
        // The app's clock, as the command does: services and the engine stand at each moment of the history.
        clock,
        logger: t.tocsin.logger,
        hold: { owner: 'demo-hold', until: clock.now() + 600_000 },
      },
      {
        monitors: 3,
        // 720 ticks: progress is told at tick 500, days after the monitors' first slots.
        days: 5,
        intervalSeconds: 600,
        now: clock.now(),
        seed: 3,
        organizationName: 'Held demo',
        email: 'held@example.com',
        // While the history is written (its monitors exist, long overdue), a runner at the present claims nothing.
        progress: (done) => {
          if (done > 0) meanwhile ??= engine.claim('runner', ['local'], 100);
        },
      },
    );
    expect(meanwhile).toBeDefined();
    expect(await meanwhile).toEqual([]);
    // Released: every demo monitor is claimed once its next slot is due (one resumed at the last tick waits a phase).
    clock.advance(2 * 600_000);
    const claimed = (await engine.claim('runner', ['local'], 100))
      .map((c) => c.monitorId)
      .filter((id) => demo.monitor_ids.includes(id));
    expect(claimed.sort()).toEqual([...demo.monitor_ids].sort());
  });
});
