import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServices } from '../../src/main.ts';
import { CheckRunner, LocalWorkSource, createProbeRegistry } from '../../src/modules/checks/index.ts';
import { bearer, createTestApp, ManualClock, type TestApp } from '../support/app.ts';
import { skipWithout } from '../support/services.ts';
import { startHttpTarget, type RunningTarget } from '../support/targets/index.ts';

/** Two engines on two database handles (two "processes") sharing one PostgreSQL schedule. */
describe.skipIf(skipWithout('postgres'))('two engine instances on PostgreSQL', () => {
  let t: TestApp;
  let target: RunningTarget;
  const clock = new ManualClock(Date.parse('2026-04-01T00:00:00.000Z'));
  beforeAll(async () => {
    t = await createTestApp({ dialect: 'postgres', clock });
    target = await startHttpTarget();
  });
  afterAll(async () => {
    await target.close();
    await t.close();
  });

  it('never run the same (monitor, region, slot) twice and share the work', async () => {
    const org = await t.createOrg();
    const ids: string[] = [];
    for (let i = 0; i < 60; i++) {
      const r = await t.tocsin.app.inject({
        method: 'POST',
        url: '/api/v1/monitors',
        headers: bearer(org.apiKey),
        payload: { target: `${target.url}/m${i}`, interval_seconds: 10 },
      });
      ids.push(r.json<{ id: string }>().id);
    }
    const second = buildServices(t.config, t.db.reopen(), clock, t.tocsin.logger);
    const ran = new Map<string, string[]>();
    const runnerOf = (name: string, engine: typeof second.services.checks.engine) =>
      new CheckRunner({
        source: new LocalWorkSource(engine, name, ['local']),
        probes: createProbeRegistry(),
        clock,
        logger: t.tocsin.logger,
        concurrency: 25, // each takes at most 25 per round: both must work
        allowPrivateTargets: true,
        onResult: (c) =>
          ran.set(`${c.monitorId}|${c.regionCode}|${c.dueAt}`, [
            ...(ran.get(`${c.monitorId}|${c.regionCode}|${c.dueAt}`) ?? []),
            name,
          ]),
      });
    const a = runnerOf('A', t.tocsin.services.checks.engine);
    const b = runnerOf('B', second.services.checks.engine);
    for (let round = 0; round < 8; round++) {
      clock.advance(5_000);
      // Several claims race in each round.
      await Promise.all([a.runOnce(), b.runOnce(), a.runOnce(), b.runOnce()]);
    }
    const duplicates = [...ran.values()].filter((owners) => owners.length > 1);
    expect(duplicates).toEqual([]);
    const byOwner = { A: 0, B: 0 } as Record<string, number>;
    for (const owners of ran.values()) byOwner[owners[0]!]! += 1;
    expect(byOwner.A).toBeGreaterThan(0);
    expect(byOwner.B).toBeGreaterThan(0);
    // Every monitor was checked: up after its first result.
    const statuses = await t.tocsin.services.monitors.findManyAnywhere(ids);
    expect(statuses.every((m) => m.status === 'up')).toBe(true);
  });
});
